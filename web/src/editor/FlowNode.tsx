// How a scenario node looks on the canvas: its type, its content (text with variables
// highlighted, buttons, commands, branches) and one source handle per transition slot, placed on
// the row it belongs to. The target handle is on the left.
import { memo, type ReactNode } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { listOf } from "../../../src/scenario/trigger-lists";
import { iconOf } from "./catalogue";
import { slotsOf, type SNode, type Slot } from "./document";
import { percent, shareTone, type NodeFunnel } from "./funnel";

export interface FlowNodeData extends Record<string, unknown> {
  node: SNode;
  warnings?: string[];
  /** the preview just showed a message this node sent */
  flash?: boolean;
  onQuickAdd?: (source: string, handle: string, at: { x: number; y: number }) => void;
  /** the analytics overlay's figures for this node (absent while the overlay is off) */
  funnel?: NodeFunnel;
}

const VAR = /(\{[^{}\s]{1,80}\})/g;

/** Text with {variables} marked. */
export function Highlighted({ text }: { text: string }) {
  const parts = text.split(VAR);
  return (
    <>
      {parts.map((p, i) => (i % 2 === 1 ? <mark key={i} className="ed-var">{p}</mark> : p))}
    </>
  );
}

function SlotRow({ slot, node, children, onQuickAdd }: { slot: Slot; node: SNode; children: ReactNode; onQuickAdd?: FlowNodeData["onQuickAdd"] }) {
  const { t } = useTranslation();
  return (
    <div className={`ed-slot ed-slot-${slot.kind}`} data-slot={slot.handle}>
      {children}
      {!slot.target && onQuickAdd && (
        <button
          type="button"
          className="ed-quick nodrag"
          title="+"
          aria-label={t("editor.quickAdd", { slot: slot.label || slot.handle, word: slot.label || t(`editor.slots.${slot.name}`, { defaultValue: slot.handle }) })}
          onClick={(e) => {
            e.stopPropagation();
            onQuickAdd(node.id, slot.handle, { x: e.clientX, y: e.clientY });
          }}
        >
          +
        </button>
      )}
      <Handle type="source" position={Position.Right} id={slot.handle} className={`ed-handle ed-handle-${slot.kind}`} />
    </div>
  );
}

/** " → variable" where a node keeps its result. */
function SavedTo({ name }: { name: unknown }) {
  return typeof name === "string" && name ? <span className="muted"> → {name}</span> : null;
}

function Body({ node }: { node: SNode }) {
  const { t } = useTranslation();
  const d = node.data ?? {};
  const text = typeof d.messageText === "string" ? d.messageText : "";
  switch (node.type) {
    case "command_trigger":
    case "start":
    case "command":
      return (
        <>
          <div className="ed-cmd">
            {String(d.command ?? (node.type === "start" ? "/start" : ""))}
            {typeof d.deepLinkParam === "string" && d.deepLinkParam.trim() !== "" && ` ?start=${d.deepLinkParam.trim()}${d.deepLinkMatchMode === "startsWith" || d.deepLinkMatchMode === "prefix" ? "…" : ""}`}
          </div>
          {text && <div className="ed-text"><Highlighted text={text.slice(0, 240)} /></div>}
        </>
      );
    case "text_trigger":
      return <div className="ed-cmd">{Array.isArray(d.textSynonyms) ? d.textSynonyms.slice(0, 4).map((s: unknown) => `«${String(s)}»`).join(" ") : ""}</div>;
    // what a reaction or member trigger waits for (TriggerFields.tsx picks it)
    case "reaction_trigger":
      return <div className="ed-cmd">{listOf(d.emoji).join(" ") || t("editor.props.anyReactionShort")}</div>;
    case "member_trigger":
      return <div className="ed-meta">{listOf(d.memberEvents).map((e) => t(`editor.choices.memberEvents.${e}`, { defaultValue: e })).join(", ") || t("editor.props.anyMemberEventShort")}</div>;
    case "condition":
      return <div className="ed-cmd">{String(d.variable ?? "")}</div>;
    case "input":
      return <div className="ed-meta">→ {String(d.inputVariable || "—")} <span className="muted">({String(d.inputType ?? "text")})</span></div>;
    case "set_variable":
      return <div className="ed-meta">{Array.isArray(d.assignments) ? d.assignments.slice(0, 4).map((a: any, i: number) => <div key={i}>{String(a?.variable ?? "")} = <Highlighted text={String(a?.value ?? "").slice(0, 60)} /></div>) : null}</div>;
    case "delay":
      return <div className="ed-meta">{String(d.seconds ?? d.delaySeconds ?? "")} s</div>;
    case "http_request":
      return <div className="ed-meta"><b>{String(d.httpRequestMethod ?? "GET")}</b> <Highlighted text={String(d.httpRequestUrl ?? "").slice(0, 80)} /></div>;
    // what a data or AI node does, readable on the card without opening it
    case "bot_table":
      return <div className="ed-meta"><b>{String(d.operation || "read")}</b> {String(d.tableName || "—")}<SavedTo name={d.saveResultTo} /></div>;
    case "psql_query":
      return <div className="ed-meta"><code className="ed-sql">{String(d.query ?? "").replace(/\s+/g, " ").trim().slice(0, 90) || "—"}</code><SavedTo name={d.saveResultTo} /></div>;
    case "ai_answer":
      return (
        <>
          {typeof d.aiUserMessage === "string" && d.aiUserMessage && <div className="ed-text"><Highlighted text={d.aiUserMessage.slice(0, 160)} /></div>}
          <div className="ed-meta">{String(d.aiModel ?? "")}<SavedTo name={d.aiSaveTo} /></div>
        </>
      );
    default: {
      const media = ["imageUrl", "videoUrl", "audioUrl", "documentUrl"].find((k) => typeof d[k] === "string" && d[k]);
      return (
        <>
          {text && <div className="ed-text"><Highlighted text={text.slice(0, 240)} /></div>}
          {media && <div className="ed-meta">⎘ {String(d[media]).slice(0, 40)}</div>}
        </>
      );
    }
  }
}

function FlowNodeView({ data, selected }: NodeProps) {
  const { t } = useTranslation();
  const { node, warnings, onQuickAdd, flash, funnel } = data as FlowNodeData;
  const all = slotsOf(node);
  // the keyboard link leaves from the bottom edge: it is an attachment, not a step of the flow
  const keyboard = all.find((s) => s.handle === "keyboard");
  const slots = all.filter((s) => s !== keyboard);
  return (
    <div className={`ed-node ed-type-${node.type}${selected ? " selected" : ""}${warnings?.length ? " has-warning" : ""}${flash ? " flash" : ""}`} data-node-id={node.id} data-testid={`node-${node.id}`}>
      <Handle type="target" position={Position.Left} id="in" className="ed-handle ed-in" />
      <header className="ed-head">
        <span className="ed-icon" aria-hidden>{iconOf(node.type)}</span>
        <span className="ed-type">{t(`editor.types.${node.type}`, { defaultValue: node.type })}</span>
        {warnings?.length ? <span className="ed-warn" title={warnings.join("\n")}>⚠ {warnings.length}</span> : null}
      </header>
      {funnel && <FunnelBadge f={funnel} />}
      <div className="ed-body"><Body node={node} /></div>
      <div className="ed-slots">
        {slots.map((s) => (
          <SlotRow key={s.handle} slot={s} node={node} onQuickAdd={onQuickAdd}>
            {s.form === "field" ? <span className="ed-slot-label">{t(`editor.slots.${s.name}`)}</span> : s.kind === "button" ? <span className="ed-btn">{s.label || "…"}</span> : <span className="ed-branch">{s.label}</span>}
          </SlotRow>
        ))}
      </div>
      {keyboard && <Handle type="source" position={Position.Bottom} id="keyboard" className="ed-handle ed-handle-keyboard" title={t("editor.slots.keyboard")} />}
    </div>
  );
}

/** "N users, X% stop here": who reached the node, and the part of them who followed none of its links. */
function FunnelBadge({ f }: { f: NodeFunnel }) {
  const { t } = useTranslation();
  return (
    <div className={`ed-funnel-badge ed-funnel-${f.drop === null ? "none" : shareTone(1 - f.drop)}`} data-testid="funnel-badge" data-users={f.users} data-drop={f.drop === null ? "" : percent(f.drop)}>
      <strong>{t("analytics.funnel.badge", { count: f.users })}</strong>
      {f.drop !== null && percent(f.drop) > 0 && <span>{t("analytics.funnel.drop", { percent: percent(f.drop) })}</span>}
    </div>
  );
}

export const FlowNode = memo(FlowNodeView);

export interface PortalData extends Record<string, unknown> {
  target: string;
  sheetName: string;
  label: string;
  onOpen: (id: string) => void;
}

/** A transition into another sheet: a small chip that opens the target. */
export const PortalNode = memo(function PortalNode({ data }: NodeProps) {
  const { target, sheetName, label, onOpen } = data as PortalData;
  return (
    <button type="button" className="ed-portal nodrag" onClick={() => onOpen(target)} title={target}>
      <Handle type="target" position={Position.Left} id="in" className="ed-handle ed-in" isConnectable={false} />
      ⇢ {sheetName}: {label}
    </button>
  );
});
