// Node-level edits of a scenario document (add, update, delete, connect), for clients that should
// not resend a whole document (the MCP tools). Transitions live in node data (docs/scenario.md), so
// connecting writes the node's data; an edge is added beside it for drawing only. Functions take
// a document and return a new one; the input is never changed.
import { EditError } from "../errors";
import { isObject } from "../lib/values";
import { kindsOf, setSlot, slotOfKind, targetsOfNode, type SlotKind } from "./slots";


type Json = Record<string, unknown>;
interface Node extends Json {
  id: string;
  type: string;
  data: Json;
  position?: { x: number; y: number };
}
interface Sheet extends Json {
  id: string;
  nodes: Node[];
}
export type Doc = Json & { sheets: Sheet[] };

/** Where a connection is written in the source node's data: a kind of slot (slots.ts). */
export const CONNECT_KINDS = ["auto", "button", "branch", "default", "input", "keyboard"] as const satisfies readonly SlotKind[];
export type ConnectVia = (typeof CONNECT_KINDS)[number];

const clone = <T>(v: T): T => structuredClone(v);

function sheetsOf(doc: Doc): Sheet[] {
  if (!Array.isArray(doc.sheets)) throw new EditError('The scenario has no "sheets" array');
  return doc.sheets;
}

function locate(doc: Doc, nodeId: string): { sheet: Sheet; node: Node; index: number } {
  for (const sheet of sheetsOf(doc)) {
    const nodes = Array.isArray(sheet.nodes) ? sheet.nodes : [];
    const index = nodes.findIndex((n) => isObject(n) && n.id === nodeId);
    if (index >= 0) return { sheet, node: nodes[index]!, index };
  }
  throw new EditError(`No node with id "${nodeId}" in the scenario`);
}

function allIds(doc: Doc): Set<string> {
  const ids = new Set<string>();
  for (const sheet of sheetsOf(doc)) for (const n of Array.isArray(sheet.nodes) ? sheet.nodes : []) if (isObject(n) && typeof n.id === "string") ids.add(n.id);
  return ids;
}

function freshId(doc: Doc, type: string): string {
  const ids = allIds(doc);
  const base = type.replace(/[^A-Za-z0-9]+/g, "_").slice(0, 24) || "node";
  for (let i = 1; ; i++) if (!ids.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** The edges array of a sheet under the name it already uses (`edges`, or the `connections` alias). */
function edgesOf(sheet: Sheet): Json[] {
  const key = Array.isArray(sheet.connections) && !Array.isArray(sheet.edges) ? "connections" : "edges";
  if (!Array.isArray(sheet[key])) sheet[key] = [];
  return sheet[key] as Json[];
}

export interface AddNodeInput {
  sheetId?: string;
  id?: string;
  type: string;
  data?: Json;
  position?: { x: number; y: number };
}

export function addNode(input: Doc, add: AddNodeInput): { doc: Doc; node: Node } {
  const doc = clone(input);
  const sheets = sheetsOf(doc);
  if (sheets.length === 0) sheets.push({ id: "sheet-1", name: "Main", nodes: [], edges: [] });
  const sheet = add.sheetId === undefined ? sheets[0]! : sheets.find((s) => s.id === add.sheetId);
  if (!sheet) throw new EditError(`No sheet with id "${add.sheetId}"; sheets: ${sheets.map((s) => s.id).join(", ")}`);
  if (!Array.isArray(sheet.nodes)) sheet.nodes = [];
  const id = add.id ?? freshId(doc, add.type);
  if (allIds(doc).has(id)) throw new EditError(`A node with id "${id}" already exists`);
  // Without a position: right of the rightmost node, so an agent's nodes do not pile up.
  const xs = sheet.nodes.map((n) => (isObject(n.position) && typeof n.position.x === "number" ? n.position.x : 0));
  const position = add.position ?? { x: xs.length ? Math.max(...xs) + 320 : 0, y: 0 };
  const node: Node = { id, type: add.type, position, data: clone(add.data ?? {}) };
  sheet.nodes.push(node);
  return { doc, node: clone(node) };
}

export interface UpdateNodeInput {
  /** Fields merged into the node's data (a field set to null is removed). */
  data?: Json;
  /** Replace the whole data object instead of merging. */
  replaceData?: boolean;
  type?: string;
  position?: { x: number; y: number };
}

export function updateNode(input: Doc, nodeId: string, patch: UpdateNodeInput): { doc: Doc; node: Node } {
  const doc = clone(input);
  const { node } = locate(doc, nodeId);
  if (patch.type !== undefined) node.type = patch.type;
  if (patch.position !== undefined) node.position = patch.position;
  if (patch.data !== undefined) {
    const base: Json = patch.replaceData || !isObject(node.data) ? {} : node.data;
    for (const [k, v] of Object.entries(clone(patch.data))) {
      if (v === null && !patch.replaceData) delete base[k];
      else base[k] = v;
    }
    node.data = base;
  }
  return { doc, node: clone(node) };
}

/** Clears every reference to `target` in a node's data (the slot table, slots.ts); returns where, in words. */
function clearRefs(node: Node, target: string): string[] {
  const cleared: string[] = [];
  for (const slot of targetsOfNode(node.type, node.data)) {
    if (slot.target !== target) continue;
    const data = setSlot(node.type, node.data, slot.handle, "");
    if (!data) continue;
    node.data = data;
    cleared.push(`${node.id}.${slot.path}`);
  }
  return cleared;
}

export function deleteNode(input: Doc, nodeId: string): { doc: Doc; clearedReferences: string[] } {
  const doc = clone(input);
  const { sheet, index } = locate(doc, nodeId);
  sheet.nodes.splice(index, 1);
  const cleared: string[] = [];
  for (const s of sheetsOf(doc)) {
    for (const n of Array.isArray(s.nodes) ? s.nodes : []) if (isObject(n)) cleared.push(...clearRefs(n, nodeId));
    const edges = edgesOf(s);
    const kept = edges.filter((e) => e.source !== nodeId && e.target !== nodeId);
    edges.splice(0, edges.length, ...kept);
  }
  return { doc, clearedReferences: cleared };
}

export interface ConnectInput {
  sourceId: string;
  targetId: string;
  via?: ConnectVia;
  /** For via "button": the button's id or its text. */
  button?: string;
  /** For via "branch": the branch's id or its label. */
  branch?: string;
}

export function connectNodes(input: Doc, c: ConnectInput): { doc: Doc; wrote: string } {
  const doc = clone(input);
  const { sheet, node } = locate(doc, c.sourceId);
  locate(doc, c.targetId);
  const data = isObject(node.data) ? node.data : {};
  const via = c.via ?? "auto";
  // Where a node of this type keeps a connection of this kind: the one slot table (slots.ts).
  const slot = slotOfKind(node.type, via);
  if (!slot) {
    if (!(CONNECT_KINDS as readonly string[]).includes(via)) throw new EditError(`Unknown connection kind "${String(via)}"`);
    throw new EditError(`Node "${node.id}" (${node.type}) takes no "${via}" connection; it takes: ${kindsOf(node.type).join(", ") || "none"}`);
  }
  let handle: string;
  let wrote: string;
  if (slot.form === "field") {
    handle = slot.handle;
    wrote = slot.field;
  } else {
    const key = slot.noun === "button" ? c.button : c.branch;
    if (!key) throw new EditError(`Name the ${slot.noun} to connect (its id or ${slot.noun === "button" ? "text" : "label"})`);
    const list: unknown[] = Array.isArray(data[slot.list]) ? (data[slot.list] as unknown[]) : [];
    const match = (test: (x: Json) => boolean) => list.findIndex((x) => isObject(x) && test(x));
    let index = match((x) => x.id === key);
    if (index < 0) index = match((x) => x.text === key || x.label === key);
    if (index < 0) throw new EditError(`Node "${node.id}" has no ${slot.noun} "${key}"`);
    const item = list[index] as Json;
    handle = `${slot.prefix}:${String(item.id ?? index)}`;
    wrote = `${slot.list}[${String(item.id ?? item.text ?? item.label)}].target`;
  }
  node.data = setSlot(node.type, data, handle, c.targetId)!;
  // Drawing only: one edge per source handle, replaced when the connection changes.
  const edges = edgesOf(sheet);
  const sourceHandle = handle;
  const kept = edges.filter((e) => !(e.source === c.sourceId && (e.sourceHandle ?? null) === sourceHandle));
  kept.push({ id: `e_${c.sourceId}_${sourceHandle}_${c.targetId}`.slice(0, 200), source: c.sourceId, target: c.targetId, sourceHandle });
  edges.splice(0, edges.length, ...kept);
  return { doc, wrote };
}
