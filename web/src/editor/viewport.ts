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

/**
 * The part of the canvas not covered by the floating panels (screen pixels): the palette, the
 * properties, and the warnings box over the top middle (a node under it shows no header to click).
 */
export function visibleRegion(): { left: number; top: number; right: number; bottom: number } | null {
  const el = document.querySelector(".ed-canvas")?.getBoundingClientRect();
  if (!el || el.width === 0) return null;
  const v = { left: el.left, top: el.top, right: el.right, bottom: el.bottom };
  for (const o of document.querySelectorAll(".ed-center .ed-palette, .ed-center .ed-props-dock, .ed-center .ed-warnbox")) {
    const r = o.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.width < el.width / 2 && r.left - el.left < 24) v.left = Math.max(v.left, r.right);
    else if (r.width < el.width / 2 && el.right - r.right < 24) v.right = Math.min(v.right, r.left);
    else if (r.top > el.top + el.height / 3) v.bottom = Math.min(v.bottom, r.top);
    else if (r.bottom < el.top + el.height / 2) v.top = Math.max(v.top, r.bottom);
  }
  return v;
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
  const el = document.querySelector(".ed-canvas")?.getBoundingClientRect();
  const v = visibleRegion();
  if (!nodes.length || !el || !v) return;
  const boxes = boxesOf(nodes, store.sizes);
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const pad = 32;
  // the region in canvas-local pixels
  const L = v.left - el.left + pad, T = v.top - el.top + pad, W = Math.max(100, v.right - v.left - 2 * pad), H = Math.max(100, v.bottom - v.top - 2 * pad);
  const zoom = Math.min(1.2, W / (maxX - minX || 1), H / (maxY - minY || 1));
  if (zoom >= READABLE_ZOOM) {
    await flow.setViewport({ zoom, x: L + (W - (maxX - minX) * zoom) / 2 - minX * zoom, y: T + (H - (maxY - minY) * zoom) / 2 - minY * zoom }, { duration });
    return;
  }
  const z = READABLE_ZOOM;
  const start = nodes.find((n) => /trigger$|^start$|^command$/.test(n.type));
  const s = start ? boxes.find((b) => b.id === start.id) : undefined;
  // the panels over the canvas, canvas-local
  const panels = [...document.querySelectorAll(".ed-center .ed-palette, .ed-center .ed-props-dock, .ed-center .ed-warnbox, .ed-center .react-flow__minimap, .ed-center .react-flow__controls")]
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0)
    .map((r) => ({ l: r.left - el.left, t: r.top - el.top, r: r.right - el.left, b: r.bottom - el.top }));
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
      if (l < 0 || t < 0 || panels.some((p) => l < p.r && p.l < r && t < p.b && p.t < bt)) n++;
    }
    return n;
  };
  const shows = (x: number, y: number, b: Box) => x + b.x * z >= 0 && y + b.y * z >= 0 && x + (b.x + b.w) * z <= el.width && y + (b.y + b.h) * z <= el.height && hidden(x, y, b) === 0;
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

/** Pans (at the same zoom, or `zoom`) so that the boxes are in view, when they are not already (or always). */
export function reveal(flow: ReactFlowInstance, boxes: Box[], zoom?: number, always = false) {
  const el = visibleRegion();
  if (!boxes.length || !el) return;
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const a = flow.flowToScreenPosition({ x: minX, y: minY });
  const b = flow.flowToScreenPosition({ x: maxX, y: maxY });
  if (!always && a.x >= el.left && a.y >= el.top && b.x <= el.right && b.y <= el.bottom) return;
  // centre them in the visible region: shift the centre by the region's offset in the canvas
  const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
  const z = zoom ?? flow.getZoom();
  const dx = ((el.left + el.right) / 2 - (c.left + c.right) / 2) / z;
  const dy = ((el.top + el.bottom) / 2 - (c.top + c.bottom) / 2) / z;
  void flow.setCenter((minX + maxX) / 2 - dx, (minY + maxY) / 2 - dy, { zoom: z, duration: always ? 0 : 200 });
}

/**
 * Pans as little as it takes to bring the boxes inside the visible region with a margin: a node
 * dropped by hand stays where it was let go among the others, but not under the properties panel
 * that opens for it (its drop point may be where the panel then appears).
 */
export function nudgeIntoView(flow: ReactFlowInstance, boxes: Box[], margin = 16) {
  const el = visibleRegion();
  if (!boxes.length || !el) return;
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const a = flow.flowToScreenPosition({ x: minX, y: minY });
  const b = flow.flowToScreenPosition({ x: maxX, y: maxY });
  const shift = (lo: number, hi: number, from: number, to: number) => (hi > to - margin ? to - margin - hi : 0) || (lo < from + margin ? from + margin - lo : 0);
  const dx = shift(a.x, b.x, el.left, el.right);
  const dy = shift(a.y, b.y, el.top, el.bottom);
  if (!dx && !dy) return;
  const v = flow.getViewport();
  void flow.setViewport({ ...v, x: v.x + dx, y: v.y + dy }, { duration: 200 });
}
