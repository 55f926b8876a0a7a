// Writing as the bot: text with formatting, a file from the project's media, and inline buttons
// (the parts the Campaigns wizard shares, in MessageParts.tsx). Ctrl+Enter sends. The server checks
// everything again (docs/dialogs.md).
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { dialogsApi, TEXT_MAX, type SendBody } from "./api";
import { ButtonsEditor, FormatBar, MediaPick, rowsOf, type DraftButton, type Format } from "./MessageParts";
import { useScenarioNodes } from "./nodes";

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
      <FormatBar area={area} text={text} format={format} onText={setText} onFormat={setFormat}>
        <button type="button" className={more ? "btn small-btn active-btn" : "btn small-btn"} aria-expanded={more} onClick={() => setMore((m) => !m)}>{t("dialogs.attach")}</button>
      </FormatBar>
      {more && (
        <div className="dlg-extras stack">
          <MediaPick projectId={projectId} value={mediaId} onChange={setMediaId} />
          <ButtonsEditor buttons={buttons} onChange={setButtons} nodes={nodes.data} />
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
