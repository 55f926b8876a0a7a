// The properties panel: a form per node type for the fields the engine reads, and a raw JSON mode
// that edits the whole node data (unknown fields included) for every type.
import { useEffect, useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get } from "../api/client";
import { AssignmentsEditor, BranchesEditor, ButtonsEditor, Check, Choice, LayoutEditor, Num, Target, Text, type FieldCtx } from "./fields";
import { FunnelFacts } from "./FunnelFacts";
import { HttpTest } from "./HttpTest";
import { HookUrl } from "./HookUrl";
import { MessageButtons } from "./MessageButtons";
import { GenericFields } from "./GenericFields";
import { MemberFields, ReactionFields } from "./TriggerFields";
import { labelOf, MESSAGE_LIKE, variablesOf, type Data, type SNode } from "./document";
import { updateNode, useEditor, type EditorStore } from "./store";

interface MediaItem {
  id: number;
  fileName: string;
  mimeType: string;
  url: string;
}

const MEDIA_FIELD: Record<string, string> = { photo: "imageUrl", video: "videoUrl", audio: "audioUrl", document: "documentUrl", sticker: "stickerUrl", voice: "voiceUrl", animation: "animationUrl" };

function MediaPicker({ ctx, projectId, k }: { ctx: FieldCtx; projectId: number; k: string }) {
  const { t } = useTranslation();
  const media = useQuery({ queryKey: ["media", projectId], queryFn: () => get<MediaItem[]>(`/api/projects/${projectId}/media`) });
  return (
    <div className="ed-field">
      <Text ctx={ctx} k={k} label={t("editor.props.mediaUrl")} vars />
      {media.data && media.data.length > 0 && (
        <select aria-label={t("editor.props.pickMedia")} value="" onChange={(e) => e.target.value && ctx.set({ [k]: e.target.value })}>
          <option value="">{t("editor.props.pickMedia")}</option>
          {media.data.map((m) => <option key={m.id} value={m.url}>{m.fileName} ({m.mimeType})</option>)}
        </select>
      )}
    </div>
  );
}

function MessageFields({ ctx, node, projectId }: { ctx: FieldCtx; node: SNode; projectId: number }) {
  const { t } = useTranslation();
  const media = MEDIA_FIELD[node.type];
  return (
    <>
      {(node.type === "start" || node.type === "command") && <Text ctx={ctx} k="command" label={t("editor.props.command")} />}
      <Text ctx={ctx} k="messageText" label={t("editor.props.messageText")} multiline />
      <Choice ctx={ctx} k="formatMode" label={t("editor.props.format")} options={["text", "html", "markdown"]} fallback={ctx.data.markdown === true ? "markdown" : "text"} />
      <Check ctx={ctx} k="disableLinkPreview" label={t("editor.props.noPreview")} />
      {media ? <MediaPicker ctx={ctx} projectId={projectId} k={media} /> : node.type === "message" && <MediaPicker ctx={ctx} projectId={projectId} k="imageUrl" />}
      {media && <Text ctx={ctx} k="mediaCaption" label={t("editor.props.caption")} />}
      <MessageButtons ctx={ctx} />
      <Check ctx={ctx} k="collectUserInput" label={t("editor.props.collect")} />
      {ctx.data.collectUserInput === true && (
        <>
          <Text ctx={ctx} k="inputVariable" label={t("editor.props.inputVariable")} vars />
          <Target ctx={ctx} k="inputTargetNodeId" label={t("editor.props.inputTarget")} />
        </>
      )}
      <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
    </>
  );
}

function TypeFields({ ctx, node, projectId }: { ctx: FieldCtx; node: SNode; projectId: number }) {
  const { t } = useTranslation();
  switch (node.type) {
    case "command_trigger":
      return (
        <>
          <Text ctx={ctx} k="command" label={t("editor.props.command")} placeholder="/start" />
          <Text ctx={ctx} k="description" label={t("editor.props.description")} />
          <Check ctx={ctx} k="showInMenu" label={t("editor.props.showInMenu")} />
          <Text ctx={ctx} k="deepLinkParam" label={t("editor.props.deepLinkParam")} placeholder="promo_7" />
          {typeof ctx.data.deepLinkParam === "string" && ctx.data.deepLinkParam.trim() !== "" && (
            <>
              <Choice ctx={ctx} k="deepLinkMatchMode" label={t("editor.props.matchType")} options={["exact", "startsWith"]} fallback="exact" />
              <Text ctx={ctx} k="deepLinkVarName" label={t("editor.props.deepLinkVarName")} placeholder="campaign" />
            </>
          )}
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
        </>
      );
    case "text_trigger":
      return (
        <>
          <div className="ed-field">
            <label htmlFor="ed-synonyms">{t("editor.props.synonyms")}</label>
            <textarea id="ed-synonyms" rows={3} value={Array.isArray(ctx.data.textSynonyms) ? ctx.data.textSynonyms.join("\n") : ""} onChange={(e) => ctx.set({ textSynonyms: e.target.value.split("\n") })} />
          </div>
          <Choice ctx={ctx} k="textMatchType" label={t("editor.props.matchType")} options={["exact", "contains"]} fallback="exact" />
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
        </>
      );
    case "keyboard":
      return (
        <>
          <Choice ctx={ctx} k="keyboardType" label={t("editor.props.keyboardType")} options={["inline", "reply"]} fallback="inline" />
          <ButtonsEditor ctx={ctx} />
          <LayoutEditor ctx={ctx} />
          <Check ctx={ctx} k="oneTimeKeyboard" label={t("editor.props.oneTime")} />
          <Check ctx={ctx} k="resizeKeyboard" label={t("editor.props.resize")} />
        </>
      );
    case "input":
      return (
        <>
          <Text ctx={ctx} k="inputPrompt" label={t("editor.props.prompt")} />
          {/* the question's buttons (a press answers it, or goes to its target) */}
          {String(ctx.data.inputPrompt ?? "").trim() !== "" && (
            <>
              <Choice ctx={ctx} k="keyboardType" label={t("editor.props.keyboardType")} options={["none", "inline", "reply"]} fallback="none" />
              {ctx.data.keyboardType !== undefined && ctx.data.keyboardType !== "none" && <ButtonsEditor ctx={ctx} />}
            </>
          )}
          <Text ctx={ctx} k="inputVariable" label={t("editor.props.inputVariable")} vars />
          <Choice ctx={ctx} k="inputType" label={t("editor.props.inputType")} options={["text", "any", "number", "email", "phone", "photo", "video", "audio", "document", "contact", "location"]} fallback="text" />
          <Check ctx={ctx} k="inputRequired" label={t("editor.props.required")} />
          <Check ctx={ctx} k="appendVariable" label={t("editor.props.append")} />
          <Check ctx={ctx} k="saveToDatabase" label={t("editor.props.saveDb")} />
          <Target ctx={ctx} k="inputTargetNodeId" label={t("editor.props.inputTarget")} />
          <Num ctx={ctx} k="inputTimeout" label={t("editor.props.inputTimeout")} />
          {Number(ctx.data.inputTimeout) > 0 && <Target ctx={ctx} k="inputTimeoutTarget" label={t("editor.props.inputTimeoutTarget")} />}
        </>
      );
    case "condition":
      return (
        <>
          <Text ctx={ctx} k="variable" label={t("editor.props.variable")} vars />
          <BranchesEditor ctx={ctx} />
          <Target ctx={ctx} k="defaultTargetId" label={t("editor.props.defaultTarget")} />
        </>
      );
    case "set_variable":
      return (
        <>
          <AssignmentsEditor ctx={ctx} />
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
        </>
      );
    case "delay":
      return (
        <>
          <Num ctx={ctx} k="seconds" label={t("editor.props.seconds")} />
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
        </>
      );
    case "http_request":
      return (
        <>
          <Choice ctx={ctx} k="httpRequestMethod" label={t("editor.props.method")} options={["GET", "POST", "PUT", "PATCH", "DELETE"]} fallback="GET" />
          <Text ctx={ctx} k="httpRequestUrl" label="URL" vars placeholder="https://" />
          <Check ctx={ctx} k="httpRequestUrlRaw" label={t("editor.props.urlRaw")} />
          <Text ctx={ctx} k="httpRequestHeaders" label={t("editor.props.headers")} multiline placeholder='{"Accept": "application/json"}' />
          <Text ctx={ctx} k="httpRequestBody" label={t("editor.props.body")} multiline />
          <Num ctx={ctx} k="httpRequestTimeout" label={t("editor.props.timeout")} />
          <Choice ctx={ctx} k="httpRequestAuthType" label={t("editor.props.auth")} options={["none", "bearer"]} fallback="none" />
          {ctx.data.httpRequestAuthType === "bearer" && <Text ctx={ctx} k="httpRequestAuthBearerToken" label={t("editor.props.token")} vars />}
          <Text ctx={ctx} k="httpRequestResponseVariable" label={t("editor.props.responseVar")} vars />
          <Text ctx={ctx} k="httpRequestStatusVariable" label={t("editor.props.statusVar")} vars />
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
          <HttpTest projectId={projectId} data={ctx.data} />
        </>
      );
    case "reaction_trigger":
      return <ReactionFields ctx={ctx} />;
    case "member_trigger":
      return <MemberFields ctx={ctx} />;
    case "webhook_trigger":
      return (
        <>
          <HookUrl projectId={projectId} nodeId={node.id} />
          <Text ctx={ctx} k="userField" label={t("editor.hook.userField")} placeholder="user_id" />
          <Text ctx={ctx} k="variables" label={t("editor.hook.variables")} placeholder="order, total" />
          <Text ctx={ctx} k="variablePrefix" label={t("editor.hook.prefix")} placeholder="order_" />
          <Num ctx={ctx} k="answerStatus" label={t("editor.hook.status")} />
          <Text ctx={ctx} k="answerBody" label={t("editor.hook.body")} multiline placeholder='{"ok":true}' />
          <Num ctx={ctx} k="rateLimitPerMinute" label={t("editor.hook.perMinute")} />
          <Num ctx={ctx} k="tokenId" label={t("editor.hook.tokenId")} />
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
        </>
      );
    case "ai_answer":
      return (
        <>
          <Text ctx={ctx} k="aiBaseUrl" label={t("editor.props.aiBaseUrl")} placeholder="https://api.openai.com/v1" />
          <Text ctx={ctx} k="aiModel" label={t("editor.props.aiModel")} placeholder="gpt-4o-mini" />
          <Text ctx={ctx} k="aiApiKeyEnv" label={t("editor.props.aiKeyEnv")} placeholder="OPENAI_API_KEY" />
          <Text ctx={ctx} k="aiSystemPrompt" label={t("editor.props.aiSystem")} multiline vars />
          <Text ctx={ctx} k="aiUserMessage" label={t("editor.props.aiUser")} vars />
          <Num ctx={ctx} k="aiMemoryTurns" label={t("editor.props.aiMemory")} />
          <Num ctx={ctx} k="aiTemperature" label={t("editor.props.aiTemperature")} />
          <Num ctx={ctx} k="aiMaxTokens" label={t("editor.props.aiMaxTokens")} />
          <Num ctx={ctx} k="aiTimeout" label={t("editor.props.timeout")} />
          <Text ctx={ctx} k="aiSaveTo" label={t("editor.props.aiSaveTo")} vars />
          <Check ctx={ctx} k="aiSendAnswer" label={t("editor.props.aiSend")} />
          {ctx.data.aiSendAnswer !== false && <Choice ctx={ctx} k="aiFormatMode" label={t("editor.props.format")} options={["none", "markdown", "html"]} fallback="none" />}
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
          <Target ctx={ctx} k="errorTransitionTo" label={t("editor.props.onError")} />
        </>
      );
    case "psql_query": {
      const external = ctx.data.connectionSource !== undefined && ctx.data.connectionSource !== "builtin" && ctx.data.connectionSource !== "";
      return (
        <>
          <Choice ctx={ctx} k="connectionSource" label={t("editor.props.sqlConnection")} options={["builtin", "env"]} fallback="builtin" />
          {external && <Text ctx={ctx} k="connectionEnvVar" label={t("editor.props.sqlEnv")} placeholder="SHOP_DB" />}
          {external && <Num ctx={ctx} k="queryTimeout" label={t("editor.props.sqlTimeout")} />}
          <Text ctx={ctx} k="query" label={t("editor.props.sqlQuery")} multiline placeholder="SELECT * FROM orders WHERE user_id = {user_id}" />
          <Text ctx={ctx} k="saveResultTo" label={t("editor.props.sqlSaveTo")} vars />
          <Choice ctx={ctx} k="resultFormat" label={t("editor.props.sqlFormat")} options={["json", "first_row", "text", "affected"]} fallback="json" />
          {ctx.data.resultFormat === "text" && <Text ctx={ctx} k="textTemplate" label={t("editor.props.sqlTemplate")} />}
          <Target ctx={ctx} k="autoTransitionTo" label={t("editor.props.next")} />
          <Target ctx={ctx} k="errorTransitionTo" label={t("editor.props.onError")} />
        </>
      );
    }
    default:
      if (MESSAGE_LIKE.has(node.type)) return <MessageFields ctx={ctx} node={node} projectId={projectId} />;
      return <GenericFields ctx={ctx} type={node.type} />;
  }
}

function RawJson({ node, onApply }: { node: SNode; onApply: (data: Data) => void }) {
  const { t } = useTranslation();
  const text = useMemo(() => JSON.stringify(node.data ?? {}, null, 2), [node.data]);
  const [draft, setDraft] = useState(text);
  const [error, setError] = useState("");
  useEffect(() => setDraft(text), [text]);
  return (
    <div className="ed-field">
      <label htmlFor="ed-raw">{t("editor.props.rawJson")}</label>
      <textarea id="ed-raw" className="ed-code" rows={18} spellCheck={false} value={draft} onChange={(e) => setDraft(e.target.value)} />
      {error && <p className="error small" role="alert">{error}</p>}
      <button
        type="button"
        onClick={() => {
          try {
            const v = JSON.parse(draft);
            if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error(t("editor.props.rawObject"));
            setError("");
            onApply(v);
          } catch (e) {
            setError((e as Error).message);
          }
        }}
      >
        {t("editor.props.applyJson")}
      </button>
    </div>
  );
}

/** Whether the change comes from typing: the focused field is one a person types into (not a select, a checkbox or a button). */
function typing(): boolean {
  const el = document.activeElement;
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && ["text", "search", "url", "email", "tel", "number"].includes(el.type));
}

export function Properties({ store, projectId }: { store: EditorStore; projectId: number }) {
  const { t } = useTranslation();
  const doc = useEditor(store, (s) => s.doc);
  const selected = useEditor(store, (s) => s.selected);
  const [raw, setRaw] = useState(false);
  const node = selected.length === 1 ? doc.sheets.flatMap((s) => s.nodes).find((n) => n.id === selected[0]) : undefined;
  const targets = useMemo<[string, string][]>(
    () => doc.sheets.flatMap((s) => s.nodes.filter((n) => n.id !== node?.id).map((n): [string, string] => [n.id, `${s.name ?? s.id} · ${labelOf(n, (type) => t(`editor.types.${type}`, type))}`])),
    [doc, node?.id, t],
  );
  const variables = useMemo(() => variablesOf(doc), [doc]);
  if (!node) return <aside className="ed-props" aria-label={t("editor.props.title")}><p className="muted small">{selected.length > 1 ? t("editor.props.many", { count: selected.length }) : t("editor.props.none")}</p></aside>;
  const ctx: FieldCtx = {
    data: node.data ?? {},
    // text typed into one field is one undo step per burst (store.ts MERGE_MS); a choice is a step of its own
    set: (patch) => store.commit(updateNode(store.state.doc, node.id, (n) => ({ ...n, data: { ...(n.data ?? {}), ...patch } })), {}, typing() ? `${node.id}\n${Object.keys(patch).sort().join()}` : undefined),
    targets,
    variables,
  };
  return (
    <aside className="ed-props" aria-label={t("editor.props.title")}>
      <header className="ed-props-head">
        <strong>{t(`editor.types.${node.type}`, { defaultValue: node.type })}</strong>
        <code className="small muted">{node.id}</code>
        <label className="ed-check small"><input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> JSON</label>
      </header>
      <FunnelFacts store={store} nodeId={node.id} doc={doc} />
      <datalist id="ed-variables">{variables.map((v) => <option key={v} value={v} />)}</datalist>
      {raw ? <RawJson node={node} onApply={(data) => store.commit(updateNode(store.state.doc, node.id, (n) => ({ ...n, data })))} /> : <TypeFields ctx={ctx} node={node} projectId={projectId} />}
    </aside>
  );
}
