// Connecting and adding on the canvas in Chromium, with the mouse: a connection dropped anywhere
// on a node's card connects to it; an edge's "+" inserts a node between its ends; nodes added from
// the palette, duplicated or pasted never land on another node and come into view. Also the first
// run (empty-sheet hint, tour, node picker), a template opening fitted, canvas space (folding panels,
// full screen, the minimap) and the phone's read-only view.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, placeholderFits, warnIfNoChromium } from "../support/browser";
import { editorEnv, handle, newProject, nodeEl, nodeIds, openEditor, overlaps, pick, settled, zoomOf, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor: connect and add");

const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({ id, type, position: { x, y }, data });
const doc = () => ({
  sheets: [
    {
      id: "main",
      name: "Main",
      nodes: [
        node("go", "command_trigger", 0, 0, { command: "/start", autoTransitionTo: "" }),
        node("one", "message", 480, 0, { messageText: "One", autoTransitionTo: "two", enableAutoTransition: true }),
        node("two", "message", 960, 0, { messageText: "Two" }),
      ],
      edges: [],
    },
  ],
});

describe.skipIf(!haveChromium)("editor: connect and add", () => {
  let env: EditorEnv;
  let projectId: number;
  const stored = async () => (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body.data.sheets[0].nodes as any[];
  const save = async () => {
    const { page } = env.b;
    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
  };

  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
    projectId = await newProject(env, "Connect", doc());
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("a connection dropped on the middle of a node's card connects to that node", async () => {
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await page.locator(".ed-canvas[data-settled=main]").waitFor();
    // a slot's + is a circle of its own size with the glyph in its middle, not the editor's button padding
    const plus = await nodeEl(page, "go").locator(".ed-quick").first().evaluate((el) => {
      const b = el.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(el);
      const g = range.getBoundingClientRect();
      // offset sizes are the layout's, before the canvas's zoom; the glyph's offset is measured in zoomed pixels
      const zoom = b.width / (el as HTMLElement).offsetWidth;
      return { w: (el as HTMLElement).offsetWidth, h: (el as HTMLElement).offsetHeight, dx: (g.left + g.width / 2 - (b.left + b.width / 2)) / zoom, dy: (g.top + g.height / 2 - (b.top + b.height / 2)) / zoom };
    });
    expect([plus.w, plus.h]).toEqual([18, 18]);
    expect(Math.abs(plus.dx)).toBeLessThan(2);
    expect(Math.abs(plus.dy)).toBeLessThan(2.5);
    const from = (await handle(page, "go", "auto").boundingBox())!;
    const body = (await nodeEl(page, "one").locator(".ed-body").boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(body.x + body.width / 2, body.y + body.height / 2, { steps: 12 });
    await page.mouse.up();
    expect(await page.locator(".ed-quickmenu").count()).toBe(0);
    await page.locator('.react-flow__edge[data-id="go|auto"]').waitFor();
    await save();
    expect((await stored()).find((n) => n.id === "go").data.autoTransitionTo).toBe("one");
  }, 30_000);

  test("an edge's + inserts a node between its ends", async () => {
    const { page } = env.b;
    // the + sits in the middle of the edge and shows when the pointer is there
    const plus = page.locator('.ed-edge-insert[data-edge="one|auto"]');
    await plus.hover();
    expect(await plus.evaluate((e) => getComputedStyle(e).opacity)).toBe("1");
    await page.getByRole("button", { name: "Insert a node here" }).and(page.locator('[data-edge="one|auto"]')).click();
    // the picker's hint is read whole, not clipped
    expect(await placeholderFits(page.getByRole("searchbox", { name: /Search nodes/ }))).toBe(true);
    await page.getByRole("searchbox", { name: /Search nodes/ }).fill("wait");
    await page.getByRole("menuitem", { name: "Delay", exact: true }).click();
    const added = (await nodeIds(page)).find((id) => !["go", "one", "two"].includes(id))!;
    await save();
    const nodes = await stored();
    expect(nodes.find((n) => n.id === "one").data.autoTransitionTo).toBe(added);
    expect(nodes.find((n) => n.id === added)).toMatchObject({ type: "delay", data: { autoTransitionTo: "two" } });
    await settled(page);
    expect(await overlaps(page)).toEqual([]);
  }, 30_000);

  test("palette clicks add nodes next to the selected one, never on another node, and in view", async () => {
    const { page } = env.b;
    const before = new Set(await nodeIds(page));
    for (let i = 0; i < 6; i++) {
      await page.locator('.ed-palette-item[data-type="message"]').click();
      await page.waitForFunction((n) => document.querySelectorAll(".react-flow__node-scenario").length === n, before.size + i + 1);
      await settled(page);
      expect(await overlaps(page)).toEqual([]);
      // the new node is selected and fully inside the canvas, clear of the floating panels
      const id = (await nodeIds(page)).find((x) => !before.has(x) && !(globalThis as any).__seen?.has(x))!;
      ((globalThis as any).__seen ??= new Set()).add(id);
      const box = (await nodeEl(page, id).boundingBox())!;
      const free = await page.evaluate(() => {
        const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
        const pal = document.querySelector(".ed-palette")!.getBoundingClientRect();
        const props = document.querySelector(".ed-props-dock")?.getBoundingClientRect();
        return { left: pal.right, right: props ? props.left : c.right, top: c.top, bottom: c.bottom };
      });
      expect(box.x).toBeGreaterThanOrEqual(free.left);
      expect(box.x + box.width).toBeLessThanOrEqual(free.right);
      expect(box.y).toBeGreaterThanOrEqual(free.top);
      expect(box.y + box.height).toBeLessThanOrEqual(free.bottom);
    }
    expect(env.b.errors).toEqual([]);
  }, 60_000);

  test("duplicate and paste never land on a node (the copies slide clear) and come into view", async () => {
    const { page } = env.b;
    const before = (await nodeIds(page)).length;
    await page.locator(".react-flow__pane").click({ position: { x: 300, y: 20 } });
    await pick(page, "two");
    await page.keyboard.press("Control+d");
    await page.keyboard.press("Control+c");
    await page.keyboard.press("Control+v");
    await page.waitForFunction((n) => document.querySelectorAll(".react-flow__node-scenario").length === n, before + 2);
    await settled(page);
    expect(await overlaps(page)).toEqual([]);
    expect(env.b.errors).toEqual([]);
  }, 30_000);
});

describe.skipIf(!haveChromium)("editor: first run, templates, canvas space", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("an empty sheet shows a hint; the tour walks four steps; the picker finds nodes by what they do; Add /start adds one", async () => {
    const { page } = env.b;
    const id = await newProject(env, "Empty");
    await openEditor(page, env.base, id);
    const hint = page.getByTestId("empty-hint");
    await hint.waitFor();
    await hint.getByRole("button", { name: "Take the tour" }).click();
    const tour = page.getByRole("dialog", { name: "Take the tour" });
    const outlined: string[] = [];
    for (let i = 1; i <= 4; i++) {
      await tour.getByText(`${i} of 4`).waitFor();
      outlined.push(await page.locator(".ed-tour-focus").evaluate((e) => (e as HTMLElement).dataset.tour ?? e.className));
      await tour.getByRole("button", { name: i < 4 ? "Next" : "Done" }).click();
    }
    await tour.waitFor({ state: "detached" });
    expect(outlined[0]).toContain("ed-palette");
    expect(outlined[1]).toContain("ed-canvas");
    expect(outlined[2]).toContain("ed-props");
    expect(outlined[3]).toBe("preview");
    // the picker: a search by what a node does, with its one-line description
    await hint.getByRole("button", { name: "Browse all nodes" }).click();
    await page.getByRole("searchbox", { name: /Search nodes/ }).fill("saves the user's answer");
    const items = page.getByRole("menuitem");
    expect(await items.count()).toBe(1);
    expect(await items.first().getAttribute("aria-description")).toBe("Asks a question and saves the user's answer into a variable.");
    await page.getByRole("searchbox", { name: /Search nodes/ }).fill("zzz-nothing");
    await page.getByText("No node matches.").waitFor();
    await page.keyboard.press("Escape");
    await hint.getByRole("button", { name: "Add /start" }).click();
    await hint.waitFor({ state: "detached" });
    expect(await page.locator(".ed-node .ed-cmd").textContent()).toBe("/start");
    expect(env.b.errors).toEqual([]);
  }, 60_000);

  test("the FAQ template (its file remembers 100 % at 0,0) opens fitted: all of it, or its start at the readable floor", async () => {
    const { page } = env.b;
    const tpl = (await env.t.call("GET", "/api/templates?search=FAQ%20bot", { cookie: env.cookie })).body.items[0];
    const p = (await env.t.call("POST", `/api/templates/${tpl.id}/use`, { cookie: env.cookie, json: { name: "From a template" } })).body;
    await openEditor(page, env.base, p.id);
    const sheet = (await env.t.call("GET", `/api/projects/${p.id}`, { cookie: env.cookie })).body.data.sheets[0];
    await page.locator(`.ed-canvas[data-settled="${sheet.id}"]`).waitFor();
    await settled(page);
    const outside = await page.evaluate(() => {
      const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
      const left = document.querySelector(".ed-palette")?.getBoundingClientRect().right ?? c.left;
      return [...document.querySelectorAll(".react-flow__node-scenario")].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.left < left || r.right > c.right || r.top < c.top || r.bottom > c.bottom;
      }).map((e) => e.getAttribute("data-id"));
    });
    const zoom = await zoomOf(page);
    expect(zoom).toBeGreaterThanOrEqual(0.6 - 1e-6);
    expect(zoom).toBeLessThan(1);
    expect(outside).not.toContain("faq-start");
    if (outside.length) expect(zoom).toBeCloseTo(0.6, 5);
  }, 60_000);

  test("canvas space: panels fold away, full screen takes the window (Esc leaves), the minimap hides and stays hidden", async () => {
    const { page } = env.b;
    const id = await newProject(env, "Space", doc());
    await openEditor(page, env.base, id);
    await page.locator(".ed-canvas[data-settled=main]").waitFor();
    const free = () => page.evaluate(() => {
      const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
      const pal = document.querySelector(".ed-center .ed-palette")?.getBoundingClientRect();
      return Math.round(((c.width - (pal?.width ?? 0)) * c.height) / (innerWidth * innerHeight) * 100);
    });
    const withPalette = await free();
    await page.getByRole("complementary", { name: "Node palette" }).getByRole("button", { name: "Hide panel" }).click();
    const folded = await free();
    expect(folded).toBeGreaterThan(withPalette);
    await page.getByRole("button", { name: "Full screen" }).click();
    const full = await free();
    expect(full).toBeGreaterThan(80);
    await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Escape");
    await expect(free()).resolves.toBe(folded);
    await page.getByRole("button", { name: "Nodes" }).click();
    await page.getByRole("complementary", { name: "Node palette" }).waitFor();
    // the minimap: shown by default, hidden by its control, still hidden after a reload
    await page.locator(".react-flow__minimap").waitFor();
    await page.getByRole("button", { name: "Show or hide the minimap" }).click();
    await page.locator(".react-flow__minimap").waitFor({ state: "detached" });
    await page.reload();
    await page.locator(".ed-canvas[data-settled=main]").waitFor();
    expect(await page.locator(".react-flow__minimap").count()).toBe(0);
    await page.getByRole("button", { name: "Show or hide the minimap" }).click();
    await page.locator(".react-flow__minimap").waitFor();
    expect(env.b.errors).toEqual([]);
  }, 60_000);
});

describe.skipIf(!haveChromium)("editor: on a phone", () => {
  let env: EditorEnv;
  beforeAll(async () => {
    env = await editorEnv({ viewport: { width: 390, height: 844 } });
  }, 60_000);
  afterAll(async () => env?.close(), 30_000);

  test("390×844: a read-only view with a notice; nodes open read-only; the preview works; no sideways scroll", async () => {
    const { page } = env.b;
    const id = await newProject(env, "Phone", doc());
    await openEditor(page, env.base, id);
    await page.getByTestId("phone-notice").waitFor();
    expect(await page.getByTestId("phone-notice").textContent()).toContain("Read-only");
    // nothing that edits is offered
    for (const name of ["Save", "Auto-layout", "Delete", "Paste"]) expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
    expect(await page.locator(".ed-palette").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Add sheet" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /add next from/ }).count()).toBe(0);
    // a node opens read-only, and cannot be dragged (pick: a click aimed while the view still moves misses)
    await pick(page, "one");
    const text = page.getByRole("complementary", { name: "Properties" }).getByLabel("Text", { exact: true });
    expect(await text.inputValue()).toBe("One");
    expect(await text.isDisabled()).toBe(true);
    await settled(page);
    // where the node lies on the sheet (the view's pan and zoom are its parent's)
    const placed = () => page.locator('.react-flow__node[data-id="one"]').evaluate((e) => (e as HTMLElement).style.transform);
    const before = await placed();
    const at = (await nodeEl(page, "one").boundingBox())!;
    await page.mouse.move(at.x + 20, at.y + 10);
    await page.mouse.down();
    await page.mouse.move(at.x + 120, at.y + 80, { steps: 6 });
    await page.mouse.up();
    await settled(page);
    expect(await placed()).toBe(before);
    // nothing is saved on a phone, so no save status either
    expect(await page.getByTestId("save-status").count()).toBe(0);
    // the toolbar is one row and the page does not scroll sideways
    const bar = (await page.getByRole("toolbar", { name: "Editor tools" }).boundingBox())!;
    expect(bar.height).toBeLessThan(60);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await page.locator(".ed-preview").waitFor();
    // the chat opens below the canvas and is brought into sight
    await page.waitForFunction(() => {
      const r = document.querySelector(".ed-preview")!.getBoundingClientRect();
      return r.top >= -1 && r.top < window.innerHeight / 2;
    });
    expect(env.b.errors).toEqual([]);
  }, 60_000);
});
