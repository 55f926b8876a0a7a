// The buttons editor gives every button the target the bot follows: a reply keyboard's contact and
// location requests and its Mini App (whose web_app_data answer goes to the target) get a node
// picker like any other button, and what is picked is saved in the button's `target`
// (docs/nodes/buttons.md). An inline Mini App opens a page and answers nothing: it has no picker.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: targets of share buttons");

const node = (id: string, type: string, x: number, data: Record<string, unknown>) => ({ id, type, position: { x, y: 0 }, data });
const scenario = (keyboardType: string) => ({
  version: 2,
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [
    node("start", "command_trigger", 0, { command: "/start", autoTransitionTo: "ask" }),
    node("ask", "message", 320, { messageText: "Share with us", keyboardType, buttons: [
      { id: "phone", text: "Share phone", action: "contact" },
      { id: "where", text: "Share place", action: "location" },
      { id: "form", text: "Open form", action: "web_app", webAppUrl: "https://forms.example/f" },
    ] }),
    node("gotPhone", "message", 640, { messageText: "phone saved" }),
    node("gotPlace", "message", 640, { messageText: "place saved" }),
    node("gotForm", "message", 640, { messageText: "form saved" }),
  ] }],
});

describe.skipIf(!haveChromium)("editor: targets of share buttons", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 1000 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("contact, location and a reply Mini App get a target picker; the picked targets are saved", async () => {
    const projectId = await newProject(env, "Share", scenario("reply"));
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await pick(page, "ask");
    const props = page.getByRole("complementary", { name: "Properties" });
    const rows = props.locator(".ed-button-row");
    await rows.nth(0).getByLabel("Target node").selectOption("gotPhone");
    await rows.nth(1).getByLabel("Target node").selectOption("gotPlace");
    await rows.nth(2).getByLabel("Target node").selectOption("gotForm");
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const stored = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body;
    const buttons = stored.data.sheets[0].nodes.find((n: { id: string }) => n.id === "ask").data.buttons;
    expect(buttons.map((b: { id: string; target?: string }) => [b.id, b.target])).toEqual([["phone", "gotPhone"], ["where", "gotPlace"], ["form", "gotForm"]]);
    expect(buttons[2].webAppUrl).toBe("https://forms.example/f");
    expect(env.b.errors).toEqual([]);
  }, 90_000);

  test("an inline Mini App has no target picker", async () => {
    const projectId = await newProject(env, "Inline", scenario("inline"));
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await pick(page, "ask");
    const form = page.getByRole("complementary", { name: "Properties" }).locator(".ed-button-row").nth(2);
    await form.getByLabel("Mini App URL (https)").waitFor();
    expect(await form.getByLabel("Target node").count()).toBe(0);
  }, 90_000);
});
