// A user draws a bot from an empty project in Chromium: a /start command, a message with text and
// two inline buttons, the connections, a second message behind a button; saves; the platform
// starts the bot against the fake messenger and the fake user gets exactly what was drawn.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FakeUser } from "../support/fake-messenger";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { connect, edgeCount, editorEnv, handle, newProject, nodeEl, nodeIds, openEditor, pick, settled, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: draw a bot");

describe.skipIf(!haveChromium)("editor: draw a bot and run it", () => {
  let env: EditorEnv;
  let projectId: number;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Drawn bot");
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("draw: trigger, message with two buttons, quick-add and drag connections, second message", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    expect(await nodeIds(page)).toEqual([]);

    await page.locator('.ed-palette-item[data-type="command_trigger"]').click();
    [ids.trigger] = await nodeIds(page);
    await expect(page.getByLabel("Command", { exact: true }).inputValue()).resolves.toBe("/start");

    // quick add from the trigger's "next" handle: a message, already connected
    await nodeEl(page, ids.trigger!).getByRole("button", { name: /add next from/ }).click();
    await page.getByRole("menuitem", { name: "Message", exact: true }).click();
    ids.message = (await nodeIds(page)).find((id) => id !== ids.trigger)!;
    expect(await edgeCount(page)).toBe(1);

    const props = page.getByRole("complementary", { name: "Properties" });
    await props.getByLabel("Text", { exact: true }).fill("Hello from the canvas, {first_name}!");
    // one way to add buttons: the first one makes them inline buttons under the message
    expect(await props.getByLabel("Show buttons").count()).toBe(0);
    await props.getByRole("button", { name: "Add button" }).click();
    await props.getByRole("button", { name: "Add button" }).click();
    expect(await props.getByLabel("Show buttons").inputValue()).toBe("inline");
    await props.getByLabel("Button text").nth(0).fill("Menu");
    await props.getByLabel("Button text").nth(1).fill("About");
    await expect(nodeEl(page, ids.message!).locator(".ed-var").textContent()).resolves.toBe("{first_name}");
    await expect(nodeEl(page, ids.message!).locator(".ed-btn").allTextContents()).resolves.toEqual(["Menu", "About"]);

    await page.locator('.ed-palette-item[data-type="message"]').click();
    ids.about = (await nodeIds(page)).find((id) => id !== ids.trigger && id !== ids.message)!;
    await props.getByLabel("Text", { exact: true }).fill("About this bot");
    // The layout runs off the main thread (elkjs): wait until it has moved the nodes.
    const positions = () => page.evaluate(() => [...document.querySelectorAll(".react-flow__node")].map((n) => (n as HTMLElement).style.transform).join("|"));
    const before = await positions();
    const fits = () => page.getByTestId("canvas").getAttribute("data-fitted").then(Number);
    const laidOut = await fits();
    await page.getByRole("button", { name: "Auto-layout" }).click();
    await page.waitForFunction((b) => [...document.querySelectorAll(".react-flow__node")].map((n) => (n as HTMLElement).style.transform).join("|") !== b, before);
    await page.waitForFunction((n) => Number(document.querySelector(".ed-canvas")?.getAttribute("data-fitted")) > n, laidOut);
    // the fit is animated: like a person, drag once the view has come to rest
    const fitted = await fits();
    await page.getByRole("button", { name: "Fit View" }).click();
    await page.waitForFunction((n) => Number(document.querySelector(".ed-canvas")?.getAttribute("data-fitted")) > n, fitted);
    await settled(page);

    // drag: the "About" button's handle onto the second message
    const about = await page.evaluate((id) => {
      const doc = document.querySelector(`.ed-node[data-node-id="${id}"]`)!;
      return [...doc.querySelectorAll(".ed-slot-button")].map((s) => s.getAttribute("data-slot"));
    }, ids.message!);
    await page.screenshot({ path: "/tmp/ed-draw.png" });
    await connect(page, { id: ids.message!, handle: about[1]! }, ids.about!);
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__edge").length === 2);
    expect(await handle(page, ids.about!, "in").count()).toBe(1);
    expect(env.b.errors).toEqual([]);
  }, 60_000);

  test("undo and redo (buttons and keys) take back the connection and return it", async () => {
    const { page } = env.b;
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+z");
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__edge").length === 1);
    await page.getByRole("button", { name: "Redo" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__edge").length === 2);
    await page.getByRole("button", { name: "Undo" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__edge").length === 1);
    await page.keyboard.press("Control+Shift+z");
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__edge").length === 2);
  }, 30_000);

  test("save with a message: transitions are in node data, edges drawn consistently", async () => {
    const { page } = env.b;
    await page.getByLabel("Commit message").fill("first drawing");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const p = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body;
    const nodes = new Map<string, any>(p.data.sheets[0].nodes.map((n: any) => [n.id, n]));
    expect(nodes.get(ids.trigger!).data).toMatchObject({ command: "/start", autoTransitionTo: ids.message });
    const msg = nodes.get(ids.message!).data;
    expect(msg.messageText).toBe("Hello from the canvas, {first_name}!");
    expect(msg.buttons.map((b: any) => [b.text, b.action, b.target])).toEqual([["Menu", "goto", ""], ["About", "goto", ids.about]]);
    expect(p.data.sheets[0].edges.map((e: any) => `${e.source}>${e.target}`).sort()).toEqual([`${ids.message}>${ids.about}`, `${ids.trigger}>${ids.message}`].sort());
    const versions = (await env.t.call("GET", `/api/projects/${projectId}/versions`, { cookie: env.cookie })).body;
    expect(JSON.stringify(versions)).toContain("first drawing");
  }, 30_000);

  test("the bot runs what was drawn: /start gives the text and both buttons; About leads on", async () => {
    const bot = env.fake.addBot({ username: "drawn_bot" });
    const token = await env.t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: bot.token } });
    expect(token.status).toBe(200);
    expect((await env.t.call("POST", `/api/bot/tokens/${token.body.id}/start`, { cookie: env.cookie })).status).toBe(200);
    const user: FakeUser = { id: 9001, first_name: "Tess" };
    env.fake.sendText(bot.token, user, "/start");
    const [m] = await env.fake.waitForSent(bot.token, user.id, 1, 20_000);
    expect(m!.params.text).toBe("Hello from the canvas, Tess!");
    const rows = m!.params.reply_markup.inline_keyboard as { text: string; callback_data: string }[][];
    expect(rows.flat().map((b) => b.text)).toEqual(["Menu", "About"]);
    env.fake.pressButton(bot.token, user, rows.flat()[1]!.callback_data, m!.messageId);
    const [next] = await env.fake.waitForSent(bot.token, user.id, 1, 10_000);
    expect(next!.params.text).toBe("About this bot");
    await env.t.call("POST", `/api/bot/tokens/${token.body.id}/stop`, { cookie: env.cookie });
  }, 60_000);

  test("preview side panel: runs the unsaved document, flashes the sending node, a click on a message selects its node", async () => {
    const { page } = env.b;
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await pick(page, ids.about!);
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("About (not saved yet)");
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const chat = page.getByTestId("editor-preview");
    await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    await chat.getByLabel("Message", { exact: true }).fill("/start");
    await chat.getByRole("button", { name: "Send" }).click();
    const first = chat.locator('[data-testid=pv-message][data-from=bot]').first();
    await first.waitFor({ timeout: 20_000 });
    expect(await first.getAttribute("data-node")).toBe(ids.message!);
    await nodeEl(page, ids.message!).and(page.locator(".flash")).waitFor({ timeout: 5_000 });
    await chat.getByRole("button", { name: "About", exact: true }).click();
    const second = chat.locator('[data-testid=pv-message][data-from=bot]').nth(1);
    await second.waitFor({ timeout: 20_000 });
    await expect(second.getByTestId("pv-text").textContent()).resolves.toBe("About (not saved yet)");
    await first.locator(".pv-bubble").click();
    await nodeEl(page, ids.message!).and(page.locator(".selected")).waitFor();
    expect(env.b.errors).toEqual([]);
  }, 90_000);
});
