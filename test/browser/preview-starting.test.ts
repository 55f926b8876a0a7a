// The preview's user switcher while the preview bot starts (docs/preview.md): the select had no
// options until the bot answered its first poll, so it painted empty (on a phone an empty box beside
// "Private chat"). It shows the user every preview starts as from the first paint, disabled until
// the session exists, and the three users after. The start request is held here until the test has
// looked, so "while it starts" is a state the test waits for, not a race it hopes to win.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { chainDoc, editorEnv, newProject, type EditorEnv } from "./editor-support";

warnIfNoChromium("preview user while starting");

const SHOTS = "/tmp/preview-shots";

describe.skipIf(!haveChromium)("the preview's user while the bot starts", () => {
  let env: EditorEnv;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv();
    projectId = await newProject(env, "Hello", chainDoc(["Hi"]));
  }, 60_000);
  afterAll(async () => {
    await env?.t.ctx.preview.stopAll();
    await env?.close();
  }, 30_000);

  for (const [name, viewport, scheme] of [["phone", { width: 390, height: 844 }, "light"], ["desktop", { width: 1280, height: 800 }, "dark"]] as const) {
    test(`${name}, ${scheme}: the select shows the ordinary user from the first paint, disabled, and lets you pick once the bot runs`, async () => {
      const { page } = env.b;
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let asked!: () => void;
      const startAsked = new Promise<void>((r) => (asked = r));
      await page.route(`**/api/projects/${projectId}/preview`, async (route) => {
        asked();
        await held;
        await route.continue().catch(() => undefined); // a failed test navigated away meanwhile
      });
      try {
        await page.goto(`${env.base}/projects/${projectId}/preview`);
        await startAsked;
        const chat = page.getByTestId("preview-chat");
        await chat.getByTestId("pv-status").getByText("starting").waitFor();
        const user = chat.getByRole("combobox", { name: "Preview user" });
        const shown = () => user.evaluate((s: HTMLSelectElement) => ({ value: s.value, text: s.selectedOptions[0]?.textContent ?? null, disabled: s.disabled, options: s.options.length }));
        expect(await shown()).toEqual({ value: "user", text: "Ordinary user", disabled: true, options: 1 });
        await page.screenshot({ path: `${SHOTS}/starting-${name}-${scheme}.png` });
        release();
        await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
        await user.and(page.locator(":enabled")).waitFor();
        expect(await shown()).toEqual({ value: "user", text: "Ordinary user", disabled: false, options: 3 });
        await page.screenshot({ path: `${SHOTS}/running-${name}-${scheme}.png` });
        expect(env.b.errors).toEqual([]);
      } finally {
        release();
        await page.unroute(`**/api/projects/${projectId}/preview`);
      }
    }, 60_000);
  }
});
