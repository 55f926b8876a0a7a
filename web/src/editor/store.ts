// The editor's one store (React Flow's "controlled state in one store"): the document, the open
// sheet, the selection and the undo history. Components read slices with useEditor(selector).
import { useSyncExternalStore } from "react";
import { deriveEdges, sheetIndex, storedEdges, type Doc, type SNode, type Sheet } from "./document";
import type { FunnelOverlay } from "./funnel";

export const HISTORY_LIMIT = 100;
/** Edits of one field closer together than this are one undo step: a paragraph typed undoes whole. */
export const MERGE_MS = 1000;

export interface EditorState {
  doc: Doc;
  sheetId: string;
  selected: string[];
  past: Doc[];
  future: Doc[];
  /** the document as last loaded or saved (dirty = doc !== saved) */
  saved: Doc;
  /** a request to centre the view on a node (search, warnings, preview) */
  focus: { nodeId: string; at: number } | null;
  /** a request to fit the view to the sheet (after auto-layout, or the Fit view button), counted up per request */
  fit: number;
  /** the analytics overlay (funnel.ts): null = off, the editor exactly as without it */
  analytics: FunnelOverlay | null;
}

type Listener = () => void;

export class EditorStore {
  state: EditorState;
  private listeners = new Set<Listener>();
  private dragBase: Doc | null = null;
  /** the last step, while typing may still add to it (commit's `mergeKey`) */
  private typing: { key: string; at: number } | null = null;
  /** node sizes as the canvas measured them (flow units): layout and placement read them */
  readonly sizes = new Map<string, { width?: number; height?: number }>();
  /** nodes the user dropped where they wanted them: the view does not move to them */
  readonly placedByHand = new Set<string>();
  /** a document replaceDoc made → the last one the user made that it grew from */
  private readonly editedFrom = new WeakMap<Doc, Doc>();

  constructor(doc: Doc) {
    this.state = { doc, sheetId: doc.activeSheetId && doc.sheets.some((s) => s.id === doc.activeSheetId) ? doc.activeSheetId : doc.sheets[0]!.id, selected: [], past: [], future: [], saved: doc, focus: null, fit: 0, analytics: null };
  }

  subscribe = (l: Listener) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };

  private set(patch: Partial<EditorState>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  get sheet(): Sheet {
    return this.state.doc.sheets.find((s) => s.id === this.state.sheetId) ?? this.state.doc.sheets[0]!;
  }

  /**
   * One undoable step. Steps with the same `mergeKey` (typing into one field of one node), each
   * within MERGE_MS of the one before and with nothing else between (no other edit, undo, save or
   * change of selection), make one step: a hundred keystrokes would otherwise fill the history.
   */
  commit(next: Doc, extra: Partial<EditorState> = {}, mergeKey?: string) {
    if (next === this.state.doc) return;
    const now = Date.now();
    const merge = mergeKey !== undefined && this.typing?.key === mergeKey && now - this.typing.at < MERGE_MS && this.state.past.length > 0;
    this.typing = mergeKey === undefined ? null : { key: mergeKey, at: now };
    const past = merge ? this.state.past : [...this.state.past, this.state.doc].slice(-HISTORY_LIMIT);
    const sheetId = next.sheets.some((s) => s.id === (extra.sheetId ?? this.state.sheetId)) ? (extra.sheetId ?? this.state.sheetId) : next.sheets[0]!.id;
    this.set({ ...extra, doc: next, past, future: [], sheetId });
  }

  undo = () => {
    const prev = this.state.past.at(-1);
    if (!prev) return;
    this.restore(prev, this.state.past.slice(0, -1), [this.state.doc, ...this.state.future]);
  };

  redo = () => {
    const next = this.state.future[0];
    if (!next) return;
    this.restore(next, [...this.state.past, this.state.doc], this.state.future.slice(1));
  };

  private restore(doc: Doc, past: Doc[], future: Doc[]) {
    this.typing = null;
    const sheetId = doc.sheets.some((s) => s.id === this.state.sheetId) ? this.state.sheetId : doc.sheets[0]!.id;
    const alive = new Set(doc.sheets.flatMap((s) => s.nodes.map((n) => n.id)));
    this.set({ doc, past, future, sheetId, selected: this.state.selected.filter((id) => alive.has(id)) });
  }

  /** Dragging moves nodes many times; the whole drag is one undo step. */
  movePositions(moves: Map<string, { x: number; y: number }>, dragging: boolean) {
    if (dragging && !this.dragBase) this.dragBase = this.state.doc;
    const doc = mapNodes(this.state.doc, (n) => (moves.has(n.id) ? { ...n, position: moves.get(n.id)! } : n));
    if (!dragging && this.dragBase) {
      this.typing = null;
      const base = this.dragBase;
      this.dragBase = null;
      this.set({ doc, past: [...this.state.past, base].slice(-HISTORY_LIMIT), future: [] });
    } else if (!dragging) this.commit(doc);
    else this.set({ doc });
  }

  select(ids: string[]) {
    const same = ids.length === this.state.selected.length && ids.every((id, i) => id === this.state.selected[i]);
    if (same) return;
    this.typing = null;
    this.set({ selected: ids });
  }

  openSheet(sheetId: string) {
    if (sheetId !== this.state.sheetId) this.set({ sheetId, selected: [] });
  }

  focusNode(nodeId: string) {
    const sheet = this.state.doc.sheets.find((s) => s.nodes.some((n) => n.id === nodeId));
    if (!sheet) return;
    this.set({ sheetId: sheet.id, selected: [nodeId], focus: { nodeId, at: Date.now() } });
  }

  /** Turns the analytics overlay on (with its bot, period and figures) or off (null). */
  setAnalytics(analytics: FunnelOverlay | null) {
    if (analytics !== this.state.analytics) this.set({ analytics });
  }

  requestFit() {
    this.set({ fit: this.state.fit + 1 });
  }

  /** Replaces the document without history (load, reload after a conflict). */
  load(doc: Doc) {
    this.typing = null;
    const sheetId = doc.sheets.some((s) => s.id === this.state.sheetId) ? this.state.sheetId : doc.sheets[0]!.id;
    this.set({ doc, saved: doc, past: [], future: [], sheetId, selected: [] });
  }

  /**
   * A change that is not an edit of the user (the layout of an imported sheet): no undo step, and
   * not "unsaved" — opening a project never writes it; the next save carries the new positions.
   */
  replaceDoc(doc: Doc) {
    this.typing = null;
    const clean = this.state.doc === this.state.saved;
    this.editedFrom.set(doc, this.editedFrom.get(this.state.doc) ?? this.state.doc);
    this.set({ doc, ...(clean ? { saved: doc } : {}) });
  }

  /**
   * `doc` is stored. What the editor changed by itself while it was on its way (a copy moved off
   * the node it landed on, once measured) is no edit, as on a clean document (replaceDoc): without
   * autosave the status stayed "Unsaved changes" after a save the user saw go out.
   */
  markSaved(doc: Doc) {
    // what is typed after a save undoes back to the saved text, not past it
    this.typing = null;
    this.set({ saved: this.editedFrom.get(this.state.doc) === doc ? this.state.doc : doc });
  }

  get dirty() {
    return this.state.doc !== this.state.saved;
  }
}

export function mapNodes(doc: Doc, fn: (n: SNode) => SNode): Doc {
  let changed = false;
  const sheets = doc.sheets.map((s) => {
    let touched = false;
    const nodes = s.nodes.map((n) => {
      const m = fn(n);
      if (m !== n) touched = true;
      return m;
    });
    if (!touched) return s;
    changed = true;
    return { ...s, nodes };
  });
  return changed ? { ...doc, sheets } : doc;
}

export function updateNode(doc: Doc, id: string, fn: (n: SNode) => SNode): Doc {
  return mapNodes(doc, (n) => (n.id === id ? fn(n) : n));
}

/**
 * What is sent to the server: the document with `activeSheetId`, and for each sheet whose
 * transitions changed since load, the drawing-only edges rebuilt from node data. A sheet whose
 * transitions did not change keeps its stored edges byte for byte.
 */
export function toSaved(doc: Doc, loaded: Doc, activeSheetId: string): Doc {
  const idxNow = sheetIndex(doc);
  const idxThen = sheetIndex(loaded);
  const sig = (s: Sheet, idx: Map<string, string>) => {
    const { local, portals } = deriveEdges(s, idx);
    return [...local, ...portals].map((e) => `${e.id}>${e.target}`).sort().join("\n");
  };
  const sheets = doc.sheets.map((s) => {
    const before = loaded.sheets.find((x) => x.id === s.id);
    if (!before || sig(before, idxThen) !== sig(s, idxNow)) return storedEdges(s, idxNow);
    // the transitions did not change: the drawing as last stored stays as it was
    if (s.edges === before.edges && s.connections === before.connections) return s;
    const out: Sheet = { ...s };
    for (const k of ["edges", "connections"] as const) {
      if (k in before) out[k] = before[k];
      else delete out[k];
    }
    return out;
  });
  const out: Doc = { ...doc, sheets };
  if ("activeSheetId" in doc) out.activeSheetId = activeSheetId;
  return out;
}

export function useEditor<T>(store: EditorStore, selector: (s: EditorState) => T): T {
  return useSyncExternalStore(store.subscribe, () => selector(store.state));
}
