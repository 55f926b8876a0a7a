// The properties panel that opens for a node does not hide it or its neighbours (the nodes it links
// with): the selected node is shown whole and under no floating panel (palette, properties, warnings
// box, minimap, zoom buttons), and so are its neighbours where they fit beside it. It used to keep
// only the node itself in view: a node added from a handle's + was centred and its source went under
// the palette; a node clicked at the right edge was centred and the one it follows went under the
// palette; and a node selected before the preview opened was left under the properties panel. A
// neighbour that fits beside it only at a smaller zoom is shown by zooming out, not below 60 % (it
// was left under the properties panel). A window made narrower moved the properties panel over the
// selected node, and the view did not follow. A panel's change (the palette folded, the preview
// opened) pulled the node back into view after the person had panned it away; a resize did not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { chainDoc, editorEnv, newProject, nodeEl, openEditor, pick, settled, zoomOf, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: the selected node is clear of the panels");

const doc = chainDoc(["One", "Two"]);

/** The person drags the empty canvas below the chain 600 px to the right, and the view settles. */
async function panAwayByHand(page: Page) {
  const c = (await page.locator(".ed-canvas").boundingBox())!;
  await page.mouse.move(c.x + c.width / 2, c.y + c.height - 60);
  await page.mouse.down();
  await page.mouse.move(c.x + c.width / 2 + 600, c.y + c.height - 60, { steps: 8 });
  await page.mouse.up();
  await settled(page);
}

/**
 * What hides the selected node (cut by the canvas's edge, or under a panel) and which of the given
 * neighbours lie under a panel, as sentences.
 */
const hidden = (page: Page, neighbours: string[]) =>
  page.evaluate((ids) => {
    const sel = document.querySelector(".react-flow__node-scenario.selected");
    if (!sel) return ["nothing selected"];
    const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
    const parts = { palette: ".ed-palette", properties: ".ed-props-dock", warnings: ".ed-warnbox", minimap: ".react-flow__minimap", "zoom buttons": ".react-flow__controls" };
    const under = (a: DOMRect) =>
      Object.entries(parts).flatMap(([name, s]) => [...document.querySelectorAll(`.ed-center ${s}`)].filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom; }).map(() => name));
    const a = sel.getBoundingClientRect();
    const out: string[] = [];
    if (a.left < c.left || a.right > c.right || a.top < c.top || a.bottom > c.bottom) out.push("selected: cut by the canvas's edge");
    for (const name of under(a)) out.push(`selected: under the ${name}`);
    for (const id of ids) for (const name of under(document.querySelector(`.react-flow__node[data-id="${id}"]`)!.getBoundingClientRect())) out.push(`${id}: under the ${name}`);
    return out;
  }, neighbours);

describe.skipIf(!haveChromium)("editor: the selected node and its neighbours are clear of the panels", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1280, height: 900 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  const open = async (page: Page, width: number, name: string, data: unknown = doc) => {
    await page.setViewportSize({ width, height: 900 });
    const id = await newProject(env, name, data);
    await openEditor(page, env.base, id);
    await page.locator(".ed-canvas[data-settled=main]").waitFor();
    await settled(page);
  };

  for (const width of [1440, 1280, 1024])
    test(`${width} px: a node added from the last node's + is clear, and so is the node it follows`, async () => {
      const { page } = env.b;
      await open(page, width, `Plus ${width}`);
      await page.locator('.react-flow__node[data-id="two"] .ed-quick').first().click();
      await page.locator('.ed-quickmenu .ed-palette-item[data-type="message"]').click();
      await page.waitForFunction(() => document.querySelectorAll(".react-flow__node-scenario").length === 4);
      await settled(page);
      await page.screenshot({ path: `/tmp/editor-shots/selected-plus-${width}.png` });
      expect({ width, hidden: await hidden(page, ["two"]) }).toEqual({ width, hidden: [] });
      expect(env.b.errors).toEqual([]);
    }, 45_000);

  for (const width of [1440, 1280, 1024])
    test(`${width} px: a node clicked where the properties open is clear, and so is the node before it`, async () => {
      const { page } = env.b;
      await open(page, width, `Click ${width}`);
      await pick(page, "two");
      await settled(page);
      await page.screenshot({ path: `/tmp/editor-shots/selected-click-${width}.png` });
      expect({ width, hidden: await hidden(page, ["one"]) }).toEqual({ width, hidden: [] });
      expect(env.b.errors).toEqual([]);
    }, 45_000);

  for (const width of [1440, 1280, 1024])
    // (its neighbours, 320 px away on either side, do not fit beside it at the zoom the sheet opened at)
    test(`${width} px: the preview opened with a node selected leaves it clear`, async () => {
      const { page } = env.b;
      await open(page, width, `Preview ${width}`);
      await pick(page, "one");
      await page.getByRole("toolbar").getByRole("button", { name: "Preview", exact: true }).click();
      await page.getByTestId("editor-preview").waitFor();
      await settled(page);
      await page.screenshot({ path: `/tmp/editor-shots/selected-preview-${width}.png` });
      expect({ width, hidden: await hidden(page, []) }).toEqual({ width, hidden: [] });
      expect(env.b.errors).toEqual([]);
    }, 45_000);

  /** Two messages, "one" leading to "far" the given distance to its right. */
  const farDoc = (distance: number) => ({
    sheets: [{ id: "main", name: "Main", edges: [], nodes: [
      { id: "one", type: "message", position: { x: 0, y: 0 }, data: { messageText: "One", autoTransitionTo: "far" } },
      { id: "far", type: "message", position: { x: distance, y: 0 }, data: { messageText: "Far" } },
    ] }],
  });

  // The node it leads to, 900 px away, fitted beside it when the sheet opened; the properties that
  // opened for it left too little room for both at that zoom, and the view kept only the node: the
  // other lay under the properties panel.
  test("1440 px: a neighbour too far to fit beside the node at this zoom is shown by zooming out, not below 60 %", async () => {
    const { page } = env.b;
    await open(page, 1440, "Far", farDoc(900));
    const before = await zoomOf(page);
    await pick(page, "one");
    await settled(page);
    await page.screenshot({ path: "/tmp/editor-shots/selected-far-1440.png" });
    expect(await hidden(page, ["far"])).toEqual([]);
    // and not off the canvas either
    expect(await page.evaluate(() => {
      const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
      const a = document.querySelector('.react-flow__node[data-id="far"]')!.getBoundingClientRect();
      return a.left >= c.left && a.right <= c.right && a.top >= c.top && a.bottom <= c.bottom;
    })).toBe(true);
    const after = await zoomOf(page);
    expect(after).toBeLessThan(before);
    expect(after).toBeGreaterThanOrEqual(0.6 - 1e-6);
    expect(env.b.errors).toEqual([]);
  }, 45_000);

  test("1440 px: a neighbour too far even at 60 % leaves the zoom at 60 % or more, the node clear", async () => {
    const { page } = env.b;
    await open(page, 1440, "Farther", farDoc(3000));
    await pick(page, "one");
    await settled(page);
    expect(await hidden(page, [])).toEqual([]);
    expect(await zoomOf(page)).toBeGreaterThanOrEqual(0.6 - 1e-6);
    expect(env.b.errors).toEqual([]);
  }, 45_000);

  /** The view's transform (pan and zoom), as React Flow draws it. */
  const view = (page: Page) => page.locator(".react-flow__viewport").evaluate((e) => getComputedStyle(e).transform);
  /** Resizes the page and waits until the canvas has changed size and two frames have passed (the view follows in the first). */
  const resize = async (page: Page, width: number, height: number) => {
    const before = await page.locator(".ed-canvas").evaluate((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; });
    await page.setViewportSize({ width, height });
    await page.waitForFunction(([w, h]) => { const r = document.querySelector(".ed-canvas")!.getBoundingClientRect(); return r.width !== w || r.height !== h; }, before);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  };

  // A window made narrower moved the properties panel over the selected node (its place on the
  // canvas stayed; the panel's, at the canvas's right edge, did not); no panel folded, so the view did not follow.
  for (const [from, to] of [[1440, 1100], [1280, 1000]] as const)
    test(`${from} → ${to} px: the window made narrower with a node selected keeps it and the node before it clear`, async () => {
      const { page } = env.b;
      await open(page, from, `Resize ${from}`);
      await pick(page, "two");
      await settled(page);
      await page.screenshot({ path: `/tmp/editor-shots/selected-resize-${from}.png` });
      expect(await hidden(page, ["one"])).toEqual([]);
      await resize(page, to, 900);
      await settled(page);
      await page.screenshot({ path: `/tmp/editor-shots/selected-resize-${from}-${to}.png` });
      expect({ to, hidden: await hidden(page, ["one"]) }).toEqual({ to, hidden: [] });
      expect(env.b.errors).toEqual([]);
    }, 45_000);

  // A phone's window made shorter (its browser's bars, a keyboard) moved the properties dock at the
  // bottom of its canvas over the tapped node, low on the sheet.
  test("phone: made shorter, then turned to 844×390 and back, keeps the tapped node clear", async () => {
    const { page } = env.b;
    await page.setViewportSize({ width: 390, height: 844 });
    const column = { sheets: [{ id: "main", name: "Main", edges: [], nodes: ["one", "two", "three"].map((id, i, ids) => ({ id, type: "message", position: { x: 0, y: 220 * i }, data: { messageText: id, ...(ids[i + 1] && { autoTransitionTo: ids[i + 1] }) } })) }] };
    const id = await newProject(env, "Phone", column);
    await openEditor(page, env.base, id);
    await page.getByTestId("phone-notice").waitFor();
    await page.locator(".ed-canvas[data-settled=main]").waitFor();
    await settled(page);
    await pick(page, "three");
    await settled(page);
    await page.screenshot({ path: "/tmp/editor-shots/selected-phone-390x844.png" });
    // (the node before it, 220 px up, does not fit beside it between the warnings box and the dock even at 60 %)
    const seen: Record<string, string[]> = { "390x844": await hidden(page, []) };
    for (const [width, height] of [[390, 640], [844, 390], [390, 844]] as const) {
      await resize(page, width, height);
      await settled(page);
      await page.screenshot({ path: `/tmp/editor-shots/selected-phone-${width}x${height}-after.png` });
      seen[`${width}x${height} after`] = await hidden(page, []);
    }
    expect(seen).toEqual({ "390x844": [], "390x640 after": [], "844x390 after": [], "390x844 after": [] });
    expect(env.b.errors).toEqual([]);
  }, 60_000);

  test("a resize leaves the view alone with nothing selected, while a person pans, and once they panned the node away", async () => {
    const { page } = env.b;
    await open(page, 1280, "Resize alone");
    // nothing selected
    let before = await view(page);
    await resize(page, 1000, 900);
    expect(await view(page)).toBe(before);
    // a person panning (the button held) as the window changes: the view is where their hand put it
    await page.setViewportSize({ width: 1280, height: 900 });
    await pick(page, "two");
    await settled(page);
    const c = (await page.locator(".ed-canvas").boundingBox())!;
    // the empty canvas below the chain
    await page.mouse.move(c.x + c.width / 2, c.y + c.height - 60);
    await page.mouse.down();
    await page.mouse.move(c.x + c.width / 2 + 40, c.y + c.height - 70, { steps: 4 });
    before = await view(page);
    await resize(page, 1000, 900);
    expect(await view(page)).toBe(before);
    await page.mouse.up();
    // the node panned off the canvas by hand stays off it as the window changes
    await page.setViewportSize({ width: 1280, height: 900 });
    await pick(page, "two");
    await settled(page);
    await panAwayByHand(page);
    expect(await hidden(page, [])).not.toEqual([]);
    before = await view(page);
    await resize(page, 1000, 900);
    expect(await view(page)).toBe(before);
    expect(env.b.errors).toEqual([]);
  }, 60_000);

  test("a panel's change leaves the view alone once the person panned the node away; a node selected then is brought clear", async () => {
    const { page } = env.b;
    await open(page, 1280, "Panels alone");
    await pick(page, "two");
    await settled(page);
    await panAwayByHand(page);
    // still selected, and off to the right
    const off = await hidden(page, []);
    expect(off.length > 0 && !off.includes("nothing selected")).toBe(true);
    const before = await view(page);
    const kept: Record<string, boolean> = {};
    await page.locator(".ed-palette").getByRole("button", { name: "Hide panel" }).click();
    await page.locator(".ed-palette").waitFor({ state: "detached" });
    await settled(page);
    kept["palette folded"] = (await view(page)) === before;
    await page.locator("[data-action=palette]").first().click();
    await page.locator(".ed-palette").waitFor();
    await settled(page);
    kept["palette back"] = (await view(page)) === before;
    await page.getByRole("toolbar").getByRole("button", { name: "Preview", exact: true }).click();
    await page.getByTestId("editor-preview").waitFor();
    await settled(page);
    kept["preview opened"] = (await view(page)) === before;
    expect(kept).toEqual({ "palette folded": true, "palette back": true, "preview opened": true });
    // a new selection is followed again
    await pick(page, "one");
    await settled(page);
    await page.screenshot({ path: "/tmp/editor-shots/selected-panels-after-pan.png" });
    expect(await hidden(page, [])).toEqual([]);
    expect(env.b.errors).toEqual([]);
  }, 60_000);

  // An undo hands back the selection as a new list of the same ids, and counted as a new selection:
  // the view jumped back to the node the person had panned away from.
  test("an undo with the node still selected leaves the view where the person panned it", async () => {
    const { page } = env.b;
    await open(page, 1280, "Undo alone");
    await pick(page, "two");
    await settled(page);
    await page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true }).fill("Two edited");
    await nodeEl(page, "two").locator(".ed-text", { hasText: /^Two edited$/ }).waitFor();
    await panAwayByHand(page);
    const off = await hidden(page, []);
    expect(off.length > 0 && !off.includes("nothing selected")).toBe(true);
    const before = await view(page);
    await page.getByRole("toolbar").locator("[data-action=undo]").click();
    await nodeEl(page, "two").locator(".ed-text", { hasText: /^Two$/ }).waitFor();
    await settled(page);
    expect(await view(page)).toBe(before);
    expect(env.b.errors).toEqual([]);
  }, 60_000);
});
