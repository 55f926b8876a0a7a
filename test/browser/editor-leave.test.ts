// The leave guard: with unsaved edits, moving to another tab of the app or reloading the page asks
// first; refusing keeps the edit on screen, and once saved nothing asks (docs/editor.md).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Dialog } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: leave guard");

const scenario = {
  version: 2,
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [
    { id: "start", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", autoTransitionTo: "hello" } },
    { id: "hello", type: "message", position: { x: 320, y: 0 }, data: { messageText: "Hello there" } },
  ] }],
};

describe.skipIf(!haveChromium)("editor: leave guard", () => {
  let env: EditorEnv;
  let projectId: number;

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
    projectId = await newProject(env, "Leave me", scenario);
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  const textField = () => env.b.page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true });

  async function editText(value: string) {
    const { page } = env.b;
    await pick(page, "hello");
    await textField().fill(value);
    await page.getByTestId("save-status").filter({ hasText: "Unsaved changes" }).waitFor();
  }

  test("in-app: another tab asks; refusing stays with the edit, accepting leaves", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await editText("Edited, not saved");
    const asked = page.waitForEvent("dialog");
    const click = page.getByRole("link", { name: "Versions" }).click();
    const dialog: Dialog = await asked;
    expect(dialog.type()).toBe("confirm");
    expect(dialog.message()).toContain("unsaved changes");
    await dialog.dismiss();
    await click;
    expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/scenario`);
    expect(await textField().inputValue()).toBe("Edited, not saved");

    // asked again, and this time the person leaves
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("link", { name: "Versions" }).click();
    await page.waitForURL(`**/projects/${projectId}/versions`);
    await page.getByTestId("version-list").waitFor();
  }, 60_000);

  test("reload asks (beforeunload); refusing keeps the page with the edit", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await editText("Still mine");
    const asked = page.waitForEvent("dialog");
    // never completes: the reload is refused
    const reload = page.reload({ timeout: 1500 }).catch(() => undefined);
    const dialog = await asked;
    expect(dialog.type()).toBe("beforeunload");
    await dialog.dismiss();
    await reload;
    expect(await textField().inputValue()).toBe("Still mine");
  }, 60_000);

  test("after saving, leaving asks nothing", async () => {
    const { page } = env.b;
    const dialogs: string[] = [];
    const onDialog = (d: Dialog) => {
      dialogs.push(d.type());
      void d.dismiss();
    };
    page.on("dialog", onDialog);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    await page.getByRole("link", { name: "Versions" }).click();
    await page.waitForURL(`**/projects/${projectId}/versions`);
    await page.reload();
    await page.getByTestId("version-list").waitFor();
    page.off("dialog", onDialog);
    expect(dialogs).toEqual([]);
  }, 60_000);
});
