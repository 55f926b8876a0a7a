// Methods that put a new message into a chat. Each returns the Message Telegram would return and
// stores it, so later edits, copies, deletes and button presses can find it.
import { botUserObject, invoiceKey, strip } from "./chats";
import type { CallContext, Handler } from "./context";
import type { StoredFile } from "./files";
import { assertLength, renderFormatted } from "./format";
import { checkReplyMarkup, echoedMarkup, hasMiniApp } from "./markup";
import { Upload } from "./params";
import { ApiError, badRequest, nowSeconds, type Message } from "./types";
import { CHECKOUT_WAIT_MS } from "./user-actions";

export function newMessage(c: CallContext, chat: Record<string, any>): Message {
  if (chat.type === "private" && c.dir.blocked.has(chat.id)) throw new ApiError(403, "Forbidden: bot was blocked by the user");
  const m: Message = { message_id: c.state.nextMessageId(chat.id), from: botUserObject(c.state.bot), chat, date: nowSeconds() };
  const p = c.params;
  const replyTo = p.reply_parameters?.message_id ?? p.reply_to_message_id;
  if (replyTo !== undefined) {
    const target = c.state.message(chat.id, replyTo);
    const allowMissing = p.reply_parameters?.allow_sending_without_reply ?? p.allow_sending_without_reply;
    if (target) m.reply_to_message = { ...target, reply_to_message: undefined };
    else if (!allowMissing) throw badRequest("message to be replied not found");
  }
  if (p.protect_content === true) m.has_protected_content = true;
  return m;
}

/** Validates reply_markup before anything is stored: a refused message must leave no trace. */
function markupOf(c: CallContext) {
  const markup = checkReplyMarkup(c.params.reply_markup);
  // Mini App buttons exist only in private chats: Telegram refuses them (inline or reply) elsewhere.
  if (markup && c.dir.chat(c.params.chat_id).type !== "private" && hasMiniApp(markup)) throw badRequest("BUTTON_TYPE_INVALID");
  return markup;
}

export function finish(c: CallContext, m: Message, markup: Record<string, any> | undefined): Message {
  const echoed = echoedMarkup(markup);
  if (echoed) m.reply_markup = echoed;
  strip(m);
  c.state.store(m);
  c.messageId ??= m.message_id;
  return m;
}

function caption(c: CallContext, m: Message, p: Record<string, any> = c.params) {
  if (p.caption === undefined || p.caption === "") return;
  const text = renderFormatted(String(p.caption), p.parse_mode);
  assertLength(text, 1024, "message caption is too long");
  if (text.trim()) m.caption = text;
}

const sendMessage: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (p.text === undefined || String(p.text).trim() === "") throw badRequest("message text is empty");
  const text = renderFormatted(String(p.text), p.parse_mode);
  if (text.trim() === "") throw badRequest("message text is empty");
  assertLength(text, 4096, "message is too long");
  const markup = markupOf(c);
  const m = newMessage(c, chat);
  m.text = text;
  if (p.link_preview_options) m.link_preview_options = p.link_preview_options;
  return finish(c, m, markup);
};

/** A media parameter: an upload, a file_id (ours or invented), or a URL Telegram would fetch. */
export function fileOf(c: CallContext, kind: string, value: unknown, field: string): StoredFile {
  if (value instanceof Upload) return c.files.create(kind, value);
  if (typeof value !== "string" || value.trim() === "") throw badRequest(`there is no ${field} in the request`);
  const known = c.files.get(value);
  if (known) return known;
  if (/\s/.test(value)) throw badRequest("wrong file identifier/HTTP URL specified");
  if (/^https?:\/\//i.test(value)) {
    const name = decodeURIComponent(new URL(value).pathname.split("/").pop() || "") || undefined;
    return c.files.create(kind, undefined, name);
  }
  return c.files.create(kind, undefined, undefined, value);
}

export function mediaObject(kind: string, f: StoredFile, p: Record<string, any>): Record<string, any> {
  const base = { file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size };
  const named = { file_name: f.file_name, mime_type: f.mime_type };
  const duration = typeof p.duration === "number" ? p.duration : 3;
  switch (kind) {
    case "video":
    case "animation":
      return strip({ duration, width: p.width ?? 640, height: p.height ?? 360, ...named, ...base });
    case "audio":
      return strip({ duration, performer: p.performer, title: p.title, ...named, ...base });
    case "voice":
      return { duration, mime_type: "audio/ogg", ...base };
    case "video_note":
      return { duration, length: p.length ?? 240, ...base };
    case "sticker":
      return { width: 512, height: 512, is_animated: false, is_video: false, type: "regular", ...base };
    default:
      return strip({ ...named, ...base });
  }
}

export function photoOf(c: CallContext, value: unknown): Record<string, any>[] {
  if (typeof value === "string" && c.files.get(value)) {
    const f = c.files.get(value)!;
    return [{ file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size, width: 800, height: 800 }];
  }
  if (value instanceof Upload) return c.files.photoSizes(value);
  const f = fileOf(c, "photo", value, "photo"); // validates and adopts ids/URLs
  return [{ file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size, width: 800, height: 800 }];
}

/** Puts media of `kind` into message `m` (the field names follow the Message object). */
function attachMedia(c: CallContext, m: Message, kind: string, value: unknown, p: Record<string, any>) {
  if (kind === "photo") {
    m.photo = photoOf(c, value);
    return;
  }
  const obj = mediaObject(kind, fileOf(c, kind, value, kind), p);
  m[kind] = obj;
  if (kind === "animation") m.document = { ...obj }; // Telegram fills both for GIFs
}

function sendMedia(kind: string): Handler {
  return (c) => {
    const p = c.params;
    const chat = c.dir.chat(p.chat_id);
    if (p[kind] === undefined || p[kind] === "") throw badRequest(`there is no ${kind} in the request`);
    const markup = markupOf(c);
    const m = newMessage(c, chat);
    attachMedia(c, m, kind, p[kind], p);
    if (kind !== "sticker" && kind !== "video_note") caption(c, m);
    return finish(c, m, markup);
  };
}

const sendPhoto = sendMedia("photo");
const sendVideo = sendMedia("video");
const sendAudio = sendMedia("audio");
const sendDocument = sendMedia("document");
const sendAnimation = sendMedia("animation");
const sendVoice = sendMedia("voice");
const sendVideoNote = sendMedia("video_note");
const sendSticker = sendMedia("sticker");

let mediaGroups = 130000000000000;

const sendMediaGroup: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (!Array.isArray(p.media) || p.media.length < 2 || p.media.length > 10) throw badRequest("wrong number of messages specified");
  const groupId = String(++mediaGroups);
  const items = p.media.map((item: any) => {
    const kind = item?.type;
    if (!["photo", "video", "audio", "document"].includes(kind)) throw badRequest("can't parse InputMedia: unsupported media type");
    return item;
  });
  return items.map((item: any) => {
    const m = newMessage(c, chat);
    m.media_group_id = groupId;
    attachMedia(c, m, item.type, item.media, item);
    caption(c, m, item);
    return finish(c, m, undefined);
  });
};

const sendLocation: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (typeof p.latitude !== "number" || typeof p.longitude !== "number") throw badRequest("wrong latitude or longitude");
  const markup = markupOf(c);
  const m = newMessage(c, chat);
  m.location = { latitude: p.latitude, longitude: p.longitude };
  return finish(c, m, markup);
};

const sendVenue: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (typeof p.latitude !== "number" || typeof p.longitude !== "number") throw badRequest("wrong latitude or longitude");
  if (!p.title || !p.address) throw badRequest("venue title and address must be non-empty");
  const markup = markupOf(c);
  const m = newMessage(c, chat);
  m.location = { latitude: p.latitude, longitude: p.longitude };
  m.venue = { location: m.location, title: String(p.title), address: String(p.address) };
  return finish(c, m, markup);
};

const sendContact: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (!p.phone_number) throw badRequest("phone number is empty");
  if (!p.first_name) throw badRequest("contact first name is empty");
  const markup = markupOf(c);
  const m = newMessage(c, chat);
  m.contact = strip({ phone_number: String(p.phone_number), first_name: String(p.first_name), last_name: p.last_name, vcard: p.vcard });
  return finish(c, m, markup);
};

// Invoices in Telegram Stars: the checks Telegram makes (currency, prices, payload size).
const sendInvoice: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  const title = String(p.title ?? "");
  const description = String(p.description ?? "");
  if (title.length < 1 || title.length > 32) throw badRequest("INVOICE_TITLE_INVALID");
  if (description.length < 1 || description.length > 255) throw badRequest("INVOICE_DESCRIPTION_INVALID");
  const payload = String(p.payload ?? "");
  if (Buffer.byteLength(payload) < 1 || Buffer.byteLength(payload) > 128) throw badRequest("INVOICE_PAYLOAD_INVALID");
  if (p.currency !== "XTR") throw badRequest("CURRENCY_INVALID");
  const prices = Array.isArray(p.prices) ? p.prices : [];
  // Stars invoices carry exactly one price, a whole number of Stars.
  if (prices.length !== 1 || !Number.isInteger(prices[0]?.amount) || prices[0].amount < 1 || prices[0].amount > 10000) throw badRequest("CURRENCY_TOTAL_AMOUNT_INVALID");
  const markup = markupOf(c);
  const m = newMessage(c, chat);
  m.invoice = { title, description, start_parameter: "", currency: "XTR", total_amount: prices[0].amount };
  c.state.invoices.set(payload, prices[0].amount);
  c.state.invoiceMessages.set(invoiceKey({ chatId: Number(chat.id), messageId: m.message_id }), { payload, amount: prices[0].amount });
  return finish(c, m, markup);
};

const answerPreCheckoutQuery: Handler = (c) => {
  if (typeof c.params.pre_checkout_query_id !== "string" || !c.params.pre_checkout_query_id) throw badRequest("QUERY_ID_INVALID");
  if (typeof c.params.ok !== "boolean") throw badRequest('parameter "ok" is required');
  if (c.params.ok === false && !c.params.error_message) throw badRequest("ERROR_MESSAGE_EMPTY");
  // A checkout a user's Pay opened (user-actions.ts openCheckout) is answered once, within
  // Telegram's wait; an unknown, answered or expired one is refused as Telegram does.
  const open = c.state.checkouts.get(c.params.pre_checkout_query_id);
  c.state.checkouts.delete(c.params.pre_checkout_query_id);
  if (!open || Date.now() - open.at > CHECKOUT_WAIT_MS) throw badRequest("QUERY_ID_INVALID");
  if (c.params.ok === true) {
    const charge = `stxEmulated${c.params.pre_checkout_query_id}`;
    c.state.charges.set(charge, open.from.id);
    if (open.invoice !== undefined) {
      c.state.paidInvoices.add(invoiceKey(open.invoice));
      c.paidInvoice = open.invoice;
    }
    const successful_payment = { currency: "XTR", total_amount: open.amount, invoice_payload: open.payload, telegram_payment_charge_id: charge, provider_payment_charge_id: "" };
    const message = { message_id: c.state.nextMessageId(open.chat.id), from: open.from, chat: open.chat, date: nowSeconds(), successful_payment };
    c.state.store(message);
    c.state.updates.push({ message });
    c.messageId = message.message_id;
  }
  return true;
};

const refundStarPayment: Handler = (c) => {
  const charge = String(c.params.telegram_payment_charge_id ?? "");
  // a charge is refunded to the user who paid it: another user's id does not find it
  if (c.state.charges.get(charge) !== Number(c.params.user_id)) throw badRequest("CHARGE_NOT_FOUND");
  if (c.state.refunded.has(charge)) throw badRequest("CHARGE_ALREADY_REFUNDED");
  c.state.refunded.add(charge);
  return true;
};

const CONTENT = ["text", "caption", "photo", "video", "audio", "document", "animation", "voice", "video_note", "sticker", "location", "contact"];

function sourceOf(c: CallContext, what: string): Message {
  const p = c.params;
  const from = c.dir.chat(p.from_chat_id);
  if (p.message_id === undefined) throw badRequest("message identifier is not specified");
  const src = c.state.message(from.id, p.message_id);
  if (!src) throw badRequest(`message to ${what} not found`);
  return src;
}

const copyMessage: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  const src = sourceOf(c, "copy");
  const markup = markupOf(c);
  const m = newMessage(c, chat);
  for (const k of CONTENT) if (src[k] !== undefined) m[k] = src[k];
  if (p.caption !== undefined) {
    delete m.caption;
    caption(c, m);
  }
  finish(c, m, markup ?? src.reply_markup);
  return { message_id: m.message_id };
};

const forwardMessage: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  const src = sourceOf(c, "forward");
  const m = newMessage(c, chat);
  m.forward_origin = { type: "user", sender_user: src.from, date: src.date };
  for (const k of CONTENT) if (src[k] !== undefined) m[k] = src[k];
  return finish(c, m, undefined);
};

export const SEND_METHODS: Record<string, Handler> = {
  sendMessage, sendPhoto, sendVideo, sendAudio, sendDocument, sendAnimation, sendVoice, sendVideoNote, sendSticker,
  sendMediaGroup, sendLocation, sendVenue, sendContact, copyMessage, forwardMessage,
  sendInvoice, answerPreCheckoutQuery, refundStarPayment,
};
