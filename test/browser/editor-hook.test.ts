// docs/hooks.md in the Studio: a Webhook node's inspector makes its URL and secret (shown once; a
// new secret replaces it), and the editor's preview fires the selected webhook in the preview chat.
// Screenshots (light and dark, 1280 and 390 px) go to /tmp/editor-hook-*.png for review by eye.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { hookScenario } from "../hooks/scenario";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: webhook node");

for (const look of [
  { width: 1280, height: 860, colorScheme: "light" as const },
  { width: 390, height: 844, colorScheme: "dark" as const },
]) {
  describe.skipIf(!haveChromium)(`editor: the Webhook node (${look.width} px, ${look.colorScheme})`, () => {
    let env: EditorEnv;
    let projectId: number;

    beforeAll(async () => {
      env = await editorEnv({ viewport: { width: look.width, height: look.height }, colorScheme: look.colorScheme });
      projectId = await newProject(env, "Shop hooks", hookScenario);
      await openEditor(env.b.page, env.base, projectId);
    }, 60_000);
    afterAll(async () => {
      await env?.close();
    });

    const phone = look.width < 600;
    if (!phone) test("the inspector makes the URL and a secret shown once; a new secret replaces it", async () => {
      const { page } = env.b;
      await page.getByRole("button", { name: "Fit View" }).click();
      await pick(page, "paid");
      const props = page.getByRole("complementary", { name: "Properties" });
      // the list has answered: the node has no URL yet
      await props.getByText("No URL yet: create one.").waitFor();
      await props.getByRole("button", { name: "Create URL and secret" }).click();
      const shown = props.getByTestId("hook-secret");
      await shown.waitFor();
      const first = await shown.locator("code").innerText();
      expect(first).toMatch(/^whs_/);
      const address = await props.getByTestId("hook-address").innerText();
      expect(address).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/hooks/[A-Za-z0-9]+$`));
      await page.screenshot({ path: `/tmp/editor-hook-inspector-${look.width}-${look.colorScheme}.png` });
      await props.getByRole("button", { name: "New secret" }).click();
      await shown.locator("code").filter({ hasNotText: first }).waitFor();
      expect(await props.getByTestId("hook-address").innerText()).toBe(address);
      const list = await env.t.call("GET", `/api/projects/${projectId}/hooks`, { cookie: env.cookie });
      expect(list.text).not.toContain(first);
      expect(env.b.errors).toEqual([]);
    }, 60_000);

    if (phone) test("on a phone the inspector is read-only: it shows the URL, and the secret cannot be made there", async () => {
      const { page } = env.b;
      const made = await env.t.call("POST", `/api/projects/${projectId}/hooks/paid/secret`, { cookie: env.cookie });
      expect(made.status).toBe(201);
      await page.reload();
      await page.getByTestId("editor").waitFor();
      await pick(page, "paid");
      const props = page.getByRole("complementary", { name: "Properties" });
      expect(await props.getByTestId("hook-address").innerText()).toEndWith(made.body.path);
      expect(await props.getByRole("button", { name: "New secret" }).isDisabled()).toBe(true);
      await page.screenshot({ path: `/tmp/editor-hook-inspector-${look.width}-${look.colorScheme}.png` });
      expect(env.b.errors).toEqual([]);
    }, 60_000);

    test("the preview fires the selected webhook: its flow answers in the preview chat", async () => {
      const { page } = env.b;
      await page.getByRole("button", { name: "Preview", exact: true }).click();
      const chat = page.getByTestId("editor-preview");
      await chat.getByTestId("preview-chat").and(page.locator("[data-status=running]")).waitFor({ timeout: 30_000 });
      await pick(page, "paid");
      const fire = chat.getByTestId("pv-hook");
      await fire.getByRole("button", { name: /Fire webhook/ }).click();
      await chat.getByText("Order A-17 paid: 12.5, thanks").waitFor({ timeout: 15_000 });
      await fire.getByTestId("pv-hook-answer").waitFor();
      await page.screenshot({ path: `/tmp/editor-hook-preview-${look.width}-${look.colorScheme}.png` });
      expect(env.b.errors).toEqual([]);
    }, 60_000);
  });
}
