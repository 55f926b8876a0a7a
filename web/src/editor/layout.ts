// Where nodes lie on a sheet: auto-layout with elkjs (layered, left to right, following the
// transitions, wrapped to the canvas's aspect), the check that decides whether an imported sheet
// needs it, and the rule that no node ever lies on another (docs/editor.md, "Layout").
import type { ELK as Elk } from "elkjs/lib/elk-api";
import { deriveEdges, sheetIndex, type Doc, type Sheet, type SNode } from "./document";

// elkjs is a large bundle: loaded on the first layout, not with the editor.
let elk: Promise<Elk> | null = null;
const loadElk = () => (elk ??= import("elkjs/lib/elk.bundled.js").then((m) => new m.default()));

/** A node card's size before the canvas has measured it (cards are 240 px wide). */
export const CARD = { width: 240, height: 110 };
/** The free space kept between two node boxes. */
export const GAP = 24;

export type Sizes = Map<string, { width?: number; height?: number }>;
export interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export const sizeOf = (sizes: Sizes, id: string) => ({ w: sizes.get(id)?.width ?? CARD.width, h: sizes.get(id)?.height ?? CARD.height });

export function boxesOf(nodes: SNode[], sizes: Sizes): Box[] {
  return nodes.map((n) => {
    const p = validPos(n.position) ? n.position! : { x: 0, y: 0 };
    return { id: n.id, x: p.x, y: p.y, ...sizeOf(sizes, n.id) };
  });
}

/**
 * Lays the sheet out. `aspect` is the canvas's width / height: long chains wrap into rows so the
 * drawing fills the canvas instead of a thin strip.
 */
export async function layoutSheet(doc: Doc, sheetId: string, sizes: Sizes = new Map(), aspect = 1.6): Promise<Doc> {
  const sheet = doc.sheets.find((s) => s.id === sheetId);
  if (!sheet || sheet.nodes.length === 0) return doc;
  const { local } = deriveEdges(sheet, sheetIndex(doc));
  const graph = await (await loadElk()).layout({
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.aspectRatio": String(Math.min(4, Math.max(0.5, aspect))),
      // a short chain reads best in one row; long ones wrap
      "elk.layered.wrapping.strategy": sheet.nodes.length > 15 ? "MULTI_EDGE" : "OFF",
      "elk.spacing.nodeNode": "40",
      "elk.spacing.componentComponent": "60",
      "elk.layered.spacing.nodeNodeBetweenLayers": "80",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
    },
    children: sheet.nodes.map((n) => {
      const s = sizeOf(sizes, n.id);
      return { id: n.id, width: s.w, height: s.h };
    }),
    edges: local.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const at = new Map((graph.children ?? []).map((c) => [c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) }]));
  const laid = sheet.nodes.map((n) => (at.has(n.id) ? { ...n, position: at.get(n.id)! } : n));
  // elk keeps boxes apart already; the pass is the guarantee for sizes it was told wrong
  const moved = separate(boxesOf(laid, sizes));
  const nodes = laid.map((n) => (moved.has(n.id) ? { ...n, position: moved.get(n.id)! } : n));
  return { ...doc, sheets: doc.sheets.map((s) => (s.id === sheetId ? { ...s, nodes } : s)) };
}

const hits = (a: Box, b: Box) => a.x < b.x + b.w + GAP && b.x < a.x + a.w + GAP && a.y < b.y + b.h + GAP && b.y < a.y + a.h + GAP;

/**
 * Moves boxes down until none lies on another (GAP apart). Boxes in `fixed` stay; the others are
 * placed top to bottom, each sliding down below whatever it would cover. Returns the new positions
 * of the boxes that moved only.
 */
export function separate(boxes: Box[], fixed: Set<string> = new Set()): Map<string, { x: number; y: number }> {
  const placed: Box[] = boxes.filter((b) => fixed.has(b.id));
  const loose = boxes.filter((b) => !fixed.has(b.id)).sort((a, b) => a.y - b.y || a.x - b.x);
  const out = new Map<string, { x: number; y: number }>();
  for (const b0 of loose) {
    const b = { ...b0 };
    for (;;) {
      const under = placed.filter((p) => hits(b, p));
      if (!under.length) break;
      b.y = Math.max(...under.map((p) => p.y + p.h + GAP));
    }
    placed.push(b);
    if (b.y !== b0.y) out.set(b.id, { x: b.x, y: Math.round(b.y) });
  }
  return out;
}

/** Applies positions to the nodes of one sheet (the document unchanged when there are none). */
export function withPositions(doc: Doc, sheetId: string, at: Map<string, { x: number; y: number }>): Doc {
  if (!at.size) return doc;
  return { ...doc, sheets: doc.sheets.map((s) => (s.id === sheetId ? { ...s, nodes: s.nodes.map((n) => (at.has(n.id) ? { ...n, position: at.get(n.id)! } : n)) } : s)) };
}

/**
 * True when the sheet's drawing is unusable: nodes without a position, or more than a tenth of the
 * nodes overlapping another. A sweep over x keeps it near-linear. (A few overlaps are only nudged
 * apart by separate(); a pile is laid out anew.)
 */
export function needsLayout(sheet: Sheet, sizes: Sizes = new Map()): boolean {
  if (sheet.nodes.some((n) => !validPos(n.position))) return true;
  const boxes = boxesOf(sheet.nodes, sizes).sort((a, b) => a.x - b.x);
  let overlapping = 0;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length && boxes[j]!.x < boxes[i]!.x + boxes[i]!.w; j++) {
      if (boxes[j]!.y < boxes[i]!.y + boxes[i]!.h && boxes[i]!.y < boxes[j]!.y + boxes[j]!.h) {
        overlapping++;
        break;
      }
    }
  }
  return overlapping > Math.max(0, sheet.nodes.length / 10);
}

const validPos = (p: unknown): boolean => !!p && typeof (p as any).x === "number" && typeof (p as any).y === "number" && Number.isFinite((p as any).x) && Number.isFinite((p as any).y);
