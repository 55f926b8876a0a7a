// The inspector never scrolls sideways: for every node type of the palette, with buttons that have
// targets and long texts, in English and in Russian, the panel's content fits its width (the ↑ ↓ ✕
// controls stay in view).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NODE_KINDS } from "../../web/src/editor/catalogue";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: inspector width");

const LONG = "A rather long button text that goes on and on";
/** One node of every type, with its palette defaults, plus buttons and a target where it takes them. */
function everyType() {
  const nodes = NODE_KINDS.map((k, i) => {
    const data: Record<string, unknown> = { ...k.defaults() };
    data.buttons = [
      { id: `b${i}a`, text: LONG, action: "goto", target: "target_node_with_a_long_identifier" },
      { id: `b${i}b`, text: "Открыть очень длинную ссылку", action: "url", url: "https://example.org/a/very/long/path/that/does/not/wrap" },
    ];
    if (!data.keyboardType) data.keyboardType = "inline";
    return { id: `n_${k.type}`, type: k.type, position: { x: (i % 8) * 300, y: Math.floor(i / 8) * 200 }, data };
  });
  nodes.push({ id: "target_node_with_a_long_identifier", type: "message", position: { x: 0, y: -300 }, data: { messageText: "Ein sehr langer Zieltext, der den Auswahlknopf breit macht, damit er überläuft" } as Record<string, unknown> });
  return { version: 2, sheets: [{ id: "main", name: "Main", nodes, edges: [] }] };
}

describe.skipIf(!haveChromium)("editor: the inspector fits its width", () => {
  let env: EditorEnv;
  let projectId: number;

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "Every type", everyType());
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  for (const lang of ["en", "ru"]) {
    test(`every node type in ${lang.toUpperCase()}: scrollWidth <= clientWidth`, async () => {
      const { page } = env.b;
      await page.evaluate((l) => localStorage.setItem("botloom.lang", l), lang);
      await openEditor(page, env.base, projectId);
      const wide: string[] = [];
      for (const k of NODE_KINDS) {
        const id = `n_${k.type}`;
        // found by search: a click on the canvas may land on the minimap of 50 nodes
        await page.keyboard.press("Control+f");
        await page.locator(".ed-search input[type=search], [role=dialog] input[type=search]").last().fill(id);
        await page.keyboard.press("Enter");
        const panel = page.locator(".ed-props");
        await panel.locator(".ed-props-head").filter({ hasText: id }).waitFor();
        const m = await panel.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        if (m.scroll > m.client) wide.push(`${k.type} (${m.scroll} > ${m.client})`);
        // the ↑ ↓ ✕ of every list row lie inside the panel
        const cut = await panel.evaluate((el) => {
          const right = el.getBoundingClientRect().right;
          return [...el.querySelectorAll(".ed-list-tools button")].filter((b) => b.getBoundingClientRect().right > right + 0.5).length;
        });
        if (cut > 0) wide.push(`${k.type}: ${cut} row controls cut off`);
      }
      expect(wide).toEqual([]);
    }, 120_000);
  }
});
