// Editing in Chromium: copy/paste (also into another project in another tab), duplicate, sheet
// tabs, search across sheets, auto-layout, raw JSON, the 409 conflict path and live reload.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, nodeEl, nodeIds, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: editing");

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({ id, type, position: { x, y }, data });
const twoSheets = () => ({
  version: 2,
  sheets: [
    { id: "main", name: "Main", nodes: [node("start", "command_trigger", 0, 0, { command: "/start", autoTransitionTo: "hello" }), node("hello", "message", 320, 0, { messageText: "Hello there", keyboardType: "inline", buttons: [{ id: "b1", text: "Shop", action: "goto", target: "shop" }], customField: { keep: true } })], edges: [] },
    { id: "shop", name: "Shop", nodes: [node("shop", "message", 0, 0, { messageText: "Welcome to the pizza shop" })], edges: [] },
  ],
});

const stored = async (env: EditorEnv, id: number) => (await env.t.call("GET", `/api/projects/${id}`, { cookie: env.cookie })).body;

describe.skipIf(!haveChromium)("editor: editing", () => {
  let env: EditorEnv;
  let projectId: number;

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Edit me", twoSheets());
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("a cross-sheet target is a portal that opens the other sheet", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    expect((await nodeIds(page)).sort()).toEqual(["hello", "start"]);
    await page.locator(".ed-portal").filter({ hasText: "Shop" }).click();
    await page.getByRole("tab", { name: /Shop/ }).and(page.locator("[aria-selected=true]")).waitFor();
    expect(await nodeIds(page)).toEqual(["shop"]);
    await nodeEl(page, "shop").and(page.locator(".selected")).waitFor();
  }, 30_000);

  test("search (Ctrl+F) jumps to a node on another sheet", async () => {
    const { page } = env.b;
    await page.keyboard.press("Control+f");
    await page.getByRole("searchbox", { name: "Search" }).fill("hello there");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: /Main/ }).and(page.locator("[aria-selected=true]")).waitFor();
    await nodeEl(page, "hello").and(page.locator(".selected")).waitFor();
    expect(await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).inputValue()).toBe("Hello there");
  }, 30_000);

  test("copy and paste (keys) and duplicate give new nodes with fresh ids; delete removes them", async () => {
    const { page } = env.b;
    await pick(page, "hello");
    await page.keyboard.press("Control+c");
    await page.keyboard.press("Control+v");
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 3);
    const pasted = (await nodeIds(page)).find((id) => id !== "start" && id !== "hello")!;
    await expect(nodeEl(page, pasted).locator(".ed-text").textContent()).resolves.toBe("Hello there");
    await page.keyboard.press("Control+d");
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 4);
    await page.keyboard.press("Delete");
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 3);
    await pick(page, pasted);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 2);
  }, 30_000);

  test("paste into another project in another tab through the clipboard", async () => {
    const { page, context } = env.b;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.base });
    await pick(page, "hello");
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    const other = await newProject(env, "Other project");
    const tab = await context.newPage();
    try {
      await openEditor(tab, env.base, other);
      await tab.getByRole("button", { name: "Paste", exact: true }).click();
      await tab.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 1);
      const [id] = await nodeIds(tab);
      expect(id).not.toBe("hello");
      await expect(nodeEl(tab, id!).locator(".ed-text").textContent()).resolves.toBe("Hello there");
    } finally {
      await tab.close();
    }
  }, 30_000);

  test("sheet tabs: add, rename, duplicate, reorder, delete — undoable, saved as sheets", async () => {
    const { page } = env.b;
    page.on("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Add sheet" }).click();
    await page.getByRole("tab", { name: /Sheet 3/ }).waitFor();
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Rename").fill("Extras");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: /Extras/ }).waitFor();
    await page.getByRole("tab", { name: /Main/ }).click();
    await page.getByRole("button", { name: "Duplicate", exact: true }).nth(1).click();
    await page.getByRole("tab", { name: /Main \(2\)/ }).waitFor();
    expect((await nodeIds(page)).length).toBe(2);
    expect(await nodeIds(page)).not.toContain("hello");
    await page.getByRole("button", { name: "Move right" }).click();
    await page.getByRole("button", { name: "Delete sheet" }).click();
    const names = () => page.getByRole("tab").allTextContents();
    await page.waitForFunction(() => document.querySelectorAll(".ed-sheet").length === 3);
    expect((await names()).map((x) => x.replace(/\s*\d+$/, ""))).toEqual(["Main", "Shop", "Extras"]);
    await page.getByRole("button", { name: "Undo" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".ed-sheet").length === 4);
    await page.getByRole("button", { name: "Redo" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".ed-sheet").length === 3);
  }, 30_000);

  test("auto-layout spreads piled-up nodes; raw JSON edits keep unknown fields", async () => {
    const { page } = env.b;
    await page.getByRole("tab", { name: /Main/ }).click();
    await page.getByRole("button", { name: "Auto-layout" }).click();
    await page.waitForFunction(() => {
      const boxes = [...document.querySelectorAll(".react-flow__node-scenario")].map((e) => e.getBoundingClientRect());
      return boxes.length === 2 && (boxes[0]!.right <= boxes[1]!.left || boxes[1]!.right <= boxes[0]!.left);
    });
    await pick(page, "hello");
    const props = page.getByRole("complementary", { name: "Properties" });
    await props.getByRole("checkbox", { name: "JSON" }).check();
    const raw = props.getByLabel("Node data (JSON)");
    const data = JSON.parse(await raw.inputValue());
    expect(data.customField).toEqual({ keep: true });
    await raw.fill(JSON.stringify({ ...data, messageText: "Edited as JSON" }));
    await props.getByRole("button", { name: "Apply JSON" }).click();
    await expect(nodeEl(page, "hello").locator(".ed-text").textContent()).resolves.toBe("Edited as JSON");
    await raw.fill("[1, 2");
    await props.getByRole("button", { name: "Apply JSON" }).click();
    await props.getByRole("alert").waitFor();
    await props.getByRole("checkbox", { name: "JSON" }).uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const p = await stored(env, projectId);
    expect(p.data.sheets.map((s: any) => s.name)).toEqual(["Main", "Shop", "Extras"]);
    const hello = p.data.sheets[0].nodes.find((n: any) => n.id === "hello");
    expect(hello.data).toMatchObject({ messageText: "Edited as JSON", customField: { keep: true }, buttons: [{ id: "b1", target: "shop" }] });
  }, 30_000);

  test("someone else saves: the editor is told live; a save on the old copy gets 409; keep mine or load theirs", async () => {
    const { page } = env.b;
    const theirs = await stored(env, projectId);
    theirs.data.sheets[0].nodes.push(node("theirs", "message", 0, 600, { messageText: "Added by a teammate" }));
    const put = await env.t.call("PUT", `/api/projects/${projectId}`, { cookie: env.cookie, json: { data: theirs.data, baseUpdatedAt: theirs.updatedAt } });
    expect(put.status).toBe(200);
    await page.getByTestId("remote-change").waitFor();
    await page.getByRole("button", { name: "Ignore" }).click();

    // an edit on the old copy, then save: 409, both shown
    await pick(page, "hello");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("Mine wins");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain("Added by a teammate");
    await dialog.getByRole("button", { name: /Keep mine/ }).click();
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    let p = await stored(env, projectId);
    expect(p.data.sheets[0].nodes.map((n: any) => n.id)).not.toContain("theirs");
    expect(p.data.sheets[0].nodes.find((n: any) => n.id === "hello").data.messageText).toBe("Mine wins");

    // again, and this time load theirs
    p.data.sheets[0].nodes.find((n: any) => n.id === "hello").data.messageText = "Theirs now";
    expect((await env.t.call("PUT", `/api/projects/${projectId}`, { cookie: env.cookie, json: { data: p.data } })).status).toBe(200);
    await page.getByTestId("remote-change").waitFor();
    await pick(page, "start");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Description").fill("changed");
    await page.keyboard.press("Control+s");
    await page.getByRole("alertdialog").getByRole("button", { name: /Load theirs/ }).click();
    await expect(nodeEl(page, "hello").locator(".ed-text").textContent()).resolves.toBe("Theirs now");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    expect(env.b.errors.filter((e) => !e.includes("409"))).toEqual([]);
  }, 45_000);

  test("keep mine pressed while a save on the old copy is on its way still overwrites, once that one is refused", async () => {
    const { page } = env.b;
    const theirs = await stored(env, projectId);
    theirs.data.sheets[0].nodes.find((n: any) => n.id === "hello").data.messageText = "Theirs again";
    expect((await env.t.call("PUT", `/api/projects/${projectId}`, { cookie: env.cookie, json: { data: theirs.data, baseUpdatedAt: theirs.updatedAt } })).status).toBe(200);
    await page.getByTestId("remote-change").waitFor();
    await page.getByRole("button", { name: "Ignore" }).click();
    await pick(page, "hello");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("Mine, after a wait");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    // Save once more with the dialog open: that save names the old copy and is held on its way
    const seen = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    let held = false;
    await page.route(`**/api/projects/${projectId}`, async (route) => {
      if (route.request().method() !== "PUT" || held) return route.fallback();
      held = true;
      seen.resolve();
      await release.promise;
      await route.fallback();
    });
    await page.keyboard.press("Control+s");
    await seen.promise;
    await dialog.getByRole("button", { name: /Keep mine/ }).click();
    release.resolve();
    // the held save gets 409; keep mine, queued behind it, still names the copy it was shown
    await dialog.waitFor({ state: "hidden" });
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    await page.unroute(`**/api/projects/${projectId}`);
    const p = await stored(env, projectId);
    expect(p.data.sheets[0].nodes.find((n: any) => n.id === "hello").data.messageText).toBe("Mine, after a wait");
  }, 45_000);

  test("a paragraph typed key by key undoes as one step, and redoes", async () => {
    const { page } = env.b;
    await pick(page, "hello");
    const text = page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true });
    const before = await text.inputValue();
    await text.click();
    await text.press("End");
    // 120 keystrokes: more than the history's 100 steps, one step with store.ts MERGE_MS
    const typed = " and a long second sentence typed one key at a time by a person.".repeat(2).slice(0, 120);
    await text.pressSequentially(typed);
    expect(await text.inputValue()).toBe(before + typed);
    await page.getByRole("button", { name: "Undo" }).click();
    expect(await text.inputValue()).toBe(before);
    await page.getByRole("button", { name: "Redo" }).click();
    expect(await text.inputValue()).toBe(before + typed);
    await page.getByRole("button", { name: "Undo" }).click();
    expect(await text.inputValue()).toBe(before);
  }, 45_000);

  test("autosave stores an edit without pressing Save", async () => {
    const { page } = env.b;
    await page.getByLabel("Autosave").check();
    await pick(page, "start");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Description").fill("autosaved text");
    await page.getByTestId("save-status").filter({ hasText: "Unsaved changes" }).waitFor();
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor({ timeout: 15_000 });
    const p = await stored(env, projectId);
    expect(p.data.sheets[0].nodes.find((n: any) => n.id === "start").data.description).toBe("autosaved text");
    await page.getByLabel("Autosave").uncheck();
  }, 30_000);

  test("warnings of generate show on their node and in a list that jumps to it", async () => {
    const { page } = env.b;
    const id = await newProject(env, "Warned", {
      sheets: [
        { id: "a", name: "A", nodes: [node("go", "command_trigger", 0, 0, { command: "/start", autoTransitionTo: "hi" }), node("hi", "message", 320, 0, { messageText: "Hi" })], edges: [] },
        { id: "b", name: "B", nodes: [node("lonely", "message", 0, 0, { messageText: "Nobody reaches me" })], edges: [] },
      ],
    });
    const gen = await env.t.call("POST", `/api/projects/${id}/generate`, { cookie: env.cookie, json: {} });
    const warned = (gen.body.warnings ?? []).filter((w: any) => w.nodeId === "lonely");
    expect(warned.length).toBeGreaterThan(0);
    await openEditor(page, env.base, id);
    await page.locator(".ed-warnbox summary").click();
    // the node is named by its text in the list (docs/editor.md "Warnings")
    await page.locator(".ed-warnings button").filter({ hasText: "“Nobody reaches me”" }).first().click();
    await page.getByRole("tab", { name: /^B/ }).and(page.locator("[aria-selected=true]")).waitFor();
    await nodeEl(page, "lonely").and(page.locator(".has-warning.selected")).waitFor();
    await page.getByRole("button", { name: "Code", exact: true }).click();
    await expect(page.getByTestId("generated-code").textContent()).resolves.toContain("Nobody reaches me");
    await page.getByRole("button", { name: "project.json" }).click();
    expect(JSON.parse((await page.getByTestId("project-json").textContent())!).sheets[1].nodes[0].id).toBe("lonely");
    await page.getByRole("button", { name: "Canvas", exact: true }).click();
  }, 30_000);
});
