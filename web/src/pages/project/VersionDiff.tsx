// One version drawn on a read-only canvas, each node marked by what this save changed against the
// version before it: added, removed (drawn where it was), changed (docs/editor.md "Versions").
import "@xyflow/react/dist/style.css";
import "./version-diff.css";
import { useMemo, useState } from "react";
import { Background, BackgroundVariant, Controls, Position, ReactFlow, ReactFlowProvider, type Edge, type Node } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { deriveEdges, sheetIndex, textOf, normalizeDoc } from "../../editor/document";
import { registerEditorStrings } from "../../editor/i18n";
import { diffDocs, type Change } from "../../editor/version-diff";

registerEditorStrings();

const MARK: Record<Change, string> = { added: "+", removed: "−", changed: "~", same: "" };

export function VersionDiffView({ before, after }: { before: unknown | null; after: unknown }) {
  const { t } = useTranslation();
  const diff = useMemo(() => diffDocs(before, after), [before, after]);
  // open the first sheet that changed
  const [sheetId, setSheetId] = useState(() => (diff.sheets.find((s) => s.nodes.some((n) => n.change !== "same")) ?? diff.sheets[0])?.id);
  const sheet = diff.sheets.find((s) => s.id === sheetId) ?? diff.sheets[0];
  const { nodes, edges } = useMemo(() => {
    if (!sheet) return { nodes: [] as Node[], edges: [] as Edge[] };
    const nodes: Node[] = sheet.nodes.map(({ node, change }) => ({
      id: node.id,
      position: { x: node.position?.x ?? 0, y: node.position?.y ?? 0 },
      className: `vd-node vd-${change}`,
      data: {
        label: (
          <div data-testid={`diff-node-${node.id}`} data-change={change}>
            <div className="vd-head">
              <span>{t(`editor.types.${node.type}`, node.type)}</span>
              {change !== "same" && <span className="vd-badge">{MARK[change]} {t(`versions.diff.${change}`)}</span>}
            </div>
            <div className="vd-text">{textOf(node) || node.id}</div>
          </div>
        ),
      },
      // flows read left to right, as on the editor's canvas
      sourcePosition: Position.Right,
      targetPosition: Position.Left,
      draggable: false,
      connectable: false,
      selectable: false,
    }));
    const doc = normalizeDoc(after);
    const current = doc.sheets.find((s) => s.id === sheet.id);
    const edges: Edge[] = current ? deriveEdges(current, sheetIndex(doc)).local.map((e) => ({ id: e.id, source: e.source, target: e.target })) : [];
    return { nodes, edges };
  }, [sheet, after, t]);

  // the view opens on what changed, at a zoom that stays readable (pan for the rest)
  const fitTo = useMemo(() => {
    const changed = (sheet?.nodes ?? []).filter((n) => n.change !== "same").map((n) => ({ id: n.node.id }));
    return { nodes: changed.length > 0 ? changed : undefined, minZoom: 0.5, maxZoom: 1 };
  }, [sheet]);

  return (
    <div className="stack vd" data-testid="version-diff">
      <p className="small vd-legend" role="status">
        <span className="vd-key vd-added">+ {t("versions.diff.added")}: {diff.counts.added}</span>
        <span className="vd-key vd-removed">− {t("versions.diff.removed")}: {diff.counts.removed}</span>
        <span className="vd-key vd-changed">~ {t("versions.diff.changed")}: {diff.counts.changed}</span>
        <span className="muted">{before === null ? t("versions.diff.first") : t("versions.diff.against")}</span>
      </p>
      {diff.sheets.length > 1 && (
        <div className="row wrap" role="tablist" aria-label={t("editor.sheets.title")}>
          {diff.sheets.map((s) => (
            <button key={s.id} type="button" role="tab" aria-selected={s.id === sheet?.id} className={s.id === sheet?.id ? "btn small-btn active" : "btn small-btn"} onClick={() => setSheetId(s.id)}>
              {s.name}
            </button>
          ))}
        </div>
      )}
      <div className="vd-canvas">
        <ReactFlowProvider>
          <ReactFlow key={sheet?.id} nodes={nodes} edges={edges} fitView fitViewOptions={fitTo} minZoom={0.2} nodesDraggable={false} nodesConnectable={false} elementsSelectable={false} proOptions={{ hideAttribution: true }}>
            <Background variant={BackgroundVariant.Dots} gap={16} />
            <Controls showInteractive={false} />
          </ReactFlow>
        </ReactFlowProvider>
      </div>
    </div>
  );
}
