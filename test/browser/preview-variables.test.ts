// The preview's Variables panel in Chromium (docs/preview.md "In the Studio"): a key broke anywhere
// ("payment_amo / unt"). It may break only after a `_` or `.`; a part longer than its column ends in
// an ellipsis, whole in its tooltip; a value wraps between its words.
import { describe, expect, test } from "bun:test";
import type { Locator } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { LOOKS, openPreview, previewedProject } from "./editor-support";

warnIfNoChromium("preview variables");

const SHOTS = "/tmp/preview-shots";

const VARIABLES = {
  payment_amount: 5,
  "user.profile_first_name": "Ada",
  averyveryverylongkeywithoutanybreaks: "yes",
  note: "a value of several words that is longer than its column",
};

/** Where the text of `el` goes on to a new line: the character just before each break. */
const breaksIn = (el: Locator) =>
  el.evaluate((node) => {
    const before: string[] = [];
    let lastTop: number | null = null;
    let previous = "";
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode() as Text | null; text; text = walker.nextNode() as Text | null) {
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const top = range.getClientRects()[0]?.top;
        if (top === undefined) continue; // hidden by the ellipsis
        if (lastTop !== null && top > lastTop + 1) before.push(previous);
        lastTop = top;
        previous = text.data[i]!;
      }
    }
    return before;
  });

describe.skipIf(!haveChromium)("the preview's variables", () => {
  const project = previewedProject("Vars");

  for (const [name, viewport, scheme] of LOOKS) {
    test(`${name}, ${scheme}: keys break only after _ or ., a longer part ends in an ellipsis, values wrap between words`, async () => {
      const { page } = project.env.b;
      const chat = await openPreview(project.env, project.projectId, viewport, scheme);
      const panel = chat.getByRole("region", { name: "Variables" });
      await panel.getByRole("button", { name: "Edit" }).click();
      await panel.getByRole("textbox", { name: "Variables" }).fill(JSON.stringify(VARIABLES));
      await panel.getByRole("button", { name: "Save" }).click();
      const key = (k: string) => panel.getByTestId("pv-variables").locator("dt").filter({ hasText: new RegExp(`^${k.replace(/\./g, "\\.")}$`) });
      await key("payment_amount").waitFor({ timeout: 20_000 });

      for (const k of Object.keys(VARIABLES)) {
        for (const c of await breaksIn(key(k))) expect(`${k} breaks after "${c}"`).toMatch(/breaks after "[_.]"$/);
      }
      for (const k of Object.keys(VARIABLES)) expect(await key(k).getAttribute("title")).toBe(k);
      // the key with no _ or . is one line, cut with an ellipsis where it leaves its column
      const long = key("averyveryverylongkeywithoutanybreaks");
      const [height, lineHeight, cut] = await long.evaluate((e) => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight), getComputedStyle(e).textOverflow]);
      expect(height).toBeLessThan(lineHeight * 1.5);
      expect(cut).toBe("ellipsis");
      // a value breaks between its words only
      const value = panel.getByTestId("pv-variables").locator("dd").filter({ hasText: VARIABLES.note });
      for (const c of await breaksIn(value)) expect(c).toBe(" ");
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/variables-${name}-${scheme}.png` });
      expect(project.env.b.errors).toEqual([]);
    }, 60_000);
  }
});
