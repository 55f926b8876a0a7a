// Methods that change or remove an existing message. Telegram refuses no-op edits ("message is
// not modified"), which bots that re-render on every press must handle, so the fake refuses too.
import { strip } from "./chats";
import type { CallContext, Handler } from "./context";
import { assertLength, renderFormatted } from "./format";
import { checkReplyMarkup, echoedMarkup, hasMiniApp } from "./markup";
import { badRequest, nowSeconds, type Message } from "./types";

const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a content and reply markup of the current message";

/** The bot's own message addressed by chat_id + message_id; null for inline_message_id edits. */
function target(c: CallContext): Message | null {
  const p = c.params;
  if (p.inline_message_id !== undefined) return null;
  const chat = c.dir.chat(p.chat_id);
  if (p.message_id === undefined) throw badRequest("message identifier is not specified");
  const m = c.state.message(chat.id, p.message_id);
  if (!m) throw badRequest("message to edit not found");
  if (m.from?.id !== c.state.bot.id) throw badRequest("message can't be edited");
  c.messageId = m.message_id;
  return m;
}

function apply(m: Message, field: "text" | "caption" | null, value: string | undefined, markup: Record<string, any> | undefined) {
  if (markup && m.chat && m.chat.type !== "private" && hasMiniApp(markup)) throw badRequest("BUTTON_TYPE_INVALID");
  const echoed = echoedMarkup(markup);
  const same = (field === null || (m[field] ?? "") === (value ?? "")) && JSON.stringify(m.reply_markup) === JSON.stringify(echoed);
  if (same) throw badRequest(NOT_MODIFIED);
  if (field) {
    if (value) m[field] = value;
    else delete m[field];
  }
  // an edit without reply_markup removes the inline keyboard, as on Telegram
  if (echoed) m.reply_markup = echoed;
  else delete m.reply_markup;
  m.edit_date = nowSeconds();
  return strip(m);
}

const editMessageText: Handler = (c) => {
  const p = c.params;
  if (p.text === undefined || String(p.text).trim() === "") throw badRequest("message text is empty");
  const text = renderFormatted(String(p.text), p.parse_mode);
  assertLength(text, 4096, "MESSAGE_TOO_LONG");
  const markup = checkReplyMarkup(p.reply_markup);
  const m = target(c);
  if (!m) return true;
  if (m.text === undefined) throw badRequest("there is no text in the message to edit");
  return apply(m, "text", text, markup);
};

const editMessageCaption: Handler = (c) => {
  const p = c.params;
  const text = p.caption === undefined ? undefined : renderFormatted(String(p.caption), p.parse_mode);
  if (text !== undefined) assertLength(text, 1024, "message caption is too long");
  const markup = checkReplyMarkup(p.reply_markup);
  const m = target(c);
  if (!m) return true;
  if (m.text !== undefined) throw badRequest("there is no caption in the message to edit");
  return apply(m, "caption", text, markup);
};

const editMessageReplyMarkup: Handler = (c) => {
  const markup = checkReplyMarkup(c.params.reply_markup);
  if (markup && !("inline_keyboard" in markup)) throw badRequest("inline keyboard expected");
  const m = target(c);
  if (!m) return true;
  return apply(m, null, undefined, markup);
};

const deleteMessage: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (p.message_id === undefined) throw badRequest("message identifier is not specified");
  c.messageId = Number(p.message_id);
  if (!c.state.remove(chat.id, p.message_id)) throw badRequest("message to delete not found");
  return true;
};

const deleteMessages: Handler = (c) => {
  const p = c.params;
  const chat = c.dir.chat(p.chat_id);
  if (!Array.isArray(p.message_ids) || p.message_ids.length === 0) throw badRequest("message identifiers are not specified");
  for (const id of p.message_ids) c.state.remove(chat.id, id);
  return true;
};

export const EDIT_METHODS: Record<string, Handler> = {
  editMessageText, editMessageCaption, editMessageReplyMarkup, deleteMessage, deleteMessages,
};
