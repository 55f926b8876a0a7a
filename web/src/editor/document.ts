// The scenario document as the editor holds it, and the one rule of the format the canvas rests
// on: transitions live in node data; edges are derived from it. Every function here is pure and
// returns new objects only along the changed path, so unknown fields everywhere survive untouched.
import { setSlot, slotsOfNode, type Slot } from "../../../src/scenario/slots";

export type Data = Record<string, any>;
export interface SNode {
  id: string;
  type: string;
  position?: { x: number; y: number };
  data?: Data;
  [k: string]: unknown;
}
export interface Sheet {
  id: string;
  name?: string;
  nodes: SNode[];
  edges?: unknown[];
  connections?: unknown[];
  [k: string]: unknown;
}
export interface Doc {
  sheets: Sheet[];
  activeSheetId?: string;
  [k: string]: unknown;
}

/** A transition slot of a node: which field holds the target, as a handle id of the canvas. */
export type { Slot };

const isObj = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);

/** Types that send a message (the properties panel shows the message form for them). */
export const MESSAGE_LIKE = new Set(["message", "start", "command", "photo", "video", "audio", "document", "sticker", "voice", "animation", "location", "contact"]);

/** Loads whatever the server holds: the document, the legacy flat form, or json_data. */
export function normalizeDoc(raw: unknown): Doc {
  let v: unknown = raw;
  if (isObj(v) && "json_data" in v) v = typeof v.json_data === "string" ? JSON.parse(v.json_data) : v.json_data;
  if (!isObj(v)) return { sheets: [{ id: "sheet-1", name: "Main", nodes: [], edges: [] }] };
  if (Array.isArray(v.sheets)) {
    const sheets = (v.sheets as Sheet[]).map((s) => (Array.isArray(s.nodes) ? s : { ...s, nodes: [] }));
    return sheets.length ? ({ ...v, sheets } as Doc) : { ...v, sheets: [{ id: "sheet-1", name: "Main", nodes: [], edges: [] }] };
  }
  const { nodes, connections, edges, ...rest } = v as Data;
  return { ...rest, sheets: [{ id: "sheet-1", name: "Main", nodes: Array.isArray(nodes) ? nodes : [], edges: Array.isArray(edges) ? edges : Array.isArray(connections) ? connections : [] }] };
}

/**
 * Every transition slot of a node, in the order the node draws its handles: the server's one slot
 * table (src/scenario/slots.ts, shared pure code), so the canvas draws what the bot follows.
 */
export const slotsOf = (n: SNode): Slot[] => slotsOfNode(n.type, n.data);

/** Writes one transition into node data (an empty target clears it); an unknown handle changes nothing. */
export function withTarget(n: SNode, handle: string, target: string): SNode {
  const data = setSlot(n.type, n.data, handle, target);
  return data ? { ...n, data } : n;
}

export interface DerivedEdge {
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
  kind: Slot["kind"];
}

/** The edges of a sheet, from node data. Targets on other sheets are returned separately (portals). */
export function deriveEdges(sheet: Sheet, sheetOf: Map<string, string>): { local: DerivedEdge[]; portals: DerivedEdge[] } {
  const local: DerivedEdge[] = [];
  const portals: DerivedEdge[] = [];
  for (const n of sheet.nodes) {
    for (const s of slotsOf(n)) {
      if (!s.target) continue;
      const e = { id: `${n.id}|${s.handle}`, source: n.id, sourceHandle: s.handle, target: s.target, kind: s.kind };
      const where = sheetOf.get(s.target);
      if (where === sheet.id) local.push(e);
      else if (where) portals.push(e);
    }
  }
  return { local, portals };
}

/** node id → sheet id over the whole document */
export function sheetIndex(doc: Doc): Map<string, string> {
  const m = new Map<string, string>();
  for (const s of doc.sheets) for (const n of s.nodes) m.set(n.id, s.id);
  return m;
}

/** The drawing-only `edges` as stored, rebuilt from node data (under the key the sheet already uses). */
export function storedEdges(sheet: Sheet, sheetOf: Map<string, string>): Sheet {
  const { local } = deriveEdges(sheet, sheetOf);
  const edges = local.map((e) => ({ id: `e-${e.source}-${e.sourceHandle}`, source: e.source, target: e.target, sourceHandle: e.sourceHandle }));
  return "connections" in sheet && !("edges" in sheet) ? { ...sheet, connections: edges } : { ...sheet, edges };
}

/** Clears every transition that points at one of `ids` (nodes being deleted). */
export function dropTargets(n: SNode, ids: Set<string>): SNode {
  let out = n;
  for (const s of slotsOf(n)) if (s.target && ids.has(s.target)) out = withTarget(out, s.handle, "");
  return out;
}

/** Rewrites targets through `map` (old id → new id) for pasted copies; targets outside the copy are kept. */
export function remapTargets(n: SNode, map: Map<string, string>): SNode {
  let out = n;
  for (const s of slotsOf(n)) {
    const to = map.get(s.target);
    if (to) out = withTarget(out, s.handle, to);
  }
  return out;
}

/** Variables the scenario sets, for the variable picker. */
export function variablesOf(doc: Doc): string[] {
  const names = new Set(["user_id", "first_name", "last_name", "username", "user_name", "message_text", "callback_data", "button_text", "date", "time"]);
  const add = (v: unknown) => typeof v === "string" && v.trim() && names.add(v.trim());
  for (const s of doc.sheets)
    for (const n of s.nodes) {
      const d = n.data ?? {};
      for (const k of ["inputVariable", "photoInputVariable", "videoInputVariable", "audioInputVariable", "documentInputVariable", "httpRequestResponseVariable", "httpRequestStatusVariable", "callbackDataSaveAs", "multiSelectVariable"]) add(d[k]);
      if (Array.isArray(d.assignments)) for (const a of d.assignments) if (isObj(a)) add(a.variable);
    }
  return [...names];
}

/** A node's first meaningful text (what a person wrote in it), or "" when it has none. */
export function textOf(n: SNode): string {
  const d = n.data ?? {};
  const candidates = [d.command, d.messageText, d.inputPrompt, Array.isArray(d.textSynonyms) ? d.textSynonyms[0] : undefined, d.variable, d.httpRequestUrl, d.inputVariable];
  const s = candidates.find((c) => typeof c === "string" && c.trim() !== "") as string | undefined;
  return s ? s.trim().replace(/\s+/g, " ").slice(0, 40) : "";
}

/**
 * A short name of a node for lists and pickers: its kind and first meaningful text (the id only
 * when it has no text). `kind` turns a type into the words the screen uses (editor.types.*).
 */
export function labelOf(n: SNode, kind: (type: string) => string = (type) => type): string {
  return `${kind(n.type)}: ${textOf(n) || n.id}`;
}

let seq = 0;
export const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
