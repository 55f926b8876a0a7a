// The editor's toolbar in Russian and English at 1440, 1280 and 1024 px: its buttons keep to one
// row with the commit message and Save (the Russian toolbar put Save on a second row at 1440), no
// button's words break over two lines, and where the window is too narrow for one row (Russian at
// 1024) the toolbar wraps between its groups, never inside one: Save stays beside its message.
// The save options (autosave, restart bots) and the save status stay on Save's row at every width,
// whatever the status says, and the status reads whole (in Russian it went to a second row alone at
// 1280); at 1440 and 1280 the whole toolbar keeps to one row. So does a failed save's status, on two
// lines where one is too narrow (in Russian at 1280 it was cut to "Не удалось сох…").
// From 1100 px down the commit message and Save take a row of their own, the message wide enough
// for a sentence (it was 8rem, its own placeholder cut), and nothing runs off the page down to a phone.
// Wrapped, no separator is left at the end or the start of a row.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, placeholderFits, warnIfNoChromium } from "../support/browser";
import { TOOLBAR } from "../../web/src/editor/actions";
import { editorEnv, newProject, openEditor, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: toolbar row");

/** Which of the save options and the status stand off Save's row (above, below, or before Save). */
const offSaveRow = (page: Page) =>
  page.getByRole("toolbar").evaluate((tb) => {
    const save = tb.querySelector("[data-action=save]")!.getBoundingClientRect();
    return [...tb.querySelectorAll(".ed-check, [role=status]")]
      .map((e) => ({ name: e.textContent!.trim(), r: e.getBoundingClientRect() }))
      .filter(({ r }) => (r.top + r.bottom) / 2 < save.top || (r.top + r.bottom) / 2 > save.bottom || r.left < save.right)
      .map(({ name }) => name);
  });

/** The status's words, unless they are cut (across, or below their lines), covered, or off the page: then what is wrong. */
const statusWords = (page: Page) =>
  page.getByTestId("save-status").evaluate((st) => {
    const box = st.getBoundingClientRect();
    const words = document.createRange();
    words.selectNodeContents(st);
    const text = words.getBoundingClientRect();
    if ([st, ...st.querySelectorAll("*")].some((e) => e.scrollWidth > e.clientWidth) || [...st.querySelectorAll("*")].some((e) => e.scrollHeight > e.clientHeight) || text.width > box.width + 0.5) return "cut";
    if (box.left < 0 || box.right > innerWidth || box.width === 0) return "off the page";
    const at = document.elementFromPoint((text.left + text.right) / 2, (text.top + text.bottom) / 2);
    return at && st.contains(at) ? st.textContent!.trim() : "covered";
  });

/** How many rows the toolbar's shown groups take. */
const toolbarRows = (page: Page) =>
  page.getByRole("toolbar").evaluate((tb) => new Set([...tb.children].filter((e) => e.checkVisibility({ visibilityProperty: true }) && !e.classList.contains("ed-sep")).map((e) => { const r = e.getBoundingClientRect(); return Math.round((r.top + r.bottom) / 2 / 8); })).size);

describe.skipIf(!haveChromium)("editor: the toolbar's buttons keep to one row", () => {
  let env: EditorEnv;
  let projectId: number;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "Toolbar", { version: 2, sheets: [{ id: "main", name: "Main", nodes: [{ id: "hi", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Hi" } }], edges: [] }] });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("RU on a phone (390): the read-only toolbar's buttons lie side by side, none over another, and it has no save status", async () => {
    const { page } = env.b;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem("botloom.lang", "ru"));
    await openEditor(page, env.base, projectId);
    await page.getByTestId("phone-notice").waitFor();
    await page.screenshot({ path: "/tmp/editor-shots/toolbar-ru-390.png", clip: { x: 0, y: 150, width: 390, height: 130 } });
    const over = await page.getByRole("toolbar").evaluate((tb) => {
      const items = [...tb.querySelectorAll("[data-action], [role=status]")].map((e) => ({ name: e.textContent ?? "", r: e.getBoundingClientRect() }));
      const out: string[] = [];
      for (let i = 0; i < items.length; i++)
        for (let j = i + 1; j < items.length; j++) {
          const a = items[i]!.r, b = items[j]!.r;
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push(`${items[i]!.name} × ${items[j]!.name}`);
        }
      return out;
    });
    expect(over).toEqual([]);
    // nothing is saved on a phone (docs/editor.md "On a phone")
    expect(await page.getByTestId("save-status").count()).toBe(0);
    // nothing of the toolbar runs off the page (it scrolls sideways within itself)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  }, 45_000);

  // At 1280 the Russian status went alone to a second row; from 1200 down to 1100 the save options
  // and the status went there without Save.
  for (const lang of ["ru", "en"] as const)
    test(`${lang.toUpperCase()} from 1440 to 800: autosave, restart bots and the save status on Save's row and the status read whole, saved and unsaved; one row at 1440 and 1280`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      const toolbar = page.getByRole("toolbar");
      const offRow = () => offSaveRow(page);
      const statusRead = () => statusWords(page);
      const rows = () => toolbarRows(page);
      const labels = lang === "ru" ? { autosave: "Автосохранение", restart: "Перезапускать ботов", saved: "Сохранено", unsaved: "Не сохранено" } : { autosave: "Autosave", restart: "Restart bots on save", saved: "Saved", unsaved: "Unsaved changes" };
      for (const width of [1440, 1280, 1200, 1100, 1024, 900, 800]) {
        await page.setViewportSize({ width, height: 900 });
        await openEditor(page, env.base, projectId);
        await toolbar.getByRole("button", { name: lang === "ru" ? "Сохранить" : "Save", exact: true }).waitFor();
        await toolbar.getByLabel(labels.autosave).waitFor();
        await toolbar.getByLabel(labels.restart).waitFor();
        await page.getByTestId("save-status").filter({ hasText: labels.saved }).waitFor();
        await page.screenshot({ path: `/tmp/editor-shots/toolbar-${lang}-${width}-saved.png`, clip: { x: 0, y: 150, width, height: 130 } });
        expect({ width, off: await offRow(), status: await statusRead() }).toEqual({ width, off: [], status: labels.saved });
        if (width >= 1280) expect({ width, rows: await rows() }).toEqual({ width, rows: 1 });
        // an edit: the status says so, still on the row
        await page.locator('.ed-palette-item[data-type="message"]').click();
        await page.getByTestId("save-status").filter({ hasText: labels.unsaved }).waitFor();
        await page.screenshot({ path: `/tmp/editor-shots/toolbar-${lang}-${width}-unsaved.png`, clip: { x: 0, y: 150, width, height: 130 } });
        expect({ width, off: await offRow(), status: await statusRead() }).toEqual({ width, off: [], status: labels.unsaved });
        if (width >= 1280) expect({ width, rows: await rows() }).toEqual({ width, rows: 1 });
        // the restart option's short words are explained on hover
        expect(await toolbar.locator("label", { has: page.getByLabel(labels.restart) }).getAttribute("title")).toMatch(/running bots|запущенные боты/);
        // undone, the sheet is as saved again for the next width and the tests after this one
        await page.keyboard.press("Control+z");
        await page.getByTestId("save-status").filter({ hasText: labels.saved }).waitFor();
      }
      expect(env.b.errors).toEqual([]);
    }, 90_000);

  // A failed save's status was cut in Russian at 1280 ("Не удалось сох…", whole only in its tooltip).
  for (const lang of ["ru", "en"] as const)
    test(`${lang.toUpperCase()} from 1440 to 800: a failed save's status reads whole on Save's row; one row at 1440 and 1280`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      // the saves fail until let through, with the answer a broken server gives
      let fail = true;
      const errorsBefore = env.b.errors.length;
      await page.route(`**/api/projects/${projectId}`, (route) =>
        fail && route.request().method() === "PUT" ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "INTERNAL", message: "boom" } }) }) : route.fallback(),
      );
      try {
        for (const width of [1440, 1280, 1200, 1024, 800]) {
          await page.setViewportSize({ width, height: 900 });
          await openEditor(page, env.base, projectId);
          await page.locator('.ed-palette-item[data-type="message"]').click();
          await page.getByRole("toolbar").getByRole("button", { name: lang === "ru" ? "Сохранить" : "Save", exact: true }).click();
          await page.locator(".ed-status.error").waitFor();
          await page.screenshot({ path: `/tmp/editor-shots/toolbar-${lang}-${width}-failed.png`, clip: { x: 0, y: 150, width, height: 130 } });
          // its words are those of its tooltip, whole
          const failed = await page.getByTestId("save-status").getAttribute("title");
          expect({ width, off: await offSaveRow(page), status: await statusWords(page) }).toEqual({ width, off: [], status: failed! });
          if (width >= 1280) expect({ width, rows: await toolbarRows(page) }).toEqual({ width, rows: 1 });
          // undone and saved for real, so the next width (and the tests after this one) open the sheet as it was
          await page.keyboard.press("Control+z");
          fail = false;
          await page.getByRole("toolbar").getByRole("button", { name: lang === "ru" ? "Сохранить" : "Save", exact: true }).click();
          await page.getByTestId("save-status").filter({ hasText: lang === "ru" ? "Сохранено" : "Saved" }).waitFor();
          fail = true;
        }
      } finally {
        await page.unroute(`**/api/projects/${projectId}`);
        // the failed saves' own 500s are not left for the tests after
        const caused = env.b.errors.splice(errorsBefore);
        env.b.errors.push(...caused.filter((e) => !e.includes("status of 500")));
      }
      expect(env.b.errors).toEqual([]);
    }, 90_000);

  for (const lang of ["ru", "en"] as const)
    test(`${lang.toUpperCase()} at 1024 and 800: the commit message shows its placeholder and a whole sentence typed in it, within the page`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      const sentence = lang === "ru" ? "Добавил приветствие и шаг оплаты" : "Added the welcome and the payment step";
      for (const width of [1024, 800]) {
        await page.setViewportSize({ width, height: 900 });
        await openEditor(page, env.base, projectId);
        const message = page.getByRole("toolbar").getByLabel(lang === "ru" ? "Описание изменений" : "Commit message");
        expect(await placeholderFits(message)).toBe(true);
        await message.fill(sentence);
        await page.screenshot({ path: `/tmp/editor-shots/toolbar-${lang}-${width}-message.png`, clip: { x: 0, y: 150, width, height: 130 } });
        const fit = await message.evaluate((el: HTMLInputElement) => {
          const r = el.getBoundingClientRect();
          const tb = el.closest("[role=toolbar]")!.getBoundingClientRect();
          return { cut: el.scrollWidth > el.clientWidth, inToolbar: r.left >= tb.left && r.right <= tb.right, pageWider: document.documentElement.scrollWidth > innerWidth };
        });
        expect({ width, ...fit }).toEqual({ width, cut: false, inToolbar: true, pageWider: false });
        await message.fill("");
      }
      expect(env.b.errors).toEqual([]);
    }, 45_000);

  // A wrapped toolbar left the line between two groups at the end of the first row (RU at 1024).
  for (const lang of ["ru", "en"] as const)
    test(`${lang.toUpperCase()} at 1440 down to 800: no separator stands at the start or the end of a row`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      let wrapped = 0;
      for (const width of [1440, 1280, 1200, 1100, 1024, 900, 800]) {
        await page.setViewportSize({ width, height: 900 });
        await openEditor(page, env.base, projectId);
        await page.getByTestId("save-status").waitFor();
        const rows = await page.getByRole("toolbar").evaluate((tb) => {
          const shown = [...tb.children].filter((e) => e.checkVisibility({ visibilityProperty: true }) && e.getBoundingClientRect().width > 0);
          const sameRow = (a: Element, b: Element) => { const p = a.getBoundingClientRect(), q = b.getBoundingClientRect(); return p.top < q.bottom && q.top < p.bottom; };
          const alone = shown.flatMap((e, i) => (e.classList.contains("ed-sep") && !(i > 0 && sameRow(shown[i - 1]!, e) && i < shown.length - 1 && sameRow(e, shown[i + 1]!)) ? [`separator ${i}`] : []));
          const tops = new Set(shown.filter((e) => !e.classList.contains("ed-sep")).map((e) => Math.round(e.getBoundingClientRect().top / 8)));
          return { alone, rows: tops.size };
        });
        if (rows.rows > 1) wrapped++;
        expect({ width, alone: rows.alone }).toEqual({ width, alone: [] });
      }
      // the toolbar did wrap at some of these widths, so the rule was put to the test
      expect(wrapped).toBeGreaterThan(0);
      expect(env.b.errors).toEqual([]);
    }, 60_000);

  for (const lang of ["ru", "en"] as const)
    for (const [width, oneRow] of [[1440, true], [1280, true], [1024, false]] as const) {
      test(`${lang.toUpperCase()} at ${width}: ${oneRow ? "every button, the message and Save on one row" : "wraps between groups only"}; no button's words break`, async () => {
        const { page } = env.b;
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
        await openEditor(page, env.base, projectId);
        const toolbar = page.getByRole("toolbar");
        await toolbar.getByRole("button", { name: lang === "ru" ? "Сохранить" : "Save", exact: true }).waitFor();
        await page.screenshot({ path: `/tmp/editor-shots/toolbar-${lang}-${width}.png`, clip: { x: 0, y: 150, width, height: 130 } });
        const boxes = await toolbar.evaluate((tb) => {
          const box = (e: Element) => { const r = e.getBoundingClientRect(); return { id: e.getAttribute("data-action") ?? "message", name: e.getAttribute("aria-label") ?? e.textContent ?? "", top: Math.round(r.top), bottom: Math.round(r.bottom), height: r.height }; };
          const lineHeight = parseFloat(getComputedStyle(tb.querySelector("button")!).lineHeight) || 20;
          return { items: [...tb.querySelectorAll("[data-action], input:not([type=checkbox])")].map(box), lineHeight };
        });
        const { items } = boxes;
        expect(items.length).toBe(TOOLBAR.flat().length + 1);
        // a button whose words broke is at least two lines of text high
        expect(items.filter((b) => b.height > boxes.lineHeight * 1.9 + 12).map((b) => b.name)).toEqual([]);
        // the row of a box: boxes of one row share their middle (an input and a button differ by a pixel)
        const rowOf = (b: { top: number; bottom: number }) => Math.round((b.top + b.bottom) / 2 / 8);
        // each group of the toolbar on one line, the commit message with Save
        for (const ids of [...TOOLBAR, ["message", "save"]]) {
          const g = ids.map((id) => items.find((b) => b.id === id)!);
          expect(g.map((b) => `${b.name} row ${rowOf(b)}`)).toEqual(g.map((b) => `${b.name} row ${rowOf(g[0]!)}`));
        }
        if (oneRow) expect(new Set(items.map(rowOf)).size).toBe(1);
        expect(env.b.errors).toEqual([]);
      }, 45_000);
    }
});
