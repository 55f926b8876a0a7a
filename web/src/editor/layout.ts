// Auto-layout of a sheet with elkjs (layered, left to right, following the transitions), and the
// check that decides whether an imported sheet needs it (no positions, or nodes piled up).
import type { ELK as Elk } from "elkjs/lib/elk-api";
import { deriveEdges, sheetIndex, type Doc, type Sheet } from "./document";

// elkjs is a large bundle: loaded on the first layout, not with the editor.
let elk: Promise<Elk> | null = null;
const loadElk = () => (elk ??= import("elkjs/lib/elk.bundled.js").then((m) => new m.default()));
const W = 260;
const H = 120;

export async function layoutSheet(doc: Doc, sheetId: string, sizes: Map<string, { width?: number; height?: number }> = new Map()): Promise<Doc> {
  const sheet = doc.sheets.find((s) => s.id === sheetId);
  if (!sheet || sheet.nodes.length === 0) return doc;
  const { local } = deriveEdges(sheet, sheetIndex(doc));
  const graph = await (await loadElk()).layout({
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.spacing.nodeNode": "40",
      "elk.layered.spacing.nodeNodeBetweenLayers": "80",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
    },
    children: sheet.nodes.map((n) => ({ id: n.id, width: sizes.get(n.id)?.width ?? W, height: sizes.get(n.id)?.height ?? H })),
    edges: local.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const at = new Map((graph.children ?? []).map((c) => [c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) }]));
  const nodes = sheet.nodes.map((n) => (at.has(n.id) ? { ...n, position: at.get(n.id)! } : n));
  return { ...doc, sheets: doc.sheets.map((s) => (s.id === sheetId ? { ...s, nodes } : s)) };
}

/**
 * True when the sheet's drawing is unusable: nodes without a position, or more than a tenth of the
 * nodes overlapping another (node cards are about 240×90). A sweep over x keeps it near-linear.
 */
export function needsLayout(sheet: Sheet): boolean {
  if (sheet.nodes.some((n) => !validPos(n.position))) return true;
  const pts = sheet.nodes.map((n) => n.position!).sort((a, b) => a.x - b.x);
  let overlapping = 0;
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length && pts[j]!.x - pts[i]!.x < CARD_W; j++) {
      if (Math.abs(pts[j]!.y - pts[i]!.y) < CARD_H) {
        overlapping++;
        break;
      }
    }
  }
  return overlapping > Math.max(0, sheet.nodes.length / 10);
}

const CARD_W = 240;
const CARD_H = 90;
const validPos = (p: unknown): boolean => !!p && typeof (p as any).x === "number" && typeof (p as any).y === "number" && Number.isFinite((p as any).x) && Number.isFinite((p as any).y);
