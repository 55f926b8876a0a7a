// Where the editor's view goes: the canvas's free region beside the floating panels, a fit that
// stays readable, and panning to show given boxes. Reads the page's layout (DOM), not the store's state.
import type { ReactFlowInstance } from "@xyflow/react";
import { boxesOf, type Box } from "./layout";
import type { EditorStore } from "./store";

/** Fit view never zooms out below this: past it node text is unreadable, so the view pans instead. */
const READABLE_ZOOM = 0.6;

/** The canvas's aspect (width / height), for auto-layout. */
export function canvasAspect(): number | undefined {
  const r = document.querySelector(".ed-canvas")?.getBoundingClientRect();
  return r && r.height > 0 ? r.width / r.height : undefined;
}

/** A rectangle in canvas-local pixels (left, top, right, bottom). */
interface Rect {
  l: number;
  t: number;
  r: number;
  b: number;
}

/**
 * The parts floating over the canvas, one list: the palette, the properties, the warnings box over
 * the top middle (a node under it shows no header to click), the minimap and the zoom buttons. The
 * first view of a sheet, the view that follows a new or selected node and where a palette click puts
 * its node all keep clear of them (docs/editor.md "Layout").
 */
const PANELS = [".ed-palette", ".ed-props-dock", ".ed-warnbox", ".react-flow__minimap", ".react-flow__controls"].map((p) => `.ed-center ${p}`).join(", ");

/** The canvas on the screen and the panels over it, canvas-local. */
function canvasCover(): { el: DOMRect; panels: Rect[] } | null {
  const el = document.querySelector(".ed-canvas")?.getBoundingClientRect();
  if (!el || el.width === 0) return null;
  const panels = [...document.querySelectorAll(PANELS)]
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0)
    .map((r) => ({ l: r.left - el.left, t: r.top - el.top, r: r.right - el.left, b: r.bottom - el.top }));
  return { el, panels };
}

const underPanel = (panels: Rect[], a: Rect) => panels.some((p) => a.l < p.r && p.l < a.r && a.t < p.b && p.t < a.b);

/** Whether the canvas shows the rectangle whole: inside its edges and under no panel. */
const showsWhole = (el: DOMRect, panels: Rect[], a: Rect) => a.l >= 0 && a.t >= 0 && a.r <= el.width && a.b <= el.height && !underPanel(panels, a);

/**
 * The largest rectangle of the canvas no panel covers (canvas-local). Each side of such a rectangle
 * is the canvas's edge or a panel's, so those are the only candidates.
 */
function freeRect(el: DOMRect, panels: Rect[]): Rect {
  const ls = [0, ...panels.map((p) => p.r)].filter((x) => x >= 0 && x < el.width);
  const rs = [el.width, ...panels.map((p) => p.l)].filter((x) => x > 0 && x <= el.width);
  const ts = [0, ...panels.map((p) => p.b)].filter((y) => y >= 0 && y < el.height);
  const bs = [el.height, ...panels.map((p) => p.t)].filter((y) => y > 0 && y <= el.height);
  let best: Rect = { l: 0, t: 0, r: el.width, b: el.height };
  let area = -1;
  for (const l of ls)
    for (const r of rs)
      for (const t of ts)
        for (const b of bs) {
          const c = { l, t, r, b };
          if (r > l && b > t && (r - l) * (b - t) > area && !underPanel(panels, c)) [best, area] = [c, (r - l) * (b - t)];
        }
  return best;
}

/** The largest part of the canvas the floating panels leave free, in screen pixels. */
export function visibleRegion(): { left: number; top: number; right: number; bottom: number } | null {
  const cover = canvasCover();
  if (!cover) return null;
  const { el, panels } = cover;
  const f = freeRect(el, panels);
  return { left: el.left + f.l, top: el.top + f.t, right: el.left + f.r, bottom: el.top + f.b };
}

/**
 * Shows the whole sheet when it stays readable; otherwise keeps READABLE_ZOOM and shows where the
 * scenario starts: of the views that begin at a node's left or top edge, the one that leaves the
 * fewest nodes under a floating panel or cut by the canvas's edge, then one that shows the first
 * trigger, then the one nearest the sheet's top-left corner. Aligned on the trigger alone, the
 * nodes left of it lay under the palette (docs/editor.md "Layout").
 */
export async function fitReadable(flow: ReactFlowInstance, store: EditorStore, duration = 0): Promise<void> {
  const nodes = store.sheet.nodes;
  const cover = canvasCover();
  if (!nodes.length || !cover) return;
  const { el, panels } = cover;
  const f = freeRect(el, panels);
  const boxes = boxesOf(nodes, store.sizes);
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const pad = 32;
  // the region in canvas-local pixels
  const L = f.l + pad, T = f.t + pad, W = Math.max(100, f.r - f.l - 2 * pad), H = Math.max(100, f.b - f.t - 2 * pad);
  const zoom = Math.min(1.2, W / (maxX - minX || 1), H / (maxY - minY || 1));
  if (zoom >= READABLE_ZOOM) {
    await flow.setViewport({ zoom, x: L + (W - (maxX - minX) * zoom) / 2 - minX * zoom, y: T + (H - (maxY - minY) * zoom) / 2 - minY * zoom }, { duration });
    return;
  }
  const z = READABLE_ZOOM;
  const start = nodes.find((n) => /trigger$|^start$|^command$/.test(n.type));
  const s = start ? boxes.find((b) => b.id === start.id) : undefined;
  /**
   * Nodes hidden by the view at (x, y): under a panel, cut by the canvas's left or top edge, or left
   * of the canvas (a sheet reads from the left: what lies right or below is panned to, and what
   * lies above, when the trigger is further down).
   */
  const hidden = (x: number, y: number, only?: Box) => {
    let n = 0;
    for (const b of only ? [only] : boxes) {
      const l = x + b.x * z, t = y + b.y * z, r = l + b.w * z, bt = t + b.h * z;
      if (bt <= 0 || l >= el.width || t >= el.height) continue;
      if (l < 0 || t < 0 || underPanel(panels, { l, t, r, b: bt })) n++;
    }
    return n;
  };
  const shows = (x: number, y: number, b: Box) => showsWhole(el, panels, { l: x + b.x * z, t: y + b.y * z, r: x + (b.x + b.w) * z, b: y + (b.y + b.h) * z });
  const xs = [...new Set([minX, ...boxes.map((b) => b.x)])].map((left) => L - left * z);
  const ys = [...new Set([minY, ...boxes.map((b) => b.y)])].map((top) => T - top * z);
  if (s) ys.push(Math.min(T - minY * z, T + H / 2 - (s.y + s.h / 2) * z));
  let best = { x: xs[0]!, y: ys[0]!, score: Infinity };
  for (const x of xs)
    for (const y of ys) {
      const score = hidden(x, y) * 1e7 + (s && !shows(x, y, s) ? 1e6 : 0) + (L - x) / z + (T - y) / z - minX - minY;
      if (score < best.score) best = { x, y, score };
    }
  await flow.setViewport({ zoom: z, x: best.x, y: best.y }, { duration });
}

/** The smallest rectangle around the boxes (flow coordinates). */
function boundsOf(boxes: Box[]) {
  return {
    minX: Math.min(...boxes.map((b) => b.x)),
    minY: Math.min(...boxes.map((b) => b.y)),
    maxX: Math.max(...boxes.map((b) => b.x + b.w)),
    maxY: Math.max(...boxes.map((b) => b.y + b.h)),
  };
}

/** The boxes' bounds on the screen at the current view, canvas-local. */
function onScreen(flow: ReactFlowInstance, el: DOMRect, boxes: Box[]): Rect {
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const a = flow.flowToScreenPosition({ x: minX, y: minY });
  const b = flow.flowToScreenPosition({ x: maxX, y: maxY });
  return { l: a.x - el.left, t: a.y - el.top, r: b.x - el.left, b: b.y - el.top };
}

/**
 * Shows the boxes whole, clear of the panels, when they are not already (or always): centred in the
 * free part of the canvas at the same zoom (or `zoom`); where that part is too small for them there,
 * zoomed out until they fit, but not below READABLE_ZOOM (beside the preview at 1024 px a node at
 * 100 % is wider than the room between the palette and the properties).
 */
export function reveal(flow: ReactFlowInstance, boxes: Box[], zoom?: number, always = false) {
  const cover = canvasCover();
  if (!boxes.length || !cover) return;
  const { el, panels } = cover;
  const f = freeRect(el, panels);
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const wanted = zoom ?? flow.getZoom();
  if (!always && wanted === flow.getZoom() && showsWhole(el, panels, onScreen(flow, el, boxes))) return;
  const margin = 8;
  const fits = Math.min((f.r - f.l - 2 * margin) / (maxX - minX || 1), (f.b - f.t - 2 * margin) / (maxY - minY || 1));
  const z = fits < wanted ? Math.max(fits, Math.min(wanted, READABLE_ZOOM)) : wanted;
  // centre them in the free part, placed from the canvas as measured now: React Flow's own size lags
  // a canvas that has just changed (the preview opened)
  const x = (f.l + f.r) / 2 - ((minX + maxX) / 2) * z;
  const y = (f.t + f.b) / 2 - ((minY + maxY) / 2) * z;
  void flow.setViewport({ zoom: z, x, y }, { duration: always ? 0 : 200 });
}

/** How far to move [lo, hi] to bring it inside [from + margin, to - margin], as little as it takes. */
const shift = (lo: number, hi: number, from: number, to: number, margin: number) => (hi > to - margin ? to - margin - hi : 0) || (lo < from + margin ? from + margin - lo : 0);

/** Pans (same zoom) as little as it takes to bring the on-screen rectangle inside the free part. */
function panInto(flow: ReactFlowInstance, f: Rect, a: Rect, margin: number) {
  const dx = shift(a.l, a.r, f.l, f.r, margin);
  const dy = shift(a.t, a.b, f.t, f.b, margin);
  if (!dx && !dy) return;
  const v = flow.getViewport();
  void flow.setViewport({ ...v, x: v.x + dx, y: v.y + dy }, { duration: 200 });
}

/**
 * Keeps the selected node whole and under no panel, and its neighbours (the nodes it links with)
 * under none either: the properties panel that opens for a node, a panel that folds, a preview that
 * narrows the canvas or a window made smaller must not hide it or where it leads (docs/editor.md
 * "Layout"). When something is hidden, the view shows the node and, nearest first, the neighbours
 * that fit with it in the free part at this zoom or, zoomed out, at READABLE_ZOOM (never below the
 * zoom it has, never in): zoomed out only as far as those need, about the node's centre, then
 * panned as little as it takes. A node too big for the free part alone is shown by `reveal`.
 */
export function keepClear(flow: ReactFlowInstance, node: Box, neighbours: Box[], margin = 16) {
  const cover = canvasCover();
  if (!cover) return;
  const { el, panels } = cover;
  const at = (boxes: Box[]) => onScreen(flow, el, boxes);
  if (showsWhole(el, panels, at([node])) && !neighbours.some((b) => underPanel(panels, at([b])))) return;
  const f = freeRect(el, panels);
  /** The largest zoom at which the boxes fit the free part with the margin. */
  const fitZoom = (boxes: Box[]) => {
    const { minX, minY, maxX, maxY } = boundsOf(boxes);
    return Math.min((f.r - f.l - 2 * margin) / (maxX - minX || 1), (f.b - f.t - 2 * margin) / (maxY - minY || 1));
  };
  const zoom = flow.getZoom();
  if (fitZoom([node]) < zoom) return reveal(flow, [node]);
  const floor = Math.min(zoom, READABLE_ZOOM);
  const far = (b: Box) => Math.hypot(b.x + b.w / 2 - node.x - node.w / 2, b.y + b.h / 2 - node.y - node.h / 2);
  const shown = [node];
  for (const b of [...neighbours].sort((p, q) => far(p) - far(q))) if (fitZoom([...shown, b]) >= floor) shown.push(b);
  const z = Math.min(zoom, fitZoom(shown));
  // the node's centre stays where it is on the screen as the view zooms out
  const c = at([node]);
  const x = (c.l + c.r) / 2 - (node.x + node.w / 2) * z;
  const y = (c.t + c.b) / 2 - (node.y + node.h / 2) * z;
  const { minX, minY, maxX, maxY } = boundsOf(shown);
  const a = { l: x + minX * z, t: y + minY * z, r: x + maxX * z, b: y + maxY * z };
  const dx = shift(a.l, a.r, f.l, f.r, margin);
  const dy = shift(a.t, a.b, f.t, f.b, margin);
  if (z !== zoom || dx || dy) void flow.setViewport({ zoom: z, x: x + dx, y: y + dy }, { duration: 200 });
}

/** Whether the canvas shows the box whole and under no floating panel. */
export function showsClear(flow: ReactFlowInstance, box: Box): boolean {
  const cover = canvasCover();
  return !!cover && showsWhole(cover.el, cover.panels, onScreen(flow, cover.el, [box]));
}

/**
 * Pans as little as it takes to bring the boxes clear of the panels with a margin, when a panel or
 * the canvas's edge hides them: a node dropped by hand stays where it was let go among the others,
 * but not under the properties panel that opens for it (its drop point may be where the panel then
 * appears).
 */
export function nudgeIntoView(flow: ReactFlowInstance, boxes: Box[], margin = 16) {
  const cover = canvasCover();
  if (!boxes.length || !cover) return;
  const { el, panels } = cover;
  const a = onScreen(flow, el, boxes);
  if (showsWhole(el, panels, a)) return;
  panInto(flow, freeRect(el, panels), a, margin);
}
