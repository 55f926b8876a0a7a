// Runtime source: what a Telegram update or a send says, as the message store records it — kind and
// text, formatting, buttons, the chat, a deep link's source (docs/dialogs.md). Pure: no storage.
// (Part of every generated bot; see types.ts.)
import type { IncomingMessage } from "./types";

// ─── What an update says: kind, text, buttons, the chat, the person ────────────

export type Button = { text: string; url?: string; data?: string };
export type ChatInfo = { kind: string; title: string | null; userId: string | null; firstName: string | null; username: string | null };
export type Formatting = { format: string | null; entities: string | null };

export function kindOf(m: IncomingMessage): { kind: string; text: string } {
  const caption = m.caption ?? "";
  if (m.text !== undefined) return { kind: "text", text: m.text };
  if (m.photo) return { kind: "photo", text: caption };
  if (m.video) return { kind: "video", text: caption };
  if (m.animation) return { kind: "animation", text: caption };
  if (m.document) return { kind: "document", text: caption };
  if (m.voice) return { kind: "voice", text: caption };
  if (m.audio) return { kind: "audio", text: caption };
  if (m.video_note) return { kind: "video_note", text: "" };
  if (m.sticker) return { kind: "sticker", text: m.sticker.emoji ?? "" };
  if (m.location) return { kind: "location", text: m.location.latitude + "," + m.location.longitude };
  if (m.contact) return { kind: "contact", text: m.contact.phone_number };
  if (m.poll) return { kind: "poll", text: m.poll.question };
  if (m.successful_payment) return { kind: "successful_payment", text: m.successful_payment.total_amount + " " + m.successful_payment.currency };
  return { kind: Object.keys(m).find((k) => !/^(message_id|date|chat|from|message_thread_id|is_topic_message|entities|caption_entities)$/.test(k)) ?? "other", text: caption };
}

/**
 * The kind of a message the bot sent, in the words kindOf gives a user's (Dialogs shows both alike):
 * an album's items and a forward by what the messenger's answer holds (a photo, a video, a text), any
 * other by its method, snake_cased as Telegram names the field (sendVideoNote → video_note,
 * sendInvoice → invoice). By the method alone an album's photos were "mediaGroup" (shown as that
 * word, not as pictures) and a video note "videoNote".
 */
export function sentKind(method: string, sent: SentMessage): string {
  if (method === "sendMessage") return "text";
  if (method === "sendMediaGroup" || method === "forwardMessage") return kindOf(sent as unknown as IncomingMessage).kind;
  return method.replace(/^send/, "").replace(/[A-Z]/g, (c, i) => (i > 0 ? "_" : "") + c.toLowerCase());
}

export const NO_LOOK: Formatting = { format: null, entities: null };

/** A parse mode names the format (the text is then marked up); otherwise entities, when there are any. */
export function formattingOf(parseMode: unknown, entities: unknown): Formatting {
  if (typeof parseMode === "string" && parseMode !== "") return { format: parseMode.toLowerCase(), entities: null };
  return Array.isArray(entities) && entities.length > 0 ? { format: null, entities: JSON.stringify(entities) } : NO_LOOK;
}

export function chatInfo(chat: { id: number; type: string; title?: string; first_name?: string; username?: string } | undefined, from: { id: number; first_name?: string; username?: string } | undefined): ChatInfo | null {
  if (!chat) return null;
  const priv = chat.type === "private";
  return {
    kind: chat.type,
    title: chat.title ?? null,
    userId: priv ? String(chat.id) : from ? String(from.id) : null,
    firstName: (priv ? chat.first_name : undefined) ?? from?.first_name ?? null,
    username: (priv ? chat.username : undefined) ?? from?.username ?? null,
  };
}

type MarkupButton = { text?: unknown; url?: unknown; callback_data?: unknown };

export function buttonsOf(markup: unknown): Button[][] | null {
  const m = markup as { inline_keyboard?: MarkupButton[][]; keyboard?: (MarkupButton | string)[][] } | undefined;
  const rows = m?.inline_keyboard ?? m?.keyboard;
  if (!Array.isArray(rows)) return null;
  return rows.map((row) =>
    (Array.isArray(row) ? row : []).map((b) => {
      if (typeof b === "string") return { text: b };
      const out: Button = { text: String(b.text ?? "") };
      if (typeof b.url === "string") out.url = b.url;
      if (typeof b.callback_data === "string") out.data = b.callback_data;
      return out;
    }),
  );
}

/**
 * A successful_payment as Telegram sends one: a charge id and a positive whole amount in some
 * currency. Anything else is ignored whole (not recorded, no flow): one malformed update must not
 * make the record batch it shares with other users' messages fail.
 */
export function wellFormedPayment(p: IncomingMessage["successful_payment"]): p is NonNullable<IncomingMessage["successful_payment"]> {
  return !!p && typeof p.telegram_payment_charge_id === "string" && p.telegram_payment_charge_id !== ""
    && Number.isSafeInteger(p.total_amount) && p.total_amount > 0 && typeof p.currency === "string"
    && typeof p.invoice_payload === "string";
}

/**
 * "/start payload" → payload; with `ref_<id>` the referrer. Anyone can type "/start ref_<own id>":
 * a user is never their own referrer (a referral bonus would pay them for inviting themselves).
 */
export function startParamOf(text: string | undefined, userId: number | undefined): { source: string; referrer: string | null } | undefined {
  const m = /^\/start(?:@\S+)?\s+(\S{1,64})/.exec(text ?? "");
  if (!m) return undefined;
  const ref = /^ref_(\d{1,20})$/.exec(m[1]);
  return { source: m[1], referrer: ref && ref[1] !== String(userId) ? ref[1] : null };
}

export type SentMessage = { message_id: number; chat: { id: number; type: string; title?: string; first_name?: string; username?: string }; text?: string; caption?: string; entities?: unknown[]; caption_entities?: unknown[] };

/** What a send or an edit wrote: the marked-up text and its parse mode, else the plain text and its entities. */
export function sentText(payload: Record<string, unknown>, r: Partial<SentMessage> | undefined): { text: string; look: Formatting; plain?: string } {
  const asked = typeof payload.text === "string" ? payload.text : typeof payload.caption === "string" ? payload.caption : undefined;
  const shown = r?.text ?? r?.caption;
  const look = formattingOf(payload.parse_mode, payload.entities ?? payload.caption_entities ?? r?.entities ?? r?.caption_entities);
  if (look.format && asked !== undefined) return { text: asked, look, plain: shown };
  return { text: shown ?? asked ?? "", look: look.format ? NO_LOOK : look };
}
