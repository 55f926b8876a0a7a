// The editor's preview panel (issue 27 item 12): bot messages name their node by its text, a hint
// says a message finds its node, the walked path lights up on the canvas as the chat goes (nodes
// and the links between them), a restart clears it, and the chat can start over at any node.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: preview walk");

const doc = {
  sheets: [
    {
      id: "main",
      name: "Main",
      nodes: [
        { id: "start", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", autoTransitionTo: "hello" } },
        {
          id: "hello",
          type: "message",
          position: { x: 340, y: 0 },
          data: { messageText: "Welcome to the shop", keyboardType: "inline", buttons: [{ id: "b1", text: "Prices", action: "goto", target: "prices" }, { id: "b2", text: "Hours", action: "goto", target: "hours" }] },
        },
        { id: "prices", type: "message", position: { x: 700, y: -80 }, data: { messageText: "Everything costs 5" } },
        { id: "hours", type: "message", position: { x: 700, y: 160 }, data: { messageText: "Open 9 to 5" } },
      ],
      edges: [],
    },
  ],
};

describe.skipIf(!haveChromium)("editor: the preview walks the canvas", () => {
  let env: EditorEnv;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Walk", doc);
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  // the walked path is a style over the canvas: ask which node cards it reached
  const walked = () => env.b.page.locator(".ed-node").evaluateAll((els) => els.filter((e) => getComputedStyle(e).getPropertyValue("--walked").trim() === "1").map((e) => e.getAttribute("data-node-id")).sort());
  const walkedEdges = () => env.b.page.locator(".react-flow__edge").evaluateAll((els) => els.filter((e) => getComputedStyle(e).getPropertyValue("--walked").trim() === "1").map((e) => e.getAttribute("data-id")));
  const waitWalked = (ids: string[]) => env.b.page.waitForFunction((want) => {
    const got = [...document.querySelectorAll(".ed-node")].filter((e) => getComputedStyle(e).getPropertyValue("--walked").trim() === "1").map((e) => e.getAttribute("data-node-id")).sort();
    return JSON.stringify(got) === JSON.stringify(want);
  }, [...ids].sort());

  test("names instead of ids, the click hint, the path lit node by node with its links", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const chat = page.getByTestId("editor-preview");
    await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    await expect(chat.getByTestId("pv-hint").textContent()).resolves.toContain("Click a bot message");
    expect(await walked()).toEqual([]);
    await chat.getByLabel("Message", { exact: true }).fill("/start");
    await chat.getByRole("button", { name: "Send" }).click();
    const first = chat.locator("[data-testid=pv-message][data-from=bot]").first();
    await first.waitFor({ timeout: 20_000 });
    // named by its text, never by its id; a bubble that says the node's own words has no second line
    expect(await first.locator(".pv-bubble").getAttribute("title")).toBe("Sent by “Welcome to the shop” — click to find it on the canvas");
    expect(await first.getByTestId("pv-node").count()).toBe(0);
    expect(await chat.textContent()).not.toContain("hello");
    await waitWalked(["hello"]);
    await chat.getByRole("button", { name: "Prices" }).click();
    await chat.locator("[data-testid=pv-message][data-from=bot]").nth(1).waitFor({ timeout: 20_000 });
    await waitWalked(["hello", "prices"]);
    // the link the chat took is lit, the one it did not take is not
    const taken = await walkedEdges();
    expect(taken.length).toBe(1);
    expect(taken[0]).toStartWith("hello|");
    await page.screenshot({ path: "/tmp/editor-c-preview-walk.png" });

    await chat.getByRole("button", { name: "Restart" }).click();
    await waitWalked([]);
    expect(env.b.errors).toEqual([]);
  }, 90_000);

  test("restart from the selected node: the chat begins there, the saved document is untouched", async () => {
    const { page } = env.b;
    const chat = page.getByTestId("editor-preview");
    await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    await pick(page, "hours");
    await chat.getByRole("button", { name: "Restart from “Open 9 to 5”" }).click();
    const first = chat.locator("[data-testid=pv-message][data-from=bot]").first();
    await first.waitFor({ timeout: 30_000 });
    await expect(first.getByTestId("pv-text").textContent()).resolves.toBe("Open 9 to 5");
    await waitWalked(["hours"]);
    expect(await walked()).toEqual(["hours"]);
    // nothing changed in the editor: no unsaved changes, /start still leads to the welcome
    await expect(page.getByTestId("save-status").textContent()).resolves.not.toContain("Unsaved");
    const saved = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
    expect(saved.sheets[0].nodes[0].data.autoTransitionTo).toBe("hello");
    // a trigger is no place to start from: no such button
    await pick(page, "start");
    expect(await chat.getByRole("button", { name: /Restart from/ }).count()).toBe(0);
    expect(env.b.errors).toEqual([]);
  }, 90_000);
});
