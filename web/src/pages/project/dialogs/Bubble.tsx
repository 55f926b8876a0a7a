// One recorded message as the user saw it: text with formatting, media, location, contact, the
// inline buttons; a press shows as a line of its own. Bot messages name the node that sent them
// (a link into the editor) and, while they still exist in the chat, can be edited or deleted.
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import type { ChatMessage } from "./api";
import { MessageText } from "./MessageText";
import { useWhen } from "./when";


const PICTURES = new Set(["photo", "sticker"]);
const MOVIES = new Set(["video", "animation", "video_note"]);
const SOUNDS = new Set(["voice", "audio"]);

/**
 * A media message: its file from this server (which fetches it through the token; the page never
 * sees a messenger URL), in place for pictures, video and sound, a link for the rest. Without a
 * recorded file, or when the file cannot be had, the kind's name stands for it.
 */
function Media({ m, tokenId }: { m: ChatMessage; tokenId: number }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const label = t(`preview.media.${m.kind}`, { defaultValue: m.kind });
  const name = <div className="dlg-media">{label}</div>;
  if (!m.hasFile || failed || m.deletedAt) return name;
  const src = `/api/bot/tokens/${tokenId}/chats/${encodeURIComponent(m.chatId)}/messages/${m.id}/media`;
  let shown: ReactNode;
  if (PICTURES.has(m.kind)) shown = <img className="dlg-file" src={src} alt={label} loading="lazy" onError={() => setFailed(true)} />;
  else if (MOVIES.has(m.kind)) shown = <video className="dlg-file" src={src} controls preload="metadata" onError={() => setFailed(true)} />;
  else if (SOUNDS.has(m.kind)) shown = <audio src={src} controls preload="metadata" onError={() => setFailed(true)} />;
  else return <a className="dlg-media" href={src} download>{label}</a>;
  return <div data-testid="dlg-file">{shown}</div>;
}

interface Props {
  m: ChatMessage;
  projectId: number;
  tokenId: number;
  onEdit: (m: ChatMessage, text: string) => Promise<void>;
  onDelete: (m: ChatMessage) => void;
}

export function Bubble({ m, projectId, tokenId, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const when = useWhen();
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (m.kind === "callback") {
    return (
      <li className="dlg-press" data-testid="dlg-message" data-direction="in" data-kind="callback">
        <span>{t("dialogs.pressed", { label: m.text || m.callbackData || "?" })}</span>
        <span className="muted small"> {when(m.createdAt, true)}</span>
      </li>
    );
  }
  const out = m.direction === "out";
  const canChange = out && !m.deletedAt && m.messengerMessageId !== null;
  const classes = ["pv-msg", out ? "pv-user dlg-out" : "pv-bot dlg-in", m.deletedAt ? "pv-deleted" : ""].filter(Boolean).join(" ");
  const save = async () => {
    if (editing === null) return;
    setBusy(true);
    try {
      await onEdit(m, editing);
      setEditing(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className={classes} data-testid="dlg-message" data-direction={m.direction} data-sent-by={m.sentBy} data-id={m.id}>
      <div className="pv-bubble">
        {m.kind !== "text" && m.kind !== "location" && m.kind !== "contact" && <Media m={m} tokenId={tokenId} />}
        {m.kind === "location" && <div>📍 {m.text}</div>}
        {m.kind === "contact" && <div>👤 {m.text}</div>}
        {editing !== null ? (
          <div className="stack dlg-edit">
            <label>
              <span className="sr-only">{t("dialogs.editText")}</span>
              <textarea value={editing} rows={3} onChange={(e) => setEditing(e.target.value)} aria-label={t("dialogs.editText")} />
            </label>
            <div className="row end">
              <button type="button" className="btn small-btn" onClick={() => setEditing(null)}>{t("common.cancel")}</button>
              <button type="button" className="btn small-btn primary" disabled={busy || !editing.trim()} onClick={() => void save()}>{t("common.save")}</button>
            </div>
          </div>
        ) : (
          m.text && m.kind !== "location" && m.kind !== "contact" && <div className="pv-text" data-testid="dlg-text"><MessageText message={m} /></div>
        )}
        <div className="pv-meta">
          {out && <span>{t(`dialogs.sentBy.${m.sentBy}`, { defaultValue: m.sentBy })}</span>}
          {m.editedAt && <span>{t("preview.edited")}</span>}
          {m.deletedAt && <span>{t("preview.deleted")}</span>}
          <span>{when(m.createdAt, true)}</span>
        </div>
      </div>
      {m.buttons && m.buttons.length > 0 && (
        <div className="pv-inline" aria-label={t("dialogs.buttons")}>
          {m.buttons.map((row, i) => (
            <div className="pv-row" key={i}>
              {row.map((b, j) => (
                <span key={j} className="btn pv-key dlg-key" title={b.url ?? (b.goto ? t("dialogs.gotoNode", { node: b.goto }) : b.data)}>
                  {b.text}{b.url ? " ↗" : b.goto ? ` → ${b.goto}` : ""}
                </span>
              ))}
            </div>
          ))}
        </div>
      )}
      <div className="dlg-actions">
        {m.nodeId && (
          <Link className="small dlg-node" href={`/projects/${projectId}/scenario?node=${encodeURIComponent(m.nodeId)}`} title={t("dialogs.openNode")}>
            {t("dialogs.fromNode", { node: m.nodeId })}
          </Link>
        )}
        {canChange && editing === null && (
          <>
            <button type="button" className="btn ghost small-btn" onClick={() => setEditing(m.text)}>{t("common.edit")}</button>
            <button type="button" className="btn ghost small-btn" onClick={() => onDelete(m)}>{t("common.delete")}</button>
          </>
        )}
      </div>
    </li>
  );
}
