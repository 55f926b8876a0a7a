// One entry of the preview chat: a message of either side (text, media, location, contact,
// inline keyboard) or a short notice of the bot; edits and deletions show as they happen.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { previewApi, type PreviewEntry } from "./api";
import { Formatted } from "./formatted";
import { InvoicePay } from "./InvoicePay";
import { buttonHref } from "../../../src/lib/button-url";
import { type MiniAppOpen } from "./MiniApp";

/** The button's colour (Bot API style), as a class. */
const keyClass = (style: unknown) => (style === "primary" || style === "success" || style === "danger" ? `btn pv-key pv-key-${style}` : "btn pv-key");

function CopyKey({ label, value, style }: { label: string; value: string; style: unknown }) {
  const { t } = useTranslation();
  const copy = () => void navigator.clipboard?.writeText(value).catch(() => undefined);
  return <button type="button" className={keyClass(style)} title={t("preview.copies", { text: value })} data-copy={value} onClick={copy}>{label} ⧉</button>;
}

interface Props {
  entry: PreviewEntry;
  sessionId: string;
  highlighted: boolean;
  onPress: (messageId: number, data: string) => void;
  onMiniApp: (app: MiniAppOpen) => void;
  /** a 👍 reaction on this bot message (message_reaction) */
  onReact?: (messageId: number, emoji: string) => void;
  /** Pay on an invoice of the bot: answers the transcript version of its change, or null when refused */
  onPay?: (messageId: number) => Promise<number | null>;
  onSelectNode?: (nodeId: string) => void;
  /** the node's name in words (its text); the raw id only when there is none */
  nodeName?: string;
  /** sent by the preview user now looking at the chat: drawn on the right, unnamed */
  mine: boolean;
  /** in a group, the sender of a message not the viewer's own, named above its text as Telegram does */
  sender?: string;
}

function Media({ entry, sessionId }: { entry: PreviewEntry; sessionId: string }) {
  const { t } = useTranslation();
  const m = entry.media!;
  // media named by URL stays a link: the chat loads nothing from other hosts
  if (m.url) {
    const label = `${t(`preview.media.${m.kind}`, { defaultValue: m.kind })}: ${m.url}`;
    const href = buttonHref(m.url);
    return href ? <a className="pv-media-link" href={href} target="_blank" rel="noopener noreferrer nofollow">{label}</a> : <span className="pv-media-link">{label}</span>;
  }
  const src = previewApi.fileUrl(sessionId, m.fileId);
  if (m.kind === "photo" || m.kind === "sticker" || (m.mimeType ?? "").startsWith("image/")) return <img className="pv-photo" src={src} alt={t("preview.media.photo")} />;
  return <a className="pv-media-link" href={src} target="_blank" rel="noopener">📎 {m.fileName ?? t(`preview.media.${m.kind}`, { defaultValue: m.kind })}</a>;
}

/** Telegram's common reactions: 👍 at hand, the others behind "…" (a reaction_trigger may watch any). */
const REACTIONS = ["❤", "🔥", "🎉", "😁", "😢", "👎", "🤔"];

function Reactions({ onReact }: { onReact: (emoji: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const react = (emoji: string) => (e: React.MouseEvent) => {
    e.stopPropagation();
    setOpen(false);
    onReact(emoji);
  };
  return (
    <span className="pv-reactions">
      <button type="button" className="pv-react" title={t("preview.react", { emoji: "👍" })} aria-label={t("preview.react", { emoji: "👍" })} onClick={react("👍")}>👍</button>
      <button type="button" className="pv-react" title={t("preview.moreReactions")} aria-label={t("preview.moreReactions")} aria-expanded={open} onClick={(e) => { e.stopPropagation(); setOpen((o) => !o); }}>…</button>
      {open && REACTIONS.map((emoji) => (
        <button key={emoji} type="button" className="pv-react" title={t("preview.react", { emoji })} aria-label={t("preview.react", { emoji })} onClick={react(emoji)}>{emoji}</button>
      ))}
    </span>
  );
}

export function Message({ entry, sessionId, highlighted, onPress, onMiniApp, onReact, onPay, onSelectNode, nodeName, mine, sender }: Props) {
  const { t, i18n } = useTranslation();
  if (entry.kind === "notice") return <li className="pv-notice" role="status">{entry.text}</li>;
  const classes = ["pv-msg", mine ? "pv-user" : entry.from === "bot" ? "pv-bot" : "pv-member", entry.deleted ? "pv-deleted" : "", highlighted ? "pv-highlight" : "", entry.node && onSelectNode ? "pv-clickable" : ""];
  const select = () => entry.node && onSelectNode?.(entry.node);
  // a node named by the very words of its message needs no second line; a raw id never shows
  const said = (entry.text ?? "").replace(/\s+/g, " ").trim();
  const repeats = !!nodeName && said.startsWith(nodeName.replace(/…$/, ""));
  return (
    <li className={classes.filter(Boolean).join(" ")} data-testid="pv-message" data-from={entry.from} data-node={entry.node ?? ""}>
      <div className="pv-bubble" onClick={select} title={entry.node ? t(onSelectNode ? "preview.fromNodeClick" : "preview.fromNode", { node: nodeName || entry.node }) : undefined}>
        {sender && <div className="pv-sender" data-testid="pv-sender">{sender}</div>}
        {entry.forwarded && <div className="pv-meta">{t("preview.forwarded")}</div>}
        {entry.media && <Media entry={entry} sessionId={sessionId} />}
        {entry.location && <div>📍 {entry.location.latitude.toFixed(5)}, {entry.location.longitude.toFixed(5)}</div>}
        {entry.contact && <div>👤 {entry.contact.first_name} {entry.contact.phone_number}</div>}
        {entry.text !== undefined && <div className="pv-text" data-testid="pv-text"><Formatted text={entry.text} source={entry.source} /></div>}
        <div className="pv-meta">
          {entry.pinned && <span>📌 </span>}
          {entry.edits > 0 && <span>{t("preview.edited")} </span>}
          {entry.deleted && <span>{t("preview.deleted")} </span>}
          {entry.node && nodeName && !repeats && <span className="pv-node" data-testid="pv-node">↳ {nodeName}</span>}
          {onReact && entry.from === "bot" && !entry.deleted && entry.messageId !== undefined && <Reactions onReact={(emoji) => onReact(entry.messageId!, emoji)} />}
          {/* every Telegram bubble ends with its time; without it the chat reads as a log, not a chat */}
          <time className="pv-time" data-testid="pv-time" dateTime={new Date(entry.at).toISOString()}>{new Date(entry.at).toLocaleTimeString(i18n.language, { hour: "2-digit", minute: "2-digit" })}</time>
        </div>
      </div>
      {!entry.deleted && entry.invoice && onPay && entry.messageId !== undefined && (
        <div className="pv-inline">
          <InvoicePay entry={{ ...entry, invoice: entry.invoice, messageId: entry.messageId }} onPay={onPay} />
        </div>
      )}
      {!entry.deleted && entry.replyMarkup?.inline_keyboard && (
        <div className="pv-inline">
          {entry.replyMarkup.inline_keyboard.map((row, i) => (
            <div className="pv-row" key={i}>
              {row.map((b, j) =>
                b.web_app !== undefined ? (
                  <button key={j} type="button" className={keyClass(b.style)} onClick={() => onMiniApp({ url: b.web_app!.url })}>{b.text} ▣</button>
                ) : b.copy_text !== undefined ? (
                  <CopyKey key={j} label={b.text} value={b.copy_text.text} style={b.style} />
                ) : b.url !== undefined ? (
                  // Only what Telegram would accept becomes a link (docs/preview.md "Button URLs").
                  buttonHref(b.url) ? (
                    <a key={j} className={keyClass(b.style)} href={buttonHref(b.url)!} target="_blank" rel="noopener noreferrer nofollow">{b.text} ↗</a>
                  ) : (
                    <span key={j} className="btn pv-key">{b.text}</span>
                  )
                ) : (
                  <button key={j} type="button" className={keyClass(b.style)} disabled={b.callback_data === undefined} onClick={() => b.callback_data !== undefined && onPress(entry.messageId!, b.callback_data)}>
                    {b.text}
                  </button>
                ),
              )}
            </div>
          ))}
        </div>
      )}
    </li>
  );
}
