// Switching the preview user (docs/preview.md "In the Studio"): the select showed the new user as
// soon as the server confirmed the switch, while the chat still showed the old user's messages until
// the new chat's transcript came, so for a moment the old chat was seen (and its buttons pressed) as
// the new user. Now the choice shows at once over "Opening this chat…", with no message and nothing
// to act with, until the new chat is here. The switch request, then the transcript read after it, are
// held here until the test has looked, so the in-between state is one the test waits for.
import { describe, expect, test } from "bun:test";
import type { Route } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { LOOKS, openPreview, previewedProject } from "./editor-support";
import { kotikChat } from "./kotik-chat";

warnIfNoChromium("preview user switch");

const SHOTS = "/tmp/preview-shots";

/** Requests held until `release()`; `asked` resolves when the first one arrives. */
function held() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let arrived!: () => void;
  const asked = new Promise<void>((r) => (arrived = r));
  const handler = async (route: Route) => {
    arrived();
    await gate;
    await route.continue().catch(() => undefined); // a failed test navigated away meanwhile
  };
  return { handler, asked, release };
}

describe.skipIf(!haveChromium)("the preview's user switch", () => {
  const project = previewedProject("Greeter");

  for (const [name, viewport, scheme] of LOOKS) {
    test(`${name}, ${scheme}: until the new user's chat is here no message of the old one shows, and nothing can be sent`, async () => {
      const { page } = project.env.b;
      const chat = await openPreview(project.env, project.projectId, viewport, scheme);
      const { say } = kotikChat(chat);
      const message = (text: string) => chat.getByTestId("pv-message").filter({ has: page.getByTestId("pv-text").getByText(text, { exact: true }) });
      const user = chat.getByRole("combobox", { name: "Preview user" });
      const input = chat.getByLabel("Message", { exact: true });
      const switched = () => page.waitForResponse((r) => r.url().endsWith("/actor") && r.request().method() === "PUT");

      // each user's private chat has a line of its own
      await Promise.all([switched(), user.selectOption("admin")]);
      await say("the admin's line");
      await message("the admin's line").waitFor();
      await Promise.all([switched(), user.selectOption("user")]);
      await say("the user's line");
      await message("the user's line").waitFor();
      await message("the admin's line").waitFor({ state: "detached" });

      const put = held();
      const read = held();
      const actorUrl = "**/api/preview/*/actor";
      const readUrl = /\/transcript\?after=0&wait=0$/; // the whole chat; the long poll waits, so it is not held
      await page.route(actorUrl, put.handler);
      await page.route(readUrl, read.handler);
      try {
        const selected = () => user.evaluate((s: HTMLSelectElement) => s.value);
        /** The point of it all: whenever the select names the admin, nothing of the user's chat is on screen. */
        const nothingStale = async () => {
          if ((await selected()) === "admin") expect(await message("the user's line").count()).toBe(0);
        };
        const opening = async () => {
          expect(await selected()).toBe("admin");
          expect(await user.isDisabled()).toBe(true);
          expect(await chat.getByTestId("pv-message").count()).toBe(0);
          expect(await chat.getByTestId("pv-empty").textContent()).toBe("Opening this chat…");
          expect(await input.isDisabled()).toBe(true);
        };

        await user.selectOption("admin");
        // the switch is asked and not answered yet
        await put.asked;
        await nothingStale();
        await opening();

        // the server has switched; the new chat's transcript is asked and not answered yet
        const answered = switched();
        put.release();
        await answered;
        await read.asked;
        // before, the select turned to the admin with this answer, over the user's chat: wait for it to name him
        await chat.locator('select:has(option[value="admin"]:checked)').waitFor();
        await nothingStale();
        await opening();
        await page.screenshot({ path: `${SHOTS}/switch-opening-${name}-${scheme}.png` });

        read.release();
        await message("the admin's line").waitFor();
        expect(await message("the user's line").count()).toBe(0);
        expect(await selected()).toBe("admin");
        await user.and(page.locator(":enabled")).waitFor();
        await input.and(page.locator(":enabled")).waitFor();
        await page.screenshot({ path: `${SHOTS}/switch-done-${name}-${scheme}.png` });
        expect(project.env.b.errors).toEqual([]);
      } finally {
        put.release();
        read.release();
        await page.unroute(actorUrl);
        await page.unroute(readUrl);
      }
    }, 60_000);
  }

  test("a refused switch leaves the user and chat as they were, over their chat, and can be tried again", async () => {
    const { page } = project.env.b;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${project.env.base}/projects/${project.projectId}/preview`);
    const chat = page.getByTestId("preview-chat");
    await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
    const { say } = kotikChat(chat);
    await say("the user's line");
    const line = chat.getByTestId("pv-message").filter({ has: page.getByTestId("pv-text").getByText("the user's line", { exact: true }) });
    await line.waitFor();
    const user = chat.getByRole("combobox", { name: "Preview user" });
    const errorsBefore = project.env.b.errors.length;
    const actorUrl = "**/api/preview/*/actor";
    await page.route(actorUrl, (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "PREVIEW_UNAVAILABLE", message: "try again" }) }));
    try {
      await user.selectOption("admin");
      await chat.getByRole("alert").getByText("try again").waitFor();
      await user.and(page.locator(":enabled")).waitFor();
      expect(await user.evaluate((s: HTMLSelectElement) => s.value)).toBe("user");
      await line.waitFor();
      expect(await chat.getByLabel("Message", { exact: true }).isDisabled()).toBe(false);
    } finally {
      await page.unroute(actorUrl);
    }
    // the failed request is the only console error
    expect(project.env.b.errors.slice(errorsBefore).every((e) => e.includes("status of 503"))).toBe(true);
    await user.selectOption("admin");
    await line.waitFor({ state: "detached" });
    await chat.getByTestId("pv-empty").getByText("Send /start or pick a command to begin.").waitFor();
    expect(await user.evaluate((s: HTMLSelectElement) => s.value)).toBe("admin");
  }, 60_000);
});
