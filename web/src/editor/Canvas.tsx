// One sheet on the React Flow canvas. Nodes and edges are views of the document: connecting,
// reconnecting or deleting an edge writes the node data (document.ts), and the edges follow.
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import {
  Background,
  BackgroundVariant,
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
import { FlowNode, PortalNode, type FlowNodeData, type PortalData } from "./FlowNode";
import { deriveEdges, sheetIndex, withTarget, type SNode } from "./document";
import { deleteNodes } from "./ops";
import { updateNode, useEditor, type EditorStore } from "./store";

const nodeTypes = { scenario: FlowNode, portal: PortalNode };
export const GRID = 16;

interface Props {
  store: EditorStore;
  warnings: Map<string, string[]>;
  /** a node to highlight for a moment (the preview's bot message came from it) */
  flash?: string | null;
  onQuickAdd: (source: string | null, handle: string | null, screen: { x: number; y: number }) => void;
  onDropType: (type: string, screen: { x: number; y: number }) => void;
}

type Measured = { width?: number; height?: number };

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

export function Canvas({ store, warnings, flash, onQuickAdd, onDropType }: Props) {
  const doc = useEditor(store, (s) => s.doc);
  const sheetId = useEditor(store, (s) => s.sheetId);
  const selected = useEditor(store, (s) => s.selected);
  const focus = useEditor(store, (s) => s.focus);
  const flow = useReactFlow();
  const dark = useDarkTheme();
  // React Flow keeps the measurement of a node object it knows; node objects rebuilt later carry
  // it along from here. No re-render on a measurement: on a big sheet, nodes scrolled into view
  // are measured every frame while panning, and a re-render there would re-adopt every node.
  const measured = useRef(new Map<string, Measured>());
  const cache = useRef(new Map<string, { src: SNode; sel: boolean; warn?: string[]; m?: Measured; fl: boolean; rf: Node }>());

  const sheet = doc.sheets.find((s) => s.id === sheetId) ?? doc.sheets[0]!;
  const index = useMemo(() => sheetIndex(doc), [doc]);
  const names = useMemo(() => new Map(doc.sheets.map((s) => [s.id, s.name ?? s.id])), [doc.sheets]);
  const quickAdd = useCallback((source: string, handle: string, at: { x: number; y: number }) => onQuickAdd(source, handle, at), [onQuickAdd]);
  const openNode = useCallback((id: string) => store.focusNode(id), [store]);

  const { nodes, edges } = useMemo(() => {
    const sel = new Set(selected);
    const nodes: Node[] = [];
    const next = new Map<string, { src: SNode; sel: boolean; warn?: string[]; m?: Measured; fl: boolean; rf: Node }>();
    for (const n of sheet.nodes) {
      const isSel = sel.has(n.id);
      const warn = warnings.get(n.id);
      const m = measured.current.get(n.id);
      const fl = flash === n.id;
      const hit = cache.current.get(n.id);
      let rf: Node;
      if (hit && hit.src === n && hit.sel === isSel && hit.warn === warn && hit.m === m && hit.fl === fl) rf = hit.rf;
      else {
        const data: FlowNodeData = { node: n, warnings: warn, onQuickAdd: quickAdd, flash: fl };
        rf = { id: n.id, type: "scenario", position: safePosition(n.position), data, selected: isSel, ...(m ? { measured: m } : {}) };
      }
      next.set(n.id, { src: n, sel: isSel, warn, m, fl, rf });
      nodes.push(rf);
    }
    cache.current = next;
    const { local, portals } = deriveEdges(sheet, index);
    const edges: Edge[] = local.map((e) => ({ id: e.id, source: e.source, sourceHandle: e.sourceHandle, target: e.target, targetHandle: "in", className: `ed-edge ed-edge-${e.kind}`, reconnectable: "target" }));
    const bySource = new Map<string, number>();
    for (const p of portals) {
      const src = sheet.nodes.find((n) => n.id === p.source);
      const k = bySource.get(p.source) ?? 0;
      bySource.set(p.source, k + 1);
      const pos = safePosition(src?.position);
      const targetNode = doc.sheets.flatMap((s) => s.nodes).find((n) => n.id === p.target);
      const label = String(targetNode?.data?.messageText ?? targetNode?.data?.command ?? p.target).slice(0, 28);
      const data: PortalData = { target: p.target, sheetName: names.get(index.get(p.target)!) ?? "", label, onOpen: openNode };
      const id = `portal:${p.id}`;
      nodes.push({ id, type: "portal", position: { x: pos.x + 320, y: pos.y + k * 44 }, data, draggable: false, selectable: false, deletable: false, connectable: false });
      edges.push({ id: `${p.id}|portal`, source: p.source, sourceHandle: p.sourceHandle, target: id, targetHandle: "in", className: "ed-edge ed-edge-portal", deletable: true, reconnectable: "target" });
    }
    return { nodes, edges };
  }, [sheet, selected, warnings, flash, index, names, doc.sheets, quickAdd, openNode]);

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const moves = new Map<string, { x: number; y: number }>();
      let dragging = false;
      let sel: Set<string> | null = null;
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
          measured.current.set(c.id, { width: c.dimensions.width, height: c.dimensions.height });
        }
      }
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

  // A connection dropped on empty canvas asks what to add there (React Flow's "add node on edge drop").
  const onConnectEnd: OnConnectEnd = useCallback(
    (event, state) => {
      if (state.isValid || !state.fromNode || !state.fromHandle?.id || state.fromHandle.type !== "source") return;
      const p = "changedTouches" in event ? event.changedTouches[0]! : event;
      onQuickAdd(state.fromNode.id, state.fromHandle.id, { x: p.clientX, y: p.clientY });
    },
    [onQuickAdd],
  );

  useEffect(() => {
    if (!focus) return;
    const n = store.sheet.nodes.find((x) => x.id === focus.nodeId);
    if (n) {
      const m = measured.current.get(n.id);
      const p = safePosition(n.position);
      void flow.setCenter(p.x + (m?.width ?? 200) / 2, p.y + (m?.height ?? 80) / 2, { zoom: Math.max(flow.getZoom(), 1), duration: 0 });
    }
  }, [focus, flow, store]);

  // Opening a sheet: the view the file remembers (viewState), else everything if it stays
  // readable, else the first nodes in document order (where a scenario starts).
  useEffect(() => {
    const id = requestAnimationFrame(() => {
      // both spellings occur: { pan, zoom: percent } and the older { position, zoom: factor }
      const vs = store.sheet.viewState as { pan?: { x?: unknown; y?: unknown }; position?: { x?: unknown; y?: unknown }; zoom?: unknown } | undefined;
      const at = vs?.pan ?? vs?.position;
      const zoom = typeof vs?.zoom === "number" ? (vs.zoom > 3 ? vs.zoom / 100 : vs.zoom) : NaN;
      if (typeof at?.x === "number" && typeof at.y === "number" && zoom >= 0.2 && zoom <= 2.5) {
        void flow.setViewport({ x: at.x, y: at.y, zoom });
        return;
      }
      void flow.fitView({ maxZoom: 1.2, duration: 0 }).then(() => {
        if (flow.getZoom() < 0.45) void flow.fitView({ maxZoom: 1, nodes: store.sheet.nodes.slice(0, 8).map((n) => ({ id: n.id })), duration: 0 });
      });
    });
    return () => cancelAnimationFrame(id);
  }, [sheetId, flow, store]);

  return (
    <div
      className="ed-canvas"
      data-testid="canvas"
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
        onNodesChange={onNodesChange}
        onConnect={connect}
        onReconnect={reconnect}
        onConnectEnd={onConnectEnd}
        onDelete={onDelete}
        onPaneClick={() => store.select([])}
        snapToGrid
        snapGrid={[GRID, GRID]}
        minZoom={0.05}
        maxZoom={2.5}
        onlyRenderVisibleElements={sheet.nodes.length > 300}
        deleteKeyCode={["Delete", "Backspace"]}
        multiSelectionKeyCode={["Meta", "Control", "Shift"]}
        selectionKeyCode="Shift"
        proOptions={{ hideAttribution: true }}
        colorMode={dark ? "dark" : "light"}
      >
        <Background variant={BackgroundVariant.Dots} gap={GRID} />
        <Controls showInteractive={false} />
        <MiniMap pannable zoomable className="ed-minimap" style={{ width: 150, height: 100 }} />
      </ReactFlow>
    </div>
  );
}
