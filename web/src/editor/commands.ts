// The editor's commands on its store, which the actions table (actions.ts) and the clipboard events run.
import { type Doc, type SNode } from "./document";
import { DEFAULT_PERIOD } from "../pages/project/analytics/range";
import type { FunnelOverlay } from "./funnel";
import { layoutSheet, withPositions } from "./layout";
import { clipboardText, deleteNodes, nodesFromClipboard, pasteNodes } from "./ops";
import type { EditorStore } from "./store";
import { canvasAspect } from "./viewport";

/** Kept for browsers that refuse clipboard access: copy and paste still work inside this tab. */
let internalClipboard = "";

export function selectedNodes(store: EditorStore): SNode[] {
  const sel = new Set(store.state.selected);
  return store.state.doc.sheets.flatMap((s) => s.nodes).filter((n) => sel.has(n.id));
}

export function copyText(store: EditorStore): string | null {
  const nodes = selectedNodes(store);
  if (!nodes.length) return null;
  internalClipboard = clipboardText(nodes);
  return internalClipboard;
}

export async function copyToClipboard(store: EditorStore) {
  const text = copyText(store);
  if (text) await navigator.clipboard?.writeText(text).catch(() => undefined);
}

export function pasteText(store: EditorStore, text: string | null | undefined): boolean {
  const nodes = nodesFromClipboard(text || internalClipboard);
  if (!nodes) return false;
  const r = pasteNodes(store.state.doc, store.state.sheetId, nodes, { x: 48, y: 48 });
  store.commit(r.doc, { selected: r.ids });
  return true;
}

export async function pasteFromClipboard(store: EditorStore) {
  const text = await navigator.clipboard?.readText().catch(() => "");
  pasteText(store, text);
}

export function duplicate(store: EditorStore) {
  const nodes = selectedNodes(store);
  if (!nodes.length) return;
  const r = pasteNodes(store.state.doc, store.state.sheetId, nodes, { x: 48, y: 48 });
  store.commit(r.doc, { selected: r.ids });
}

export function removeSelected(store: EditorStore) {
  store.commit(deleteNodes(store.state.doc, new Set(store.state.selected)), { selected: [] });
}

export function selectAll(store: EditorStore) {
  store.select(store.sheet.nodes.map((n) => n.id));
}

/** The overlay's bot and period as last shown: turning it on again shows the same. */
let lastOverlay: Omit<FunnelOverlay, "figures"> = { tokenId: null, period: DEFAULT_PERIOD };

/** The analytics overlay on or off (off = the editor exactly as without it). */
export function toggleAnalytics(store: EditorStore) {
  const cur = store.state.analytics;
  if (cur) lastOverlay = { tokenId: cur.tokenId, period: cur.period };
  store.setAnalytics(cur ? null : { ...lastOverlay, figures: null });
}

export async function autoLayout(store: EditorStore) {
  const before: Doc = store.state.doc;
  const sheetId = store.state.sheetId;
  const laid = await layoutSheet(before, sheetId, store.sizes, canvasAspect());
  // an edit during the layout wins over the layout
  if (store.state.doc !== before) return;
  store.commit(inPlace(before, laid, sheetId));
  store.requestFit();
}

/**
 * The laid-out sheet keeps the drawing's top-left corner (elk starts at its origin): the nodes stay
 * where the user was looking instead of jumping out of view, under the floating palette, until the fit.
 */
function inPlace(before: Doc, laid: Doc, sheetId: string): Doc {
  const corner = (d: Doc) => {
    const ps = (d.sheets.find((s) => s.id === sheetId)?.nodes ?? []).map((n) => n.position).filter((p): p is { x: number; y: number } => !!p && Number.isFinite(p.x) && Number.isFinite(p.y));
    return ps.length ? { x: Math.min(...ps.map((p) => p.x)), y: Math.min(...ps.map((p) => p.y)) } : null;
  };
  const a = corner(before), b = corner(laid);
  if (!a || !b) return laid;
  const dx = a.x - b.x, dy = a.y - b.y;
  const at = new Map((laid.sheets.find((s) => s.id === sheetId)?.nodes ?? []).filter((n) => n.position).map((n) => [n.id, { x: n.position!.x + dx, y: n.position!.y + dy }]));
  return withPositions(laid, sheetId, at);
}
