// Document edits behind the editor's commands: nodes (add, delete, duplicate, paste) and sheets
// (add, rename, duplicate, delete, reorder). Pure: each returns the next document.
import { kindOf } from "./catalogue";
import type { NewNodeWords } from "./i18n";
import { dropTargets, newId, remapTargets, slotsOf, withTarget, type Doc, type SNode, type Sheet } from "./document";
import { mapNodes } from "./store";

/** A node as the palette adds it: the type's default data, its texts in `words`' language. */
export function makeNode(type: string, position: { x: number; y: number }, words?: NewNodeWords): SNode {
  return { id: newId(type.replace(/_/g, "")), type, position, data: kindOf(type)?.defaults(words) ?? {} };
}

export function addNode(doc: Doc, sheetId: string, node: SNode, from?: { source: string; handle: string }): Doc {
  let next: Doc = { ...doc, sheets: doc.sheets.map((s) => (s.id === sheetId ? { ...s, nodes: [...s.nodes, node] } : s)) };
  if (from) next = mapNodes(next, (n) => (n.id === from.source ? withTarget(n, from.handle, node.id) : n));
  return next;
}

/**
 * Puts a new node on the transition `from` → `target`: `from` now leads to the node, and the node's
 * first step slot ("next", else its first slot) leads on to `target`.
 */
export function insertNode(doc: Doc, sheetId: string, node: SNode, from: { source: string; handle: string }, target: string): Doc {
  const slots = slotsOf(node);
  const out = slots.find((s) => s.kind === "auto") ?? slots[0];
  return addNode(doc, sheetId, out ? withTarget(node, out.handle, target) : node, from);
}

export function deleteNodes(doc: Doc, ids: Set<string>): Doc {
  if (ids.size === 0) return doc;
  const sheets = doc.sheets.map((s) => (s.nodes.some((n) => ids.has(n.id)) ? { ...s, nodes: s.nodes.filter((n) => !ids.has(n.id)) } : s));
  return mapNodes({ ...doc, sheets }, (n) => dropTargets(n, ids));
}

/** Copies of `nodes` with fresh ids; transitions between copied nodes follow the copies. */
export function cloneNodes(nodes: SNode[], offset: { x: number; y: number }, taken: Set<string>): SNode[] {
  const map = new Map<string, string>();
  for (const n of nodes) {
    let id = newId(n.type.replace(/_/g, ""));
    while (taken.has(id)) id = newId(n.type.replace(/_/g, ""));
    map.set(n.id, id);
  }
  return nodes.map((n) => {
    const copy: SNode = structuredClone(n);
    copy.id = map.get(n.id)!;
    const p = n.position ?? { x: 0, y: 0 };
    copy.position = { x: p.x + offset.x, y: p.y + offset.y };
    return remapTargets(copy, map);
  });
}

export const allIds = (doc: Doc) => new Set(doc.sheets.flatMap((s) => s.nodes.map((n) => n.id)));

export function pasteNodes(doc: Doc, sheetId: string, nodes: SNode[], offset: { x: number; y: number }): { doc: Doc; ids: string[] } {
  const copies = cloneNodes(nodes, offset, allIds(doc));
  return { doc: { ...doc, sheets: doc.sheets.map((s) => (s.id === sheetId ? { ...s, nodes: [...s.nodes, ...copies] } : s)) }, ids: copies.map((n) => n.id) };
}

/** Reads nodes from clipboard text: a list of nodes, `{ nodes }`, or a whole document. */
export function nodesFromClipboard(text: string): SNode[] | null {
  let v: any;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(v) ? v : Array.isArray(v?.nodes) ? v.nodes : Array.isArray(v?.sheets) ? v.sheets.flatMap((s: Sheet) => s.nodes ?? []) : null;
  if (!list) return null;
  const ok = list.filter((n: any) => n && typeof n === "object" && typeof n.id === "string" && typeof n.type === "string");
  return ok.length ? ok : null;
}

export const CLIPBOARD_KIND = "botloom/nodes";
export const clipboardText = (nodes: SNode[]) => JSON.stringify({ kind: CLIPBOARD_KIND, nodes });

export function addSheet(doc: Doc, name: string): { doc: Doc; id: string } {
  const id = newId("sheet");
  return { doc: { ...doc, sheets: [...doc.sheets, { id, name, nodes: [], edges: [] }] }, id };
}

export function renameSheet(doc: Doc, id: string, name: string): Doc {
  return { ...doc, sheets: doc.sheets.map((s) => (s.id === id ? { ...s, name } : s)) };
}

export function duplicateSheet(doc: Doc, id: string, name: string): { doc: Doc; id: string } {
  const src = doc.sheets.find((s) => s.id === id);
  if (!src) return { doc, id };
  const nodes = cloneNodes(src.nodes, { x: 0, y: 0 }, allIds(doc));
  const copy: Sheet = { ...structuredClone(src), id: newId("sheet"), name, nodes, edges: [] };
  delete copy.connections;
  const at = doc.sheets.indexOf(src) + 1;
  return { doc: { ...doc, sheets: [...doc.sheets.slice(0, at), copy, ...doc.sheets.slice(at)] }, id: copy.id };
}

export function deleteSheet(doc: Doc, id: string): Doc {
  const sheet = doc.sheets.find((s) => s.id === id);
  if (!sheet || doc.sheets.length === 1) return doc;
  const gone = new Set(sheet.nodes.map((n) => n.id));
  return mapNodes({ ...doc, sheets: doc.sheets.filter((s) => s.id !== id) }, (n) => dropTargets(n, gone));
}

export function moveSheet(doc: Doc, id: string, delta: -1 | 1): Doc {
  const i = doc.sheets.findIndex((s) => s.id === id);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= doc.sheets.length) return doc;
  const sheets = [...doc.sheets];
  [sheets[i], sheets[j]] = [sheets[j]!, sheets[i]!];
  return { ...doc, sheets };
}
