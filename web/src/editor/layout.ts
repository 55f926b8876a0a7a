// Auto-layout of a sheet with elkjs (layered, left to right, following the transitions), and the
// check that decides whether an imported sheet needs it (no positions, or nodes piled up).
import ELK from "elkjs/lib/elk.bundled.js";
import { deriveEdges, sheetIndex, type Doc, type Sheet } from "./document";

const elk = new ELK();
const W = 260;
const H = 120;

export async function layoutSheet(doc: Doc, sheetId: string, sizes: Map<string, { width?: number; height?: number }> = new Map()): Promise<Doc> {
  const sheet = doc.sheets.find((s) => s.id === sheetId);
  if (!sheet || sheet.nodes.length === 0) return doc;
  const { local } = deriveEdges(sheet, sheetIndex(doc));
  const graph = await elk.layout({
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

/** True when the sheet's drawing is unusable: nodes without a position, or several on one spot. */
export function needsLayout(sheet: Sheet): boolean {
  if (sheet.nodes.length < 2) return sheet.nodes.some((n) => !validPos(n.position));
  const seen = new Set<string>();
  let piled = 0;
  for (const n of sheet.nodes) {
    if (!validPos(n.position)) return true;
    const key = `${Math.round(n.position!.x / 40)}:${Math.round(n.position!.y / 40)}`;
    if (seen.has(key)) piled++;
    seen.add(key);
  }
  return piled > sheet.nodes.length / 4;
}

const validPos = (p: unknown): boolean => !!p && typeof (p as any).x === "number" && typeof (p as any).y === "number" && Number.isFinite((p as any).x) && Number.isFinite((p as any).y);
