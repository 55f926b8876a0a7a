import { Upload } from "./params";
// The test acting as a user: each action stores the user's message in the bot's chat (so bots can
// reply to, copy or forward it) and queues the Update Telegram would produce.
import { botUserObject, invoiceKey, userObject, type BotState, type Directory, type InvoiceRef } from "./chats";
import type { FileStore } from "./files";
import { badRequest, nowSeconds, type FakeUser, type Update } from "./types";

export interface World {
  dir: Directory;
  files: FileStore;
}

let callbackSeq = 4_300_000_000_000_000_000n; // Telegram query ids are long numeric strings
let pollSeq = 5_100_000_000_000_000_000n;
let checkoutSeq = 6_200_000_000_000_000_000n;

/** Telegram waits this long for a checkout's answer; a later answer finds no query (QUERY_ID_INVALID). */
export const CHECKOUT_WAIT_MS = 10_000;

export function userMessage(w: World, state: BotState, from: FakeUser, fields: Record<string, any>): Update {
  w.dir.remember(from);
  const message = {
    message_id: state.nextMessageId(from.id),
    from: userObject(from),
    chat: w.dir.chat(from.id),
    date: nowSeconds(),
    ...fields,
  };
  state.store(message);
  // A paid invoice: its charge can be refunded (refundStarPayment) once.
  if (fields.successful_payment) state.charges.set(String(fields.successful_payment.telegram_payment_charge_id), from.id);
  return state.updates.push({ message });
}

/** A user's message in a group chat (chatId < 0); `fields` as for userMessage. */
export function groupMessage(w: World, state: BotState, chatId: number, from: FakeUser, fields: Record<string, any>): Update {
  w.dir.remember(from);
  const chat = w.dir.chat(chatId);
  if (chat.type === "private") throw new Error(`groupMessage needs a group chat id (< 0), got ${chatId}`);
  const message = { message_id: state.nextMessageId(chat.id), from: userObject(from), chat, date: nowSeconds(), ...fields };
  state.store(message);
  return state.updates.push({ message });
}

export function textFields(text: string): Record<string, any> {
  const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]+)?/.exec(text);
  return command ? { text, entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : { text };
}

export function photoFields(w: World, caption?: string): Record<string, any> {
  return caption ? { photo: w.files.photoSizes(), caption } : { photo: w.files.photoSizes() };
}

export function documentFields(w: World, fileName = "document.pdf", mimeType?: string, bytes?: Uint8Array): Record<string, any> {
  const f = w.files.create("document", bytes ? new Upload(fileName, mimeType ?? "application/octet-stream", bytes) : undefined, fileName);
  if (mimeType) f.mime_type = mimeType;
  return {
    document: { file_name: fileName, mime_type: f.mime_type, file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size },
  };
}

export function contactFields(from: FakeUser, phone: string): Record<string, any> {
  const contact: Record<string, any> = { phone_number: phone, first_name: from.first_name, user_id: from.id };
  if (from.last_name) contact.last_name = from.last_name;
  return { contact };
}

/** What a request_poll button sends: the user's own poll (the preview asks only its question). */
export function pollFields(question: string, type: "quiz" | "regular" = "regular"): Record<string, any> {
  const options = ["1", "2"].map((text) => ({ text, voter_count: 0 }));
  return { poll: { id: String(++pollSeq), question, options, total_voter_count: 0, is_closed: false, is_anonymous: true, type, allows_multiple_answers: false } };
}

/** What a reply keyboard's Mini App sends back when it calls Telegram.WebApp.sendData. */
export function webAppDataFields(buttonText: string, data: string): Record<string, any> {
  return { web_app_data: { data, button_text: buttonText } };
}

/** A callback_query on the given (or the latest) bot message in the user's private chat. */
export function press(w: World, state: BotState, from: FakeUser, data: string, messageId?: number): Update {
  w.dir.remember(from);
  const chat = w.dir.chat(from.id);
  const message = (messageId !== undefined ? state.message(chat.id, messageId) : state.lastBotMessage(chat.id)) ?? {
    // pressing on a message the fake never saw (a test forging data): invent a plausible one
    message_id: messageId ?? state.nextMessageId(chat.id),
    from: botUserObject(state.bot),
    chat,
    date: nowSeconds(),
    text: "…",
  };
  const id = String(++callbackSeq);
  state.callbackIds.add(id);
  return state.updates.push({
    callback_query: { id, from: userObject(from), message: structuredClone(message), chat_instance: String(-(from.id % 9_000_000_000) - 1_000_000), data },
  });
}

/**
 * The user presses Pay: a pre_checkout_query, answered by the bot once (answerPreCheckoutQuery; ok
 * pays it). `message` names the invoice message, which is paid once and has one checkout open at a
 * time; without it the invoice is a test's own. Answers the query's id.
 */
export function openCheckout(w: World, state: BotState, from: FakeUser, chat: Record<string, any>, invoice: { payload: string; amount: number }, message?: InvoiceRef): string {
  w.dir.remember(from);
  const now = Date.now();
  for (const [id, open] of state.checkouts) if (now - open.at > CHECKOUT_WAIT_MS) state.checkouts.delete(id);
  if (message !== undefined) {
    const key = invoiceKey(message);
    if (state.paidInvoices.has(key)) throw badRequest("this invoice is paid already");
    if ([...state.checkouts.values()].some((open) => open.invoice !== undefined && invoiceKey(open.invoice) === key)) throw badRequest("this invoice's payment waits for the bot's confirmation");
  }
  const id = String(++checkoutSeq);
  state.checkouts.set(id, { from: userObject(from), chat, ...invoice, invoice: message, at: now });
  state.updates.push({ pre_checkout_query: { id, from: userObject(from), currency: "XTR", total_amount: invoice.amount, invoice_payload: invoice.payload } });
  return id;
}
