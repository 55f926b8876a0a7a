// Writing as the bot: text with formatting (buttons wrap the selection in Telegram's HTML tags),
// a file from the project's media, and inline buttons that open a URL or run a scenario node.
// Ctrl+Enter sends. The server checks everything again (docs/dialogs.md).
import { useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, get } from "../../../api/client";
import type { MediaItem } from "../../../api/types";
import { dialogsApi, TEXT_MAX, type SendBody, type SendButton } from "./api";
import { useScenarioNodes } from "./nodes";

type Format = NonNullable<SendBody["format"]>;
interface DraftButton {
  text: string;
  kind: "url" | "goto";
  target: string;
  /** starts a new row (the first button always does) */
  newRow: boolean;
}

const WRAPS: { label: string; name: string; open: string; close: string }[] = [
  { label: "B", name: "bold", open: "<b>", close: "</b>" },
  { label: "I", name: "italic", open: "<i>", close: "</i>" },
  { label: "U", name: "underline", open: "<u>", close: "</u>" },
  { label: "S", name: "strike", open: "<s>", close: "</s>" },
  { label: "</>", name: "code", open: "<code>", close: "</code>" },
  { label: "URL", name: "link", open: '<a href="https://">', close: "</a>" },
];

function rowsOf(buttons: DraftButton[]): SendButton[][] {
  const rows: SendButton[][] = [];
  for (const b of buttons) {
    const button: SendButton = b.kind === "url" ? { text: b.text.trim(), url: b.target.trim() } : { text: b.text.trim(), goto: b.target };
    if (b.newRow || rows.length === 0) rows.push([button]);
    else rows.at(-1)!.push(button);
  }
  return rows;
}

/** The project's media, fetched afresh each time the panel opens (a file uploaded meanwhile shows). */
function MediaPick({ projectId, value, onChange }: { projectId: number; value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const media = useQuery({ queryKey: ["media", projectId], queryFn: () => get<MediaItem[]>(`/api/projects/${projectId}/media`), refetchOnMount: "always" });
  return (
    <label>
      {t("dialogs.media")}
      <select value={value ?? ""} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">{t("dialogs.noMedia")}</option>
        {media.data?.map((m) => <option key={m.id} value={m.id}>{m.fileName}</option>)}
      </select>
    </label>
  );
}

export function Composer({ projectId, tokenId, chatId, blocked, onSent }: { projectId: number; tokenId: number; chatId: string; blocked: boolean; onSent: () => void }) {
  const { t } = useTranslation();
  const area = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState("");
  const [format, setFormat] = useState<Format>("none");
  const [mediaId, setMediaId] = useState<number | null>(null);
  const [buttons, setButtons] = useState<DraftButton[]>([]);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nodes = useScenarioNodes(projectId);

  const wrap = (open: string, close: string) => {
    const el = area.current;
    if (!el) return;
    const { selectionStart: a, selectionEnd: b } = el;
    setText(text.slice(0, a) + open + text.slice(a, b) + close + text.slice(b));
    setFormat("html");
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(a + open.length, b + open.length);
    });
  };
  const setButton = (i: number, patch: Partial<DraftButton>) => setButtons((bs) => bs.map((b, j) => (j === i ? { ...b, ...patch } : b)));

  const send = async () => {
    if (!text.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      const body: SendBody = { text, format };
      if (mediaId !== null) body.mediaId = mediaId;
      if (buttons.length > 0) body.buttons = rowsOf(buttons);
      await dialogsApi.send(tokenId, chatId, body);
      setText("");
      setButtons([]);
      setMediaId(null);
      onSent();
    } catch (e) {
      setError(errorText(e));
      onSent(); // a 409 BOT_BLOCKED marks the chat blocked: show it
    } finally {
      setBusy(false);
    }
  };

  const over = text.length > TEXT_MAX;
  return (
    <form className="dlg-composer" onSubmit={(e) => { e.preventDefault(); void send(); }} aria-label={t("dialogs.composer")}>
      {blocked && <p className="small warn-text">{t("dialogs.blockedNote")}</p>}
      <div className="dlg-format" role="toolbar" aria-label={t("dialogs.formatting")}>
        {WRAPS.map((w) => (
          <button key={w.name} type="button" className="btn ghost small-btn" onClick={() => wrap(w.open, w.close)} aria-label={t(`dialogs.wrap.${w.name}`)} title={t(`dialogs.wrap.${w.name}`)}>{w.label}</button>
        ))}
        <label className="compact-label small">
          <span className="sr-only">{t("dialogs.format")}</span>
          <select value={format} onChange={(e) => setFormat(e.target.value as Format)} aria-label={t("dialogs.format")}>
            <option value="none">{t("dialogs.formats.none")}</option>
            <option value="html">HTML</option>
            <option value="markdown">Markdown</option>
          </select>
        </label>
        <button type="button" className={more ? "btn small-btn active-btn" : "btn small-btn"} aria-expanded={more} onClick={() => setMore((m) => !m)}>{t("dialogs.attach")}</button>
      </div>
      {more && (
        <div className="dlg-extras stack">
          <MediaPick projectId={projectId} value={mediaId} onChange={setMediaId} />
          <fieldset className="dlg-buttons">
            <legend>{t("dialogs.buttons")}</legend>
            {buttons.map((b, i) => (
              <div key={i} className="dlg-button-row" data-testid="draft-button">
                <input aria-label={t("dialogs.buttonText")} placeholder={t("dialogs.buttonText")} value={b.text} maxLength={64} onChange={(e) => setButton(i, { text: e.target.value })} />
                <select aria-label={t("dialogs.buttonKind")} value={b.kind} onChange={(e) => setButton(i, { kind: e.target.value as DraftButton["kind"], target: "" })}>
                  <option value="url">{t("dialogs.buttonUrl")}</option>
                  <option value="goto">{t("dialogs.buttonGoto")}</option>
                </select>
                {b.kind === "url" ? (
                  <input aria-label={t("dialogs.buttonTarget")} placeholder="https://" type="url" value={b.target} onChange={(e) => setButton(i, { target: e.target.value })} />
                ) : (
                  <select aria-label={t("dialogs.buttonNode")} value={b.target} onChange={(e) => setButton(i, { target: e.target.value })}>
                    <option value="">—</option>
                    {nodes.data?.map((n) => <option key={n.id} value={n.id}>{n.label}</option>)}
                  </select>
                )}
                {i > 0 && (
                  <label className="compact-label small">
                    <input type="checkbox" checked={b.newRow} onChange={(e) => setButton(i, { newRow: e.target.checked })} /> {t("dialogs.newRow")}
                  </label>
                )}
                <button type="button" className="btn ghost small-btn" aria-label={t("dialogs.removeButton", { text: b.text || i + 1 })} onClick={() => setButtons((bs) => bs.filter((_, j) => j !== i))}>✕</button>
              </div>
            ))}
            <button type="button" className="btn small-btn" onClick={() => setButtons((bs) => [...bs, { text: "", kind: "url", target: "", newRow: true }])}>{t("dialogs.addButton")}</button>
          </fieldset>
        </div>
      )}
      <div className="dlg-input">
        <label className="grow">
          <span className="sr-only">{t("dialogs.message")}</span>
          <textarea
            ref={area}
            rows={2}
            value={text}
            placeholder={t("dialogs.message")}
            aria-label={t("dialogs.message")}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                void send();
              }
            }}
          />
        </label>
        <button type="submit" className="btn primary" disabled={busy || !text.trim() || over}>{t("dialogs.send")}</button>
      </div>
      <div className="row between small">
        <span className={over ? "error" : "muted"}>{text.length} / {TEXT_MAX}</span>
        <span className="muted">{t("dialogs.sendHint")}</span>
      </div>
      {error && <p className="error small" role="alert">{error}</p>}
    </form>
  );
}
