// The Bots tab's launch history on a phone (390×844): a launch's error used to sit in a fourth
// column that the table scrolled sideways to reach, so the reason a bot stopped was off screen. It
// now reads under its launch, wrapped to the screen's width, in light and dark, English and Russian.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { botLaunches } from "../../src/db/schema";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, type EditorEnv } from "./editor-support";

warnIfNoChromium("launch history on a phone");

// the history keeps the first 100 characters of an error (src/modules/projects/activity.ts)
const ERROR = "Telegram refused the token: 401 Unauthorized (deleted in @BotFather or revoked)";

describe.skipIf(!haveChromium)("launch history on a phone", () => {
  let env: EditorEnv;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 390, height: 844 } });
    projectId = await newProject(env, "Pizza");
    env.t.ctx.db.insert(botLaunches).values([
      { projectId, tokenId: 1, status: "error", startedAt: "2026-11-28T09:12:05.000Z", stoppedAt: "2026-11-28T09:12:07.000Z", errorMessage: ERROR },
      { projectId, tokenId: 1, status: "stopped", startedAt: "2026-11-28T10:00:00.000Z", stoppedAt: "2026-11-28T11:30:00.000Z", errorMessage: null },
    ]).run();
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const [lang, scheme, title] of [["en", "light", "Launch history"], ["ru", "dark", "История запусков"]] as const) {
    test(`${lang.toUpperCase()} ${scheme}: the error reads under its launch, nothing scrolls sideways`, async () => {
      const { page } = env.b;
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await page.goto(`${env.base}/projects/${projectId}/bots`);
      const section = page.getByRole("region", { name: title });
      const error = section.getByText(ERROR, { exact: false });
      await error.waitFor();
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/editor-shots/launches-390-${scheme}-${lang}.png`, fullPage: true });
      const fit = await section.evaluate((s, errorText) => {
        const wrap = s.querySelector(".table-wrap") as HTMLElement;
        const cell = [...s.querySelectorAll("td")].find((td) => td.textContent?.includes(errorText))!;
        const r = cell.getBoundingClientRect();
        return { scrolls: wrap.scrollWidth > wrap.clientWidth, errorInside: r.left >= 0 && r.right <= window.innerWidth, page: document.documentElement.scrollWidth <= window.innerWidth };
      }, ERROR);
      expect(fit).toEqual({ scrolls: false, errorInside: true, page: true });
      expect(env.b.errors).toEqual([]);
    }, 45_000);
  }
});
