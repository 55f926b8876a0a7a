// Issue 16's walk in the editor: the kotik questionnaire opened on the canvas, the preview side
// panel started on it, the questionnaire walked by typing and clicking reply buttons — and a
// question edited on the canvas mid-walk (not saved) is what the preview asks next.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { kotikDocument } from "../preview/support";
import { kotikChat } from "./kotik-chat";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor preview walk");
const doc = kotikDocument();
/** The two message nodes that ask for the name (the questionnaire reaches one of them). */
const NAME_QUESTIONS = ["tS2XGL2Mn4LkE63SnxhPy", "msg-cond-cond-name-1"];

describe.skipIf(!haveChromium || doc === null)("kotik in the editor's preview panel", () => {
  let env: EditorEnv;
  let projectId: number;

  beforeAll(async () => {
    env = await editorEnv();
    projectId = await newProject(env, "Kotik", doc);
  }, 60_000);
  afterAll(async () => {
    await env?.t.ctx.preview.stopAll();
    await env?.close();
  });

  test("walk the questionnaire; an unsaved edit of the next question is what the bot asks", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const chat = page.getByTestId("editor-preview");
    await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    const { say, botSaid, toCity } = kotikChat(chat);
    await say("/start");
    await toCity();

    // Edit the next question on the canvas, without saving. The panel sends the edited document to
    // the preview (debounced) and the bot restarts on it: wait for the document with both edits.
    const edited = "Как тебя зовут, котик?";
    const sent = page.waitForResponse(
      (r) => r.request().method() === "PUT" && /\/api\/preview\/[^/]+\/document$/.test(new URL(r.url()).pathname) && (r.request().postData() ?? "").split(edited).length - 1 === NAME_QUESTIONS.length,
      { timeout: 30_000 },
    );
    for (const id of NAME_QUESTIONS) {
      await pick(page, id);
      await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill(edited);
    }
    expect((await sent).ok()).toBe(true);
    await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
    await say("Казань");
    await botSaid("Как тебя зовут, котик?");
    await say("Мурка");
    await botSaid("Расскажи о себе");
    await say("Ловлю мышей");
    await botSaid("Теперь пришли фото");
    await chat.locator('input[type="file"][accept="image/*"]').setInputFiles({ name: "cat.png", mimeType: "image/png", buffer: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64") });
    await botSaid("Мурка, 31, Казань - Ловлю мышей");

    // Nothing was saved: the stored scenario still asks the old question.
    const stored = await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie });
    expect(JSON.stringify(stored.body.data)).not.toContain("Как тебя зовут, котик?");
    expect(env.b.errors).toEqual([]);
  }, 120_000);
});
