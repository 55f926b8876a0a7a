// Node types without a hand-made form get one from their data and the reference's defaults: text,
// numbers, yes/no and node pickers write the node data; lists are named as JSON-mode fields.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor generic form");

describe.skipIf(!haveChromium)("generic properties form", () => {
  let env: EditorEnv;
  let projectId: number;

  beforeAll(async () => {
    env = await editorEnv();
    projectId = await newProject(env, "Moderation", {
      sheets: [
        {
          id: "s1",
          name: "Main",
          nodes: [
            { id: "ban", type: "ban_user", position: { x: 0, y: 0 }, data: { command: "/ban", targetUserId: "", userIdSource: "last_message", untilDate: 0, revokeMessages: false, chatIds: ["-100"] } },
            { id: "done", type: "message", position: { x: 400, y: 0 }, data: { messageText: "Banned." } },
          ],
          edges: [],
        },
      ],
    });
    await openEditor(env.b.page, env.base, projectId);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  test("each scalar field is an input that writes the node data; lists stay in JSON mode", async () => {
    const { page } = env.b;
    await page.getByRole("button", { name: "Fit View" }).click();
    await pick(page, "ban");
    const props = page.getByRole("complementary", { name: "Properties" });
    await props.getByLabel("Target user id", { exact: true }).fill("{user_id}");
    await props.getByLabel("Until date", { exact: true }).fill("3600");
    await props.getByLabel("Revoke messages", { exact: true }).check();
    await props.getByLabel("Then go to", { exact: true }).selectOption("done");
    await props.getByText("Lists and objects (chatIds) are edited in JSON mode.").waitFor();
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const stored = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body;
    const data = stored.data.sheets[0].nodes.find((n: { id: string }) => n.id === "ban").data;
    expect(data).toMatchObject({ command: "/ban", targetUserId: "{user_id}", untilDate: 3600, revokeMessages: true, chatIds: ["-100"], autoTransitionTo: "done" });
    expect(env.b.errors).toEqual([]);
  }, 60_000);
});
