// The done-when walk of issue 27: a newcomer draws "/start → a message with two buttons → one
// answers, the other asks the user's name and greets them by it" from an empty project with mouse
// and keyboard only (test/browser/drawing-walk.ts counts every action and this test prints the
// count), tries it in the preview, then starts it on the fake messenger, which answers the same.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FakeUser } from "../support/fake-messenger";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { drawWalk, WALK, type Drawn } from "./drawing-walk";
import { editorEnv, newProject, openEditor, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: drawing walk");

/** The target; the count is printed either way so a session can follow it. */
const TARGET = 25;

describe.skipIf(!haveChromium)("editor: the drawing walk", () => {
  let env: EditorEnv;
  let projectId: number;
  let drawn: Drawn;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "First bot");
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test(`draw the bot from an empty project in at most ${TARGET} actions`, async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    drawn = await drawWalk(page);
    console.log(JSON.stringify({ drawingWalk: { actions: drawn.actions, target: TARGET, steps: drawn.log } }));
    await page.screenshot({ path: "/tmp/editor-c-walk.png" });
    const saved = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
    const nodes = new Map<string, any>(saved.sheets[0].nodes.map((n: any) => [n.id, n]));
    expect(nodes.size).toBe(5);
    expect(nodes.get(drawn.trigger).data).toMatchObject({ command: "/start", autoTransitionTo: drawn.menu });
    expect(nodes.get(drawn.menu).data.buttons.map((b: any) => [b.text, b.target])).toEqual([[WALK.about, drawn.about], [WALK.name, drawn.ask]]);
    expect(nodes.get(drawn.ask).data).toMatchObject({ messageText: WALK.ask, collectUserInput: true, inputVariable: WALK.variable, inputTargetNodeId: drawn.greet });
    expect(drawn.actions).toBeLessThanOrEqual(TARGET);
    expect(env.b.errors).toEqual([]);
  }, 90_000);

  test("the preview answers as drawn: both buttons, the question, the greeting by name", async () => {
    const { page } = env.b;
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const chat = page.getByTestId("editor-preview");
    await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    const bot = chat.locator("[data-testid=pv-message][data-from=bot]");
    await chat.getByLabel("Message", { exact: true }).fill("/start");
    await chat.getByRole("button", { name: "Send" }).click();
    await bot.first().waitFor({ timeout: 20_000 });
    await expect(bot.first().getByTestId("pv-text").textContent()).resolves.toStartWith("Hi ");
    await chat.getByRole("button", { name: WALK.about }).click();
    await bot.nth(1).waitFor({ timeout: 20_000 });
    await expect(bot.nth(1).getByTestId("pv-text").textContent()).resolves.toBe(WALK.aboutAnswer);
    await chat.getByRole("button", { name: WALK.name }).first().click();
    await bot.nth(2).waitFor({ timeout: 20_000 });
    await expect(bot.nth(2).getByTestId("pv-text").textContent()).resolves.toBe(WALK.ask);
    await chat.getByLabel("Message", { exact: true }).fill("Ann");
    await chat.getByRole("button", { name: "Send" }).click();
    await bot.nth(3).waitFor({ timeout: 20_000 });
    await expect(bot.nth(3).getByTestId("pv-text").textContent()).resolves.toBe("Nice to meet you, Ann!");
    expect(env.b.errors).toEqual([]);
  }, 90_000);

  test("started on the fake messenger, the bot answers the same way", async () => {
    const bot = env.fake.addBot({ username: "first_walk_bot" });
    const token = await env.t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: bot.token } });
    expect(token.status).toBe(200);
    expect((await env.t.call("POST", `/api/bot/tokens/${token.body.id}/start`, { cookie: env.cookie })).status).toBe(200);
    const user: FakeUser = { id: 9101, first_name: "Tess" };
    env.fake.sendText(bot.token, user, "/start");
    const [menu] = await env.fake.waitForSent(bot.token, user.id, 1, 20_000);
    expect(menu!.params.text).toBe("Hi Tess! What would you like?");
    const buttons = (menu!.params.reply_markup.inline_keyboard as { text: string; callback_data: string }[][]).flat();
    expect(buttons.map((b) => b.text)).toEqual([WALK.about, WALK.name]);
    env.fake.pressButton(bot.token, user, buttons[0]!.callback_data, menu!.messageId);
    const [answer] = await env.fake.waitForSent(bot.token, user.id, 1, 10_000);
    expect(answer!.params.text).toBe(WALK.aboutAnswer);
    env.fake.pressButton(bot.token, user, buttons[1]!.callback_data, menu!.messageId);
    const [ask] = await env.fake.waitForSent(bot.token, user.id, 1, 10_000);
    expect(ask!.params.text).toBe(WALK.ask);
    env.fake.sendText(bot.token, user, "Tess");
    const [greet] = await env.fake.waitForSent(bot.token, user.id, 1, 10_000);
    expect(greet!.params.text).toBe("Nice to meet you, Tess!");
    await env.t.call("POST", `/api/bot/tokens/${token.body.id}/stop`, { cookie: env.cookie });
  }, 60_000);
});
