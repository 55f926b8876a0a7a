// Who wrote what in the preview's group chat (docs/preview.md "In the Studio"): a message another
// preview user sent was drawn as the viewer's own (right, blue). As in Telegram, the viewer's own are
// on the right, everyone else's on the left under the sender's first and last name, and a private
// chat names nobody.
import { describe, expect, test } from "bun:test";
import type { Locator } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { LOOKS, openPreview, previewedProject } from "./editor-support";
import { kotikChat } from "./kotik-chat";

warnIfNoChromium("preview group senders");

const SHOTS = "/tmp/preview-shots";

describe.skipIf(!haveChromium)("the preview's group chat names the sender", () => {
  const project = previewedProject("Greeter");

  for (const [name, viewport, scheme] of LOOKS) {
    test(`${name}, ${scheme}: another user's message is on the left under their name, the viewer's own on the right; a private chat names nobody`, async () => {
      const { page } = project.env.b;
      const chat = await openPreview(project.env, project.projectId, viewport, scheme);
      const { say } = kotikChat(chat);
      const message = (text: string) => chat.getByTestId("pv-message").filter({ has: page.getByTestId("pv-text").getByText(text, { exact: true }) });
      // what is said next goes to the chat of the actor the server has switched to: wait for its answer
      const choose = (select: "Preview user" | "Chat", value: string) =>
        Promise.all([
          page.waitForResponse((r) => r.url().endsWith("/actor") && r.request().method() === "PUT"),
          chat.getByRole("combobox", { name: select }).selectOption(value),
        ]);

      await choose("Chat", "group");
      await say("/start");
      await message("Hi").waitFor({ timeout: 20_000 });
      // as the ordinary user: /start is mine (no name), the bot's answer is named
      expect(await message("/start").getByTestId("pv-sender").count()).toBe(0);
      expect(await message("Hi").getByTestId("pv-sender").textContent()).toBe("Greeter");

      await choose("Preview user", "admin");
      const theirs = message("/start");
      await theirs.getByTestId("pv-sender").getByText("Preview User", { exact: true }).waitFor();
      await say("Hello from the admin");
      const mine = message("Hello from the admin");
      await mine.waitFor();
      expect(await mine.getByTestId("pv-sender").count()).toBe(0);

      const list = await chat.locator(".pv-messages").boundingBox();
      const theirBubble = theirs.locator(".pv-bubble");
      const myBubble = mine.locator(".pv-bubble");
      const [a, b] = [(await theirBubble.boundingBox())!, (await myBubble.boundingBox())!];
      const right = (box: { x: number; width: number }) => box.x + box.width;
      // the other user's at the left edge of the chat, mine at its right edge (the list's padding apart)
      expect(a.x - list!.x).toBeLessThan(20);
      expect(right(list!) - right(a)).toBeGreaterThan(list!.width / 3);
      expect(right(list!) - right(b)).toBeLessThan(20);
      expect(b.x - list!.x).toBeGreaterThan(list!.width / 3);
      // mine in the accent colour, theirs as the bot's
      const background = (l: Locator) => l.evaluate((e) => getComputedStyle(e).backgroundColor);
      expect(await background(theirBubble)).toBe(await background(message("Hi").locator(".pv-bubble")));
      expect(await background(myBubble)).not.toBe(await background(theirBubble));
      await page.screenshot({ path: `${SHOTS}/group-senders-${name}-${scheme}.png` });

      // the admin's private chat: the bot's answer and the admin's own, nobody named
      await choose("Chat", "private");
      await mine.waitFor({ state: "detached" }); // the group's messages have gone
      await say("/start");
      await message("Hi").waitFor({ timeout: 20_000 });
      expect(await message("/start").count()).toBe(1);
      expect(await chat.getByTestId("pv-sender").count()).toBe(0);
      const [own, list2] = [(await message("/start").locator(".pv-bubble").boundingBox())!, (await chat.locator(".pv-messages").boundingBox())!];
      expect(right(list2) - right(own)).toBeLessThan(20);
      await page.screenshot({ path: `${SHOTS}/private-no-senders-${name}-${scheme}.png` });
      expect(project.env.b.errors).toEqual([]);
    }, 60_000);
  }
});
