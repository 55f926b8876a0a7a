// Two browser tabs editing one project: the second save is refused, and the conflict dialog says
// whose edit each listed node is, so "keep mine" and "load theirs" say what they drop. It used to
// list a node only the other tab had edited, under "Different in both", with this tab's old text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: two tabs");

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({ id, type, position: { x, y }, data });
const doc = () => ({
  version: 2,
  sheets: [{ id: "main", name: "Main", nodes: [node("start", "command_trigger", 0, 0, { command: "/start", autoTransitionTo: "hello" }), node("hello", "message", 320, 0, { messageText: "Hello" }), node("bye", "message", 320, 300, { messageText: "Bye" })], edges: [] }],
});

describe.skipIf(!haveChromium)("editor: two tabs", () => {
  let env: EditorEnv;
  let A: Page, B: Page;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "Two tabs", doc());
    A = env.b.page;
    B = await env.b.context.newPage();
    await openEditor(A, env.base, projectId);
    await openEditor(B, env.base, projectId);
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  const write = async (page: Page, id: string, text: string) => {
    await pick(page, id);
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill(text);
  };
  const save = async (page: Page) => {
    await page.getByRole("button", { name: "Save", exact: true }).click();
  };
  const section = (page: Page, title: RegExp) => page.getByRole("alertdialog").locator(".ed-diff > div", { has: page.locator("h4", { hasText: title }) }).locator("li");

  test("each tab's edit is listed as that tab's; the other tab's edit is what keeping mine drops", async () => {
    await write(A, "hello", "Hello from A");
    await save(A);
    await A.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();

    await write(B, "bye", "Bye from B");
    await save(B);
    await B.getByRole("alertdialog").waitFor();
    await B.screenshot({ path: "/tmp/editor-shots/two-tabs-conflict.png" });
    await expect(section(B, /^Edited by you/).allTextContents()).resolves.toEqual(["message: Bye from B"]);
    await expect(section(B, /^Edited by them/).allTextContents()).resolves.toEqual(["message: Hello from A"]);
    await expect(section(B, /^Edited by both/).count()).resolves.toBe(0);
    // nothing is written while the dialog is open: A's edit is still stored
    let stored = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
    expect(stored.sheets[0].nodes.find((n: any) => n.id === "hello").data.messageText).toBe("Hello from A");

    await B.getByRole("alertdialog").getByRole("button", { name: /Load theirs/ }).click();
    await B.getByRole("alertdialog").waitFor({ state: "hidden" });

    // now both edit the same node
    await write(A, "bye", "Bye, says A");
    await save(A);
    await A.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    await write(B, "bye", "Bye, says B");
    await save(B);
    await B.getByRole("alertdialog").waitFor();
    await expect(section(B, /^Edited by both/).allTextContents()).resolves.toEqual(["message: Bye, says B"]);
    await expect(section(B, /^Edited by (you|them)/).count()).resolves.toBe(0);
    await B.getByRole("alertdialog").getByRole("button", { name: /Keep mine/ }).click();
    await B.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    stored = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data;
    expect(stored.sheets[0].nodes.map((n: any) => n.data.messageText ?? null)).toEqual([null, "Hello from A", "Bye, says B"]);
    expect(env.b.errors.filter((e) => !e.includes("409"))).toEqual([]);
  }, 60_000);
});
