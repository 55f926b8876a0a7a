// Versions in Chromium: a save with a message right after an autosave becomes a named version (the
// autosave takes the name), the list says who saved it by name, and "View" draws what that version
// changed on a read-only canvas (added, removed, changed nodes marked), with restore.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, nodeIds, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: versions");

const node = (id: string, type: string, x: number, data: Record<string, unknown>) => ({ id, type, position: { x, y: 0 }, data });
const scenario = {
  version: 2,
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [
    node("start", "command_trigger", 0, { command: "/start", autoTransitionTo: "hello" }),
    node("hello", "message", 320, { messageText: "Hello there" }),
    node("bye", "message", 640, { messageText: "Goodbye" }),
  ] }],
};

describe.skipIf(!haveChromium)("editor: versions", () => {
  let env: EditorEnv;
  let projectId: number;
  const versions = async () => (await env.t.call("GET", `/api/projects/${projectId}/versions`, { cookie: env.cookie })).body as { id: number; commitMessage: string | null }[];

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Versioned", scenario);
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("a message saved after an autosave names the autosaved version", async () => {
    const { page } = env.b;
    await page.evaluate(() => localStorage.setItem("botloom.editor.autosave", "1"));
    await openEditor(page, env.base, projectId);
    await pick(page, "hello");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("Hello, friend");
    await pick(page, "bye");
    await page.keyboard.press("Delete");
    await pick(page, "hello");
    await page.keyboard.press("Control+d");
    await page.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 3);
    expect((await nodeIds(page)).includes("bye")).toBe(false);
    // the autosave lands on its own (2 s after the last edit)
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor({ timeout: 15_000 });
    expect((await versions()).map((v) => v.commitMessage)).toEqual([null, "Project created"]);

    await page.getByLabel("Commit message").fill("Greeting reworded");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForFunction(async (id) => {
      const r = await fetch(`/api/projects/${id}/versions`);
      return (await r.json())[0]?.commitMessage === "Greeting reworded";
    }, projectId);
    expect((await versions()).map((v) => v.commitMessage)).toEqual(["Greeting reworded", "Project created"]);
  }, 60_000);

  test("the list names the author; View draws added, removed and changed nodes; restore from there", async () => {
    const { page } = env.b;
    // the heading and the tab bar stay where they are when the Scenario tab is left
    const bar = async () => page.getByRole("navigation", { name: "Project sections" }).boundingBox();
    const onScenario = await bar();
    await page.getByRole("link", { name: "Versions" }).click();
    await page.getByTestId("version-list").waitFor();
    expect(await bar()).toEqual(onScenario);
    const first = page.getByTestId("version-list").locator("li").first();
    await first.getByText("Greeting reworded").waitFor();
    expect(await first.textContent()).toContain("by Ada");
    await first.getByRole("button", { name: "View" }).click();
    const diff = page.getByTestId("version-diff");
    await diff.waitFor();
    const change = (id: string) => diff.getByTestId(`diff-node-${id}`).getAttribute("data-change");
    expect(await change("hello")).toBe("changed");
    expect(await change("bye")).toBe("removed");
    expect(await change("start")).toBe("same");
    const added = await diff.locator("[data-change=added]").count();
    expect(added).toBe(1);
    expect(await diff.getByRole("status").textContent()).toContain("added: 1");
    // the canvas is for looking: dragging a node pans the view, the node keeps its place among the others
    const gap = async () => {
      const [h, st] = [await diff.getByTestId("diff-node-hello").boundingBox(), await diff.getByTestId("diff-node-start").boundingBox()];
      return { dx: Math.round(h!.x - st!.x), dy: Math.round(h!.y - st!.y) };
    };
    const apart = await gap();
    const box = (await diff.getByTestId("diff-node-hello").boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + 150, { steps: 5 });
    await page.mouse.up();
    expect(await gap()).toEqual(apart);

    await page.getByRole("button", { name: "Restore this version" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await page.getByTestId("version-list").locator("li").first().getByText(/^Restored version \d+$/).waitFor();
  }, 60_000);

  test("Save pressed while an autosave is on its way is not lost: it runs after it, named", async () => {
    const { page } = env.b;
    const id = await newProject(env, "Queued save", scenario);
    await page.evaluate(() => localStorage.setItem("botloom.editor.autosave", "1"));
    await openEditor(page, env.base, id);
    // the autosave's request is held until Save has been pressed
    const puts: { commitMessage?: string }[] = [];
    const release = Promise.withResolvers<void>();
    const path = `**/api/projects/${id}`;
    await page.route(path, async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      puts.push(JSON.parse(route.request().postData() ?? "{}"));
      if (puts.length === 1) await release.promise;
      await route.continue();
    });
    await pick(page, "hello");
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("Autosaved first");
    const status = page.getByTestId("save-status");
    await status.filter({ hasText: /^Saving…$/ }).waitFor({ timeout: 15_000 });
    // an edit and a Save while the autosave waits for its answer
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("Then named");
    await page.getByLabel("Commit message").fill("Named while saving");
    await page.keyboard.press("Control+s");
    release.resolve();
    await page.waitForFunction(async (pid) => {
      const r = await fetch(`/api/projects/${pid}/versions`);
      return (await r.json())[0]?.commitMessage === "Named while saving";
    }, id);
    await status.filter({ hasText: /^Saved$/ }).waitFor();
    await page.unroute(path);
    expect(puts.map((p) => p.commitMessage)).toEqual([undefined, "Named while saving"]);
    const stored = (await env.t.call("GET", `/api/projects/${id}`, { cookie: env.cookie })).body;
    expect(stored.data.sheets[0].nodes.find((n: { id: string }) => n.id === "hello").data.messageText).toBe("Then named");
    expect(env.b.errors).toEqual([]);
  }, 60_000);
});
