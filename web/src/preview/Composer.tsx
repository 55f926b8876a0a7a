// What the preview user types or sends: text, a /command from the menu, a photo, a document, a
// location or a contact; the bot's reply keyboard sits above it.
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fileToBase64, type PreviewAction, type PreviewTranscript, type ReplyButton } from "./api";
import type { MiniAppOpen } from "./MiniApp";

interface Props {
  commands: { command: string; description: string }[];
  keyboard: PreviewTranscript["replyKeyboard"];
  disabled: boolean;
  send: (action: PreviewAction) => Promise<unknown>;
  onMiniApp: (app: MiniAppOpen) => void;
}

const DEMO_LOCATION = { latitude: 55.75222, longitude: 37.61556 };
const DEMO_PHONE = "+79990001122";

export function Composer({ commands, keyboard, disabled, send, onMiniApp }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [menu, setMenu] = useState(false);
  const photoInput = useRef<HTMLInputElement>(null);
  const docInput = useRef<HTMLInputElement>(null);

  const submit = async (value: string) => {
    const v = value.trim();
    if (!v) return;
    setText("");
    await send({ type: "text", text: v });
  };

  const pressKey = (b: ReplyButton | string) => {
    if (typeof b === "string") return void send({ type: "text", text: b });
    if (b.request_contact) return void send({ type: "contact", phone: DEMO_PHONE });
    if (b.request_location) return void send({ type: "location", ...DEMO_LOCATION });
    if (b.request_poll) return void send({ type: "poll", question: t("preview.demoPoll") });
    if (b.web_app) return onMiniApp({ url: b.web_app.url, replyButton: b.text });
    void send({ type: "text", text: b.text });
  };

  const pick = async (input: HTMLInputElement | null, kind: "photo" | "document") => {
    const file = input?.files?.[0];
    if (!file || !input) return;
    input.value = "";
    const data = await fileToBase64(file);
    if (kind === "photo") await send({ type: "photo", fileName: file.name, data });
    else await send({ type: "document", fileName: file.name, mimeType: file.type || undefined, data });
  };

  return (
    <div className="pv-composer">
      {keyboard && (
        <div className="pv-reply-keyboard" aria-label={t("preview.replyKeyboard")}>
          {keyboard.rows.map((row, i) => (
            <div className="pv-row" key={i}>
              {row.map((b, j) => (
                <button key={j} type="button" className={typeof b !== "string" && b.style ? `btn pv-key pv-key-${b.style}` : "btn pv-key"} disabled={disabled} onClick={() => pressKey(b)}>
                  {typeof b === "string" ? b : b.text}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
      {menu && commands.length > 0 && (
        <ul className="pv-commands" role="menu">
          {commands.map((c) => (
            <li key={c.command}>
              <button type="button" role="menuitem" className="btn ghost" onClick={() => { setMenu(false); void send({ type: "text", text: `/${c.command}` }); }}>
                <strong>/{c.command}</strong> <span className="muted">{c.description}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="pv-input-row" onSubmit={(e) => { e.preventDefault(); void submit(text); }}>
        <button type="button" className="btn ghost" title={t("preview.commands")} aria-label={t("preview.commands")} disabled={disabled || commands.length === 0} onClick={() => setMenu((m) => !m)}>/</button>
        <input className="grow" value={text} disabled={disabled} onChange={(e) => setText(e.target.value)} placeholder={t("preview.typeMessage")} aria-label={t("preview.typeMessage")} maxLength={4096} />
        <button type="submit" className="btn primary" disabled={disabled || !text.trim()}>{t("preview.send")}</button>
      </form>
      <div className="pv-attach">
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => photoInput.current?.click()}>{t("preview.sendPhoto")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => docInput.current?.click()}>{t("preview.sendDocument")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => void send({ type: "location", ...DEMO_LOCATION })}>{t("preview.sendLocation")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => void send({ type: "contact", phone: DEMO_PHONE })}>{t("preview.sendContact")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => void send({ type: "join_request" })}>{t("preview.joinRequest")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => void send({ type: "join_group" })}>{t("preview.joinGroup")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => void send({ type: "promote" })}>{t("preview.promote")}</button>
        <button type="button" className="btn ghost small" disabled={disabled} onClick={() => void send({ type: "leave_group" })}>{t("preview.leaveGroup")}</button>
        <input ref={photoInput} type="file" accept="image/*" hidden onChange={(e) => void pick(e.currentTarget, "photo")} />
        <input ref={docInput} type="file" hidden onChange={(e) => void pick(e.currentTarget, "document")} />
      </div>
    </div>
  );
}
