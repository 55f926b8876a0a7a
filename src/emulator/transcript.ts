// What the preview chat shows: every message either side put into a chat, kept in order with its
// later edits, deletions and pins, the chat's service messages (a payment made) and the bot's short
// notices (answerCallbackQuery texts). Bounded: the oldest entries go first, and the emulator
// forgets them too (onDrop).
import type { Message } from "./bot-api/types";

export interface MediaRef {
  kind: string;
  fileId: string;
  fileName?: string;
  mimeType?: string;
  /** the URL the bot named, when it sent media by URL (the emulator never fetches it) */
  url?: string;
}

export interface TranscriptEntry {
  seq: number;
  /** a message of either side, a service message of the chat (Telegram's own line), or a notice */
  kind: "message" | "service" | "notice";
  chatId: number;
  messageId?: number;
  from: "bot" | "user";
  userId?: number;
  /** visible text or caption, markup removed */
  text?: string;
  /** the text as the bot sent it, with its parse_mode, so the chat can show the formatting */
  source?: { text: string; parseMode: string };
  media?: MediaRef;
  mediaGroupId?: string;
  location?: { latitude: number; longitude: number };
  contact?: { phone_number: string; first_name: string };
  /** a bot's invoice in Stars and where its payment stands */
  invoice?: InvoiceState;
  /** a service entry: the user's payment that the bot confirmed (successful_payment) */
  payment?: { amount: number; currency: string };
  replyMarkup?: Record<string, any>;
  /** the scenario node that produced the message, when the preview runtime named it */
  node?: string;
  forwarded?: boolean;
  edits: number;
  deleted: boolean;
  pinned: boolean;
  at: number;
  /** the transcript version of this entry's latest change (readers ask for changes after a version) */
  v: number;
}

/**
 * An invoice's payment (docs/preview.md "HTTP API"): `pending` from a Pay until the bot answers its
 * checkout; then `paid` (it is paid once), or payable again with the bot's `refusal` or `expired`
 * when the bot gave no answer within Telegram's wait.
 */
export interface InvoiceState {
  amount: number;
  paid: boolean;
  pending: boolean;
  refusal?: string;
  expired?: boolean;
}

/** How a checkout of an invoice ended. */
export type CheckoutOutcome = { paid: true } | { refusal: string } | { expired: true };

const MEDIA_KINDS = ["photo", "video", "audio", "document", "animation", "voice", "video_note", "sticker"];

function mediaOf(m: Message, sentAs: Record<string, any> | undefined): MediaRef | undefined {
  for (const kind of MEDIA_KINDS) {
    const v = m[kind];
    if (!v) continue;
    const file = Array.isArray(v) ? v[v.length - 1] : v;
    // sendPhoto names it under its kind; a media group item as {type, media}
    const named = sentAs?.[kind] ?? (sentAs?.type === kind ? sentAs.media : undefined);
    return {
      kind,
      fileId: String(file.file_id),
      ...(file.file_name ? { fileName: String(file.file_name) } : {}),
      ...(file.mime_type ? { mimeType: String(file.mime_type) } : {}),
      ...(typeof named === "string" && /^https?:\/\//i.test(named) ? { url: named } : {}),
    };
  }
  return undefined;
}

export class Transcript {
  private entries: TranscriptEntry[] = [];
  private seq = 0;
  /** bumped on every change, so a reader can wait for "anything after version N" */
  version = 0;
  private typingUntil = new Map<number, number>();
  private waiters = new Set<() => void>();

  constructor(
    private readonly maxEntries: number,
    private readonly onDrop: (e: TranscriptEntry) => void,
  ) {}

  /** A message as the emulator stored it; `params` are what the bot sent (for URLs and parse_mode). */
  addMessage(m: Message, from: "bot" | "user", params?: Record<string, any>, node?: string) {
    // A user's poll or Mini App answer has no text of its own: the chat shows what was shared.
    const text = m.text ?? m.caption ?? (m.poll ? "📊 " + m.poll.question : m.web_app_data ? "🌐 " + m.web_app_data.button_text
      : m.invoice ? `🧾 ${m.invoice.title} — ${m.invoice.total_amount} ⭐\n${m.invoice.description}` : undefined);
    const raw = params?.text ?? params?.caption;
    const parseMode = typeof params?.parse_mode === "string" ? params.parse_mode : undefined;
    const entry: TranscriptEntry = {
      seq: ++this.seq,
      kind: m.successful_payment ? "service" : "message",
      chatId: Number(m.chat.id),
      messageId: m.message_id,
      from,
      ...(from === "user" && m.from ? { userId: Number(m.from.id) } : {}),
      ...(text !== undefined ? { text: String(text) } : {}),
      ...(parseMode && typeof raw === "string" ? { source: { text: raw, parseMode } } : {}),
      ...(m.media_group_id ? { mediaGroupId: String(m.media_group_id) } : {}),
      ...(m.location ? { location: { latitude: m.location.latitude, longitude: m.location.longitude } } : {}),
      ...(m.contact ? { contact: { phone_number: m.contact.phone_number, first_name: m.contact.first_name } } : {}),
      ...(m.invoice ? { invoice: { amount: m.invoice.total_amount, paid: false, pending: false } } : {}),
      ...(m.successful_payment ? { payment: { amount: m.successful_payment.total_amount, currency: m.successful_payment.currency } } : {}),
      ...(m.reply_markup ? { replyMarkup: m.reply_markup } : params?.reply_markup && from === "bot" ? { replyMarkup: params.reply_markup } : {}),
      ...(node ? { node } : {}),
      ...(m.forward_origin ? { forwarded: true } : {}),
      edits: 0,
      deleted: false,
      pinned: false,
      at: Date.now(),
      v: 0,
    };
    const media = mediaOf(m, params);
    if (media) entry.media = media;
    if (from === "bot") this.typingUntil.delete(entry.chatId);
    this.entries.push(entry);
    while (this.entries.length > this.maxEntries) this.onDrop(this.entries.shift()!);
    this.changed(entry);
    return entry;
  }

  /** An edit: the stored message after the change. */
  edited(m: Message, params: Record<string, any>, node?: string) {
    const e = this.find(Number(m.chat.id), m.message_id);
    if (!e) return;
    const text = m.text ?? m.caption;
    if (text !== undefined) e.text = String(text);
    const raw = params.text ?? params.caption;
    if (typeof params.parse_mode === "string" && typeof raw === "string") e.source = { text: raw, parseMode: params.parse_mode };
    else if (raw !== undefined) delete e.source;
    if (m.reply_markup) e.replyMarkup = m.reply_markup;
    else delete e.replyMarkup;
    if (node) e.node = node;
    e.edits++;
    this.changed(e);
  }

  deleted(chatId: number, messageId: number) {
    const e = this.find(chatId, messageId);
    if (!e || e.deleted) return;
    e.deleted = true;
    this.changed(e);
  }

  pinned(chatId: number, messageId: number, on: boolean) {
    const e = this.find(chatId, messageId);
    if (!e) return;
    e.pinned = on;
    this.changed(e);
  }

  /** A Pay opened a checkout of this invoice message: the chat shows it waiting for the bot. */
  paying(chatId: number, messageId: number) {
    this.setInvoice(chatId, messageId, { paid: false, pending: true });
  }

  /** The checkout's wait ended: the bot confirmed it (paid), refused it, or let Telegram's wait pass. */
  checkoutEnded(chatId: number, messageId: number, outcome: CheckoutOutcome) {
    this.setInvoice(chatId, messageId, { paid: "paid" in outcome, pending: false, ...("paid" in outcome ? {} : outcome) });
  }

  private setInvoice(chatId: number, messageId: number, state: Omit<InvoiceState, "amount">) {
    const e = this.find(chatId, messageId);
    if (!e?.invoice || e.invoice.paid) return;
    // a new object: copies listed before keep what they said
    e.invoice = { amount: e.invoice.amount, ...state };
    this.changed(e);
  }

  notice(chatId: number, text: string, node?: string) {
    const entry: TranscriptEntry = { seq: ++this.seq, kind: "notice", chatId, from: "bot", text, edits: 0, deleted: false, pinned: false, at: Date.now(), v: 0, ...(node ? { node } : {}) };
    this.entries.push(entry);
    while (this.entries.length > this.maxEntries) this.onDrop(this.entries.shift()!);
    this.changed(entry);
  }

  typing(chatId: number) {
    this.typingUntil.set(chatId, Date.now() + 5000); // Telegram shows a chat action for 5 s
    this.changed();
  }

  isTyping(chatId: number) {
    return (this.typingUntil.get(chatId) ?? 0) > Date.now();
  }

  /** Entries of a chat (or all), optionally only those changed after version `since`. */
  list(chatId?: number, since = 0): TranscriptEntry[] {
    return this.entries.filter((e) => (chatId === undefined || e.chatId === chatId) && e.v > since).map((e) => ({ ...e }));
  }

  find(chatId: number, messageId: number): TranscriptEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.chatId === chatId && e.messageId === messageId && e.kind !== "notice") return e;
    }
    return undefined;
  }

  /** Resolves once the version passes `after` (at once if it already has), or after `ms`. */
  waitForChange(after: number, ms: number): Promise<void> {
    if (this.version > after || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Wakes every waiter (the session is ending). */
  close() {
    for (const w of [...this.waiters]) w();
  }

  private changed(entry?: TranscriptEntry) {
    this.version++;
    if (entry) entry.v = this.version;
    for (const w of [...this.waiters]) w();
  }
}
