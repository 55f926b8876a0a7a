// The view follows the selected node: it and its neighbours are kept clear of the floating panels
// (keepClear) when it is selected, when a panel opens, folds or narrows the canvas, and when the
// canvas is resized, but never from under a person's hand (docs/editor.md "Selecting a node").
import { useCallback, useEffect, useRef, type MutableRefObject } from "react";
import type { ReactFlowInstance, Viewport } from "@xyflow/react";
import { boxesOf, type Box, type Sizes } from "./layout";
import type { EditorStore } from "./store";
import { keepClear, showsClear } from "./viewport";

interface Follow {
  store: EditorStore;
  flow: ReactFlowInstance;
  measured: MutableRefObject<Sizes>;
  /** the boxes of the nodes a node links with */
  neighbours: (id: string) => Box[];
  selected: readonly string[];
  /** what the floating panels are now (a change may cover the node) */
  panels: string;
}

/** The canvas's ref and the React Flow handlers that tell the view's rule what the person does. */
export function useFollowSelection({ store, flow, measured, neighbours, selected, panels }: Follow) {
  // When: a node selected (the properties panel opens for it), a panel's change while it stays
  // selected (`panels`), a resize of the canvas (a window made smaller, a phone turned). Whether the
  // view may move then is one rule, `mayFollow`.
  const canvasEl = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const moving = useRef<Viewport | null>(null);
  // the node the person moved the view off themselves, since it was selected
  const leftBy = useRef<string | null>(null);
  /**
   * Whether the view may move now to follow the selected node: one node selected and none being
   * dragged (a drag selects the node it moves; the view would slide from under the pointer). A node
   * just selected is followed: the person asked to see it (a tap on a phone's node starts a pan that
   * ends only after the tap selected it). Otherwise not while a person pans or zooms, nor once they
   * had moved the view off the node themselves: then the view is theirs until a node is selected again.
   */
  const mayFollow = useCallback((fresh: boolean) => {
    const sel = store.state.selected;
    if (sel.length !== 1 || dragging.current) return false;
    return fresh || (!moving.current && leftBy.current !== sel[0]);
  }, [store]);
  const follow = useCallback((fresh: boolean) => {
    if (!mayFollow(fresh)) return;
    const n = store.sheet.nodes.find((x) => x.id === store.state.selected[0]);
    if (n && measured.current.has(n.id)) keepClear(flow, boxesOf([n], measured.current)[0]!, neighbours(n.id));
  }, [mayFollow, store, flow, neighbours]);

  // the editor's own moves (setViewport) come without an event
  const onMoveStart = useCallback((e: unknown, v: Viewport) => void (e && (moving.current = v)), []);
  const onMoveEnd = useCallback((e: unknown, v: Viewport) => {
    const from = moving.current;
    if (!e || !from) return;
    moving.current = null;
    // a tap or a click on a node starts and ends a move that moved nothing
    if (from.x === v.x && from.y === v.y && from.zoom === v.zoom) return;
    const sel = store.state.selected;
    const n = sel.length === 1 ? store.sheet.nodes.find((x) => x.id === sel[0]) : undefined;
    leftBy.current = n && measured.current.has(n.id) && !showsClear(flow, boxesOf([n], measured.current)[0]!) ? n.id : null;
  }, [flow, store]);

  // a selection new since the last follow (kept across a panel's change within the same frame); new
  // by its ids: an undo hands back the same ids in a new list, and selects nothing anew
  const followedSel = useRef<string | null>(null);
  const freshSel = useRef(false);
  useEffect(() => {
    const ids = selected.join("\n");
    if (followedSel.current !== ids) {
      followedSel.current = ids;
      leftBy.current = null;
      freshSel.current = true;
    }
    const n = selected.length === 1 ? store.sheet.nodes.find((x) => x.id === selected[0]) : undefined;
    // a node not yet measured is new: placing it (and showing it, or not) is the settling's job
    if (!n || !measured.current.has(n.id)) return void (freshSel.current = false);
    const id = requestAnimationFrame(() => {
      const fresh = freshSel.current;
      freshSel.current = false;
      follow(fresh);
    });
    return () => cancelAnimationFrame(id);
  }, [selected, panels, store, follow]);

  useEffect(() => {
    const el = canvasEl.current;
    if (!el) return;
    let size = "";
    let frame = 0;
    const resized = new ResizeObserver(([entry]) => {
      const now = `${entry!.contentRect.width}x${entry!.contentRect.height}`;
      // the first report is the canvas as it opened: nothing was resized
      const was = size;
      size = now;
      if (!was || was === now) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => follow(false));
    });
    resized.observe(el);
    return () => {
      resized.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [follow]);

  const onNodeDragStart = useCallback(() => void (dragging.current = true), []);
  const onNodeDragStop = useCallback(() => void (dragging.current = false), []);
  return { canvasRef: canvasEl, onNodeDragStart, onNodeDragStop, onMoveStart, onMoveEnd };
}
