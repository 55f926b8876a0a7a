// One sheet on the React Flow canvas. Nodes and edges are views of the document: connecting,
// reconnecting or deleting an edge writes the node data (document.ts), and the edges follow.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type Node,
  type NodeChange,
  type OnConnectEnd,
} from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { ActionButton } from "./ActionButton";
import { canvasKeys } from "./actions";
import { FlowNode, PortalNode, type FlowNodeData, type PortalData } from "./FlowNode";
import { deriveEdges, sheetIndex, withTarget, type SNode } from "./document";
import { edgeKey, shareTone, type EdgeFunnel, type NodeFunnel } from "./funnel";
import { useFunnel } from "./FunnelBar";
import { InsertEdge, type InsertEdgeData } from "./InsertEdge";
import { boxesOf, layoutSheet, needsLayout, separate, sizeOf, withPositions, type Box } from "./layout";
import { deleteNodes } from "./ops";
import { updateNode, useEditor, type EditorStore } from "./store";
import { canvasAspect, fitReadable, keepClear, nudgeIntoView, reveal } from "./viewport";
import { useFollowSelection } from "./use-follow-selection";

const nodeTypes = { scenario: FlowNode, portal: PortalNode };
const edgeTypes = { insertable: InsertEdge };
export const GRID = 16;
const PORTAL = { w: 270, h: 32 };

interface Props {
  store: EditorStore;
  warnings: Map<string, string[]>;
  /** a node to highlight for a moment (the preview's bot message came from it) */
  flash?: string | null;
  onQuickAdd: (source: string | null, handle: string | null, screen: { x: number; y: number }) => void;
  onDropType: (type: string, screen: { x: number; y: number }) => void;
  onInsert: NonNullable<InsertEdgeData["onInsert"]>;
  /** a person clicked a node: they want its properties (room.ts: which panel stays when both do not fit) */
  onPickNode?: () => void;
  /** phone: look, pan and zoom only */
  readOnly?: boolean;
  /** the minimap shown (its button is the "minimap" action) */
  minimap: boolean;
  /** what floats over the canvas or narrows it, as one value: when it changes, the selected node is kept clear of it */
  panels: string;
}

type Measured = { width?: number; height?: number };
type Cached = { src: SNode; sel: boolean; warn?: string[]; m?: Measured; fl: boolean; ro: boolean; fu: string; rf: Node };

/** A node's funnel figures as one string: a node card re-renders only when they change. */
const funnelSig = (f: NodeFunnel | undefined) => (f ? `${f.users}/${f.visits}/${f.onward}/${f.drop}` : "");

/** How a transition looks under the analytics overlay: wider and greener as more of its source's users took it. */
function funnelEdge(f: EdgeFunnel | undefined): Pick<Edge, "style"> & { tone: string } {
  if (!f) return { tone: "" };
  return { style: { strokeWidth: 1.5 + 6 * (f.share ?? 0) }, tone: ` ed-funnel ed-funnel-${shareTone(f.share)}` };
}

/** A file may hold anything as a position; the canvas gets finite numbers (until the layout places it). */
const safePosition = (p: unknown): { x: number; y: number } => {
  const q = p as { x?: unknown; y?: unknown } | null | undefined;
  return typeof q?.x === "number" && Number.isFinite(q.x) && typeof q.y === "number" && Number.isFinite(q.y) ? { x: q.x, y: q.y } : { x: 0, y: 0 };
};

/** The app's theme (data-theme on <html>), followed live when the user switches it. */
function useDarkTheme(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const o = new MutationObserver(notify);
      o.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
      return () => o.disconnect();
    },
    () => document.documentElement.dataset.theme === "dark",
  );
}

export function Canvas({ store, warnings, flash, onQuickAdd, onDropType, onInsert, onPickNode, readOnly, minimap, panels }: Props) {
  const { t, i18n } = useTranslation();
  // React Flow speaks English to screen readers unless told otherwise
  const ariaLabels = useMemo(() => ({
    "controls.ariaLabel": t("editor.flow.controls"),
    "edge.a11yDescription.default": t("editor.flow.edgeHelp"),
    "node.a11yDescription.default": t("editor.flow.nodeHelp"),
    "node.a11yDescription.keyboardDisabled": t("editor.flow.nodeKeysOff"),
    "node.a11yDescription.ariaLiveMessage": ({ direction, x, y }: { direction: string; x: number; y: number }) => t("editor.flow.moved", { direction, x, y }),
    "handle.ariaLabel": t("editor.flow.handle"),
    "minimap.ariaLabel": t("editor.flow.minimap"),
  }), [t, i18n.language]);
  const doc = useEditor(store, (s) => s.doc);
  const sheetId = useEditor(store, (s) => s.sheetId);
  const selected = useEditor(store, (s) => s.selected);
  const focus = useEditor(store, (s) => s.focus);
  const flow = useReactFlow();
  const dark = useDarkTheme();
  // React Flow keeps the measurement of a node object it knows; node objects rebuilt later carry
  // it along from here. No re-render on a measurement: on a big sheet, nodes scrolled into view
  // are measured every frame while panning, and a re-render there would re-adopt every node.
  const measured = useRef(store.sizes);
  // counts first measurements of nodes, so placement runs once new nodes have their real size
  const [measuredTick, setMeasuredTick] = useState(0);
  const cache = useRef(new Map<string, Cached>());
  const funnel = useFunnel(store);

  const sheet = doc.sheets.find((s) => s.id === sheetId) ?? doc.sheets[0]!;
  const index = useMemo(() => sheetIndex(doc), [doc]);
  const names = useMemo(() => new Map(doc.sheets.map((s) => [s.id, s.name ?? s.id])), [doc.sheets]);
  const quickAdd = useCallback((source: string, handle: string, at: { x: number; y: number }) => onQuickAdd(source, handle, at), [onQuickAdd]);
  const openNode = useCallback((id: string) => store.focusNode(id), [store]);

  const { nodes, edges } = useMemo(() => {
    const sel = new Set(selected);
    const nodes: Node[] = [];
    const next = new Map<string, Cached>();
    for (const n of sheet.nodes) {
      const isSel = sel.has(n.id);
      const warn = warnings.get(n.id);
      const m = measured.current.get(n.id);
      const fl = flash === n.id;
      const nf = funnel?.nodes.get(n.id);
      const fu = funnelSig(nf);
      const hit = cache.current.get(n.id);
      let rf: Node;
      if (hit && hit.src === n && hit.sel === isSel && hit.warn === warn && hit.m === m && hit.fl === fl && hit.ro === !!readOnly && hit.fu === fu) rf = hit.rf;
      else {
        const data: FlowNodeData = { node: n, warnings: warn, onQuickAdd: readOnly ? undefined : quickAdd, flash: fl, ...(nf ? { funnel: nf } : {}) };
        rf = { id: n.id, type: "scenario", position: safePosition(n.position), data, selected: isSel, ...(m ? { measured: m } : {}) };
      }
      next.set(n.id, { src: n, sel: isSel, warn, m, fl, ro: !!readOnly, fu, rf });
      nodes.push(rf);
    }
    cache.current = next;
    const { local, portals } = deriveEdges(sheet, index);
    const edgeData: InsertEdgeData = readOnly ? {} : { onInsert };
    const edges: Edge[] = local.map((e) => {
      const ef = funnel?.edges.get(edgeKey(e.source, e.target));
      const { tone, ...look } = funnelEdge(ef);
      return { id: e.id, type: "insertable", data: ef ? { ...edgeData, funnel: ef } : edgeData, source: e.source, sourceHandle: e.sourceHandle, target: e.target, targetHandle: "in", className: `ed-edge ed-edge-${e.kind}${tone}`, reconnectable: "target", ariaLabel: t("editor.flow.edge", { source: e.source, target: e.target }), ...look };
    });
    // portal chips go right of their source, below anything they would cover
    const taken: Box[] = portals.length ? boxesOf(sheet.nodes, measured.current) : [];
    for (const p of portals) {
      const src = sheet.nodes.find((n) => n.id === p.source);
      const sp = safePosition(src?.position);
      const at = { id: p.id, x: sp.x + sizeOf(measured.current, p.source).w + 40, y: sp.y, w: PORTAL.w, h: PORTAL.h };
      for (let i = 0; i < 200 && taken.some((b) => at.x < b.x + b.w + 8 && b.x < at.x + at.w + 8 && at.y < b.y + b.h + 8 && b.y < at.y + at.h + 8); i++) at.y += PORTAL.h + 8;
      taken.push(at);
      const pos = { x: at.x - 320, y: at.y };
      const targetNode = doc.sheets.flatMap((s) => s.nodes).find((n) => n.id === p.target);
      const label = String(targetNode?.data?.messageText ?? targetNode?.data?.command ?? p.target).slice(0, 28);
      const data: PortalData = { target: p.target, sheetName: names.get(index.get(p.target)!) ?? "", label, onOpen: openNode };
      const id = `portal:${p.id}`;
      nodes.push({ id, type: "portal", position: { x: pos.x + 320, y: pos.y }, data, draggable: false, selectable: false, deletable: false, connectable: false });
      const ef = funnel?.edges.get(edgeKey(p.source, p.target));
      const { tone, ...look } = funnelEdge(ef);
      edges.push({ id: `${p.id}|portal`, ...(ef ? { type: "insertable", data: { funnel: ef } } : {}), source: p.source, sourceHandle: p.sourceHandle, target: id, targetHandle: "in", className: `ed-edge ed-edge-portal${tone}`, ariaLabel: t("editor.flow.edge", { source: p.source, target: p.target }), deletable: true, reconnectable: "target", ...look });
    }
    return { nodes, edges };
  }, [sheet, selected, warnings, flash, index, names, doc.sheets, quickAdd, openNode, onInsert, readOnly, measuredTick, funnel, t]);

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const moves = new Map<string, { x: number; y: number }>();
      let dragging = false;
      let sel: Set<string> | null = null;
      let fresh = false;
      for (const c of changes) {
        if (c.type === "position" && c.position && !c.id.startsWith("portal:")) {
          moves.set(c.id, c.position);
          dragging ||= !!c.dragging;
        } else if (c.type === "position" && c.dragging === false && !c.id.startsWith("portal:")) {
          moves.set(c.id, store.sheet.nodes.find((n) => n.id === c.id)?.position ?? { x: 0, y: 0 });
        } else if (c.type === "select") {
          sel ??= new Set(store.state.selected);
          if (c.selected) sel.add(c.id);
          else sel.delete(c.id);
        } else if (c.type === "dimensions" && c.dimensions) {
          fresh ||= !measured.current.has(c.id);
          measured.current.set(c.id, { width: c.dimensions.width, height: c.dimensions.height });
        }
      }
      if (fresh) setMeasuredTick((n) => n + 1);
      if (moves.size) store.movePositions(moves, dragging);
      if (sel) store.select([...sel].filter((id) => !id.startsWith("portal:")));
    },
    [store],
  );

  const connect = useCallback(
    (c: Connection) => {
      if (!c.source || !c.sourceHandle || !c.target || c.target.startsWith("portal:") || c.source === c.target) return;
      store.commit(updateNode(store.state.doc, c.source, (n) => withTarget(n, c.sourceHandle!, c.target)));
    },
    [store],
  );

  const reconnect = useCallback(
    (old: Edge, c: Connection) => {
      if (!c.target || c.target.startsWith("portal:")) return;
      let doc = updateNode(store.state.doc, old.source, (n) => withTarget(n, old.sourceHandle!, ""));
      if (c.source && c.sourceHandle) doc = updateNode(doc, c.source, (n) => withTarget(n, c.sourceHandle!, c.target));
      store.commit(doc);
    },
    [store],
  );

  const onDelete = useCallback(
    ({ nodes, edges }: { nodes: Node[]; edges: Edge[] }) => {
      let doc = store.state.doc;
      for (const e of edges) doc = updateNode(doc, e.source, (n) => withTarget(n, e.sourceHandle!, ""));
      doc = deleteNodes(doc, new Set(nodes.filter((n) => n.type === "scenario").map((n) => n.id)));
      store.commit(doc, { selected: [] });
    },
    [store],
  );

  // A connection dropped anywhere on a node's card connects to it (not only on its small handle);
  // dropped on empty canvas it asks what to add there (React Flow's "add node on edge drop").
  const onConnectEnd: OnConnectEnd = useCallback(
    (event, state) => {
      if (state.isValid || !state.fromNode || !state.fromHandle?.id || state.fromHandle.type !== "source") return;
      const p = "changedTouches" in event ? event.changedTouches[0]! : event;
      const onto = document.elementFromPoint(p.clientX, p.clientY)?.closest(".react-flow__node-scenario")?.getAttribute("data-id");
      if (onto) {
        connect({ source: state.fromNode.id, sourceHandle: state.fromHandle.id, target: onto, targetHandle: "in" });
        return;
      }
      onQuickAdd(state.fromNode.id, state.fromHandle.id, { x: p.clientX, y: p.clientY });
    },
    [onQuickAdd, connect],
  );

  /** The boxes of the nodes a node links with, either way, on its sheet. */
  const neighbours = useCallback((id: string): Box[] => {
    const linked = new Set(deriveEdges(store.sheet, sheetIndex(store.state.doc)).local.flatMap((e) => (e.source === id ? [e.target] : e.target === id ? [e.source] : [])));
    linked.delete(id);
    return boxesOf(store.sheet.nodes.filter((n) => linked.has(n.id)), measured.current);
  }, [store]);

  // No node lies on another: a sheet is checked when it opens (an imported pile is laid out anew,
  // a few overlaps are nudged apart), and nodes new on the sheet (add, paste, undo) move off what
  // they cover once measured; then the view follows them.
  const seen = useRef<{ sheet: string; ids: Set<string> } | null>(null);
  // data-settled names the sheet whose opening check is done (tests wait for it)
  const [settledSheet, setSettledSheet] = useState("");
  const layingOut = useRef<string | null>(null);
  useEffect(() => {
    const sh = store.sheet;
    if (sh.id !== sheet.id || layingOut.current === sh.id) return;
    const big = sh.nodes.length > 300; // only the visible part of a big sheet is measured
    if (!big && !sh.nodes.every((n) => measured.current.has(n.id))) return;
    const prev = seen.current?.sheet === sh.id ? seen.current.ids : null;
    seen.current = { sheet: sh.id, ids: new Set(sh.nodes.map((n) => n.id)) };
    if (!prev) {
      if (sh.nodes.length && needsLayout(sh, measured.current)) {
        layingOut.current = sh.id;
        const before = store.state.doc;
        void layoutSheet(before, sh.id, measured.current, canvasAspect()).then((next) => {
          layingOut.current = null;
          if (store.state.doc === before) store.replaceDoc(next);
          store.requestFit();
          setSettledSheet(sh.id);
        });
        return;
      }
      const moved = separate(boxesOf(sh.nodes, measured.current));
      if (moved.size) store.replaceDoc(withPositions(store.state.doc, sh.id, moved));
      // a file's remembered view (`viewState`) was taken on another screen: a readable fit instead
      void fitReadable(flow, store);
      setSettledSheet(sh.id);
      return;
    }
    const fresh = sh.nodes.filter((n) => !prev.has(n.id)).map((n) => n.id);
    if (!fresh.length) return;
    const isFresh = new Set(fresh);
    const moved = separate(boxesOf(sh.nodes, measured.current), new Set(sh.nodes.map((n) => n.id).filter((id) => !isFresh.has(id))));
    if (moved.size) store.replaceDoc(withPositions(store.state.doc, sh.id, moved));
    const show = store.sheet.nodes.filter((n) => isFresh.has(n.id) && !store.placedByHand.has(n.id));
    const dropped = store.sheet.nodes.filter((n) => isFresh.has(n.id) && store.placedByHand.has(n.id));
    for (const id of fresh) store.placedByHand.delete(id);
    // one new node (from the palette, a handle's +, an edge) is shown with the nodes it links with
    if (show.length === 1) keepClear(flow, boxesOf(show, measured.current)[0]!, neighbours(show[0]!.id));
    else reveal(flow, boxesOf(show, measured.current));
    nudgeIntoView(flow, boxesOf(dropped, measured.current));
  }, [sheet, measuredTick, store, flow, neighbours]);

  // data-fitted counts finished fits (after a layout, or the Fit view button): tests wait for it instead of for time
  const fitRequest = useEditor(store, (s) => s.fit);
  const [fitted, setFitted] = useState(0);
  useEffect(() => {
    if (!fitRequest) return;
    const id = requestAnimationFrame(() => void fitReadable(flow, store, 200).then(() => setFitted(fitRequest)));
    return () => cancelAnimationFrame(id);
  }, [fitRequest, flow, store]);

  // search, warnings and the preview centre their node in the part of the canvas left free
  useEffect(() => {
    if (!focus) return;
    const n = store.sheet.nodes.find((x) => x.id === focus.nodeId);
    if (n) requestAnimationFrame(() => reveal(flow, boxesOf([n], measured.current), Math.max(flow.getZoom(), 1), true));
  }, [focus, flow, store]);

  // the selected node and its neighbours kept clear of the panels (use-follow-selection.ts)
  const follow = useFollowSelection({ store, flow, measured, neighbours, selected, panels });

  return (
    <div
      ref={follow.canvasRef}
      className={`ed-canvas${minimap ? " minimap-on" : ""}${funnel ? " funnel-on" : ""}`}
      data-testid="canvas"
      data-fitted={fitted}
      data-settled={settledSheet === sheet.id ? sheet.id : ""}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("application/x-botloom-node")) {
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
        }
      }}
      onDrop={(e) => {
        const type = e.dataTransfer.getData("application/x-botloom-node");
        if (!type) return;
        e.preventDefault();
        onDropType(type, { x: e.clientX, y: e.clientY });
      }}
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onConnect={connect}
        onReconnect={reconnect}
        onConnectEnd={onConnectEnd}
        onDelete={onDelete}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesReconnectable={!readOnly}
        deleteKeyCode={readOnly ? null : canvasKeys("delete")}
        onPaneClick={() => store.select([])}
        onNodeClick={onPickNode}
        onNodeDragStart={follow.onNodeDragStart}
        onNodeDragStop={follow.onNodeDragStop}
        onMoveStart={follow.onMoveStart}
        onMoveEnd={follow.onMoveEnd}
        snapToGrid
        snapGrid={[GRID, GRID]}
        minZoom={0.05}
        maxZoom={2.5}
        onlyRenderVisibleElements={sheet.nodes.length > 300}
        multiSelectionKeyCode={["Meta", "Control", "Shift"]}
        selectionKeyCode="Shift"
        proOptions={{ hideAttribution: true }}
        colorMode={dark ? "dark" : "light"}
        ariaLabelConfig={ariaLabels}
      >
        <Background variant={BackgroundVariant.Dots} gap={GRID} />
        <Controls showInteractive={false} showFitView={false} showZoom={false}>
          <ActionButton id="zoomIn" as={ControlButton} className="react-flow__controls-zoomin" />
          <ActionButton id="zoomOut" as={ControlButton} className="react-flow__controls-zoomout" />
          <ActionButton id="fitView" as={ControlButton} className="ed-fit" />
          <ActionButton id="minimap" as={ControlButton} />
        </Controls>
        {minimap && (
          <MiniMap
            pannable
            zoomable
            position="bottom-left"
            className="ed-minimap"
            style={{ width: 236, height: 118 }}
            nodeColor={dark ? "#94a3b8" : "#475569"}
            nodeStrokeColor={dark ? "#e2e8f0" : "#0f172a"}
            nodeBorderRadius={6}
            maskColor={dark ? "rgb(0 0 0 / 55%)" : "rgb(15 23 42 / 18%)"}
            maskStrokeColor={dark ? "#60a5fa" : "#2563eb"}
            maskStrokeWidth={2}
          />
        )}
      </ReactFlow>
    </div>
  );
}
