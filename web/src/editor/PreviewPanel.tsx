// The preview chat as a side panel of the editor: it runs the current, unsaved document; each bot
// message flashes the node that produced it and adds it to the walked path (lit on the canvas),
// a click on a message selects its node, and the chat can start over at the selected node.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { PreviewChat } from "../preview";
import { nodeName } from "./names";
import { startingAt } from "./start-at";
import { useEditor, type EditorStore } from "./store";
import { useWalkedStyle } from "./walked-style";

export const FLASH_MS = 1500;

export function PreviewPanel({ store, projectId, onFlash, below = false }: { store: EditorStore; projectId: number; onFlash: (nodeId: string | null) => void; below?: boolean }) {
  const { t } = useTranslation();
  // below the canvas (a phone, a window too narrow for it beside) the chat is out of sight: it comes into view as it goes there
  const root = useRef<HTMLElement>(null);
  useEffect(() => {
    if (below) root.current?.scrollIntoView({ block: "start" });
  }, [below]);
  const doc = useEditor(store, (s) => s.doc);
  const selected = useEditor(store, (s) => s.selected);
  // node positions do not change what the bot does: a drag does not restart the preview
  const [document, setDocument] = useState(doc);
  const behaviour = useMemo(() => JSON.stringify(doc.sheets.map((s) => s.nodes.map((n) => [n.id, n.type, n.data]))), [doc]);
  useEffect(() => setDocument(store.state.doc), [behaviour, store]);
  const byId = useMemo(() => new Map(doc.sheets.flatMap((s) => s.nodes.map((n) => [n.id, n] as const))), [doc]);
  const name = useCallback((id: string) => {
    const n = byId.get(id);
    return n ? nodeName(n, t(`editor.types.${n.type}`, { defaultValue: n.type })) : undefined;
  }, [byId, t]);
  const [path, setPath] = useState<string[]>([]);
  useWalkedStyle(doc, path);
  const onNodeMessage = useCallback(
    (nodeId: string) => {
      onFlash(nodeId);
      setPath((p) => (p.at(-1) === nodeId ? p : [...p, nodeId]));
      setTimeout(() => onFlash(null), FLASH_MS);
    },
    [onFlash],
  );
  const [restartRequest, setRestartRequest] = useState<{ seq: number; document: unknown; text: string } | null>(null);
  const from = selected.length === 1 ? byId.get(selected[0]!) : undefined;
  const startHere = from && !from.type.endsWith("_trigger") ? from : undefined;
  const extra = startHere ? (
    <button type="button" className="btn small pv-from-here" onClick={() => setRestartRequest((r) => ({ seq: (r?.seq ?? 0) + 1, document: startingAt(store.state.doc, startHere.id), text: "/start" }))}>
      ▶ {t("preview.fromHere", { node: name(startHere.id) })}
    </button>
  ) : null;
  return (
    <aside className="ed-preview" data-testid="editor-preview" ref={root}>
      <PreviewChat
        projectId={projectId}
        document={document}
        compact
        highlightNode={selected.length === 1 ? selected[0] : null}
        onNodeMessage={onNodeMessage}
        onSelectNode={(id) => store.focusNode(id)}
        nodeName={name}
        onRestart={() => setPath([])}
        restartRequest={restartRequest}
        extra={extra}
        hookNode={from?.type === "webhook_trigger" ? from.id : undefined}
      />
    </aside>
  );
}
