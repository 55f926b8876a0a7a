// A transition drawn on the canvas, with a "+" at its middle that inserts a node between its two
// ends (shown while the edge is selected or hovered), and under the analytics overlay the users who
// took it (funnel.ts).
import { memo } from "react";
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { percent, shareTone, type EdgeFunnel } from "./funnel";

export interface InsertEdgeData extends Record<string, unknown> {
  onInsert?: (edge: { source: string; sourceHandle: string; target: string }, at: { x: number; y: number }) => void;
  funnel?: EdgeFunnel;
}

export const InsertEdge = memo(function InsertEdge(p: EdgeProps) {
  const { t } = useTranslation();
  const [path, lx, ly] = getBezierPath(p);
  const { onInsert, funnel } = (p.data as InsertEdgeData | undefined) ?? {};
  return (
    <>
      <BaseEdge id={p.id} path={path} markerEnd={p.markerEnd} style={p.style} interactionWidth={p.interactionWidth} />
      {funnel && (
        <EdgeLabelRenderer>
          <span
            className={`ed-funnel-edge ed-funnel-${shareTone(funnel.share)}`}
            style={{ transform: `translate(-50%, -135%) translate(${lx}px, ${ly}px)` }}
            data-pair={`${p.source}>${p.target}`}
            data-users={funnel.users}
            title={funnel.share === null ? undefined : t("analytics.funnel.edge", { count: funnel.users, percent: percent(funnel.share) })}
          >
            {funnel.users}
            {funnel.share !== null && <small> · {percent(funnel.share)}%</small>}
          </span>
        </EdgeLabelRenderer>
      )}
      {onInsert && p.sourceHandleId && (
        <EdgeLabelRenderer>
          <button
            type="button"
            className={`ed-edge-insert nodrag nopan${p.selected ? " shown" : ""}`}
            style={{ transform: `translate(-50%, -50%) translate(${lx}px, ${ly}px)` }}
            aria-label={t("editor.insertOnEdge")}
            title={t("editor.insertOnEdge")}
            data-edge={p.id}
            onClick={(e) => {
              e.stopPropagation();
              onInsert({ source: p.source, sourceHandle: p.sourceHandleId!, target: p.target }, { x: e.clientX, y: e.clientY });
            }}
          >
            +
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
