// Runtime source: action nodes (messaging and group moderation). Every action that the messenger
// refuses logs one line naming the chat and the node, and the flow goes on: one user's bad data
// never stops the bot. (Part of every generated bot; see types.ts.)
import { GrammyError, InlineKeyboard } from "grammy";
import type { ActionNode, AnswerAction, DeleteAction, EditAction, ForwardAction, InvoiceAction, MessageSource, ModerateAction, PinAction, RefundAction, SendAction, TopicAction, UserSource } from "./action-tables";
import { broadcast } from "./broadcast";
import { MAX_STEPS, log, nodeAt } from "./flow";
import { PARSE_MODE, buildKeyboard, resolveMedia, sendText, withPlainFallback } from "./messages";
import { OPTIONS } from "./program-data";
import { bot } from "./router";
import { isMessageSend, sentMessages } from "./sends";
import { ADMIN_IDS, BOT_TOKEN, parseJson, states } from "./storage";
import type { Turn } from "./types";
import { messageOf } from "./triggers";
import { cut, readVar, render, toNumber } from "./values";

// ─── Action nodes ──────────────────────────────────────────────────────────────

/** The bot's latest message per chat, for "last bot message" sources (kept in the chat's state). */
bot.api.config.use(async (prev, method, payload, signal) => {
  const res = await prev(method, payload, signal);
  if (res.ok && isMessageSend(method)) {
    const id = sentMessages(res.result).at(-1)?.message_id;
    const chat = Number((payload as { chat_id?: unknown }).chat_id);
    const state = states.get(chat);
    if (state && id !== undefined) state.lastBot = id;
  }
  return res;
});

/** A chat id from a template: numbers (a long positive group id gets its -100 prefix), or "@name". */
export function chatOf(turn: Turn, ref: string | undefined): number | string {
  if (ref === undefined) return turn.chatId;
  const value = render(turn, ref).trim();
  if (/^-?\d+$/.test(value)) return value.length >= 10 && !value.startsWith("-") ? Number("-100" + value) : Number(value);
  if (value === "") throw new Error("the chat id " + JSON.stringify(ref) + " is empty");
  return value;
}

/** A positive whole number from a template or a variable, else an error naming what was given. */
export function idOf(turn: Turn, template: string, what: string): number {
  const value = toNumber(render(turn, template));
  if (value === undefined || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(what + " " + JSON.stringify(render(turn, template)) + " is not a number");
  }
  return value;
}

/** The message ids a source names (see MessageSource). */
export function messageIds(turn: Turn, source: MessageSource): number[] {
  const msg = messageOf(turn);
  const current = msg?.id;
  const reply = msg?.reply;
  const need = (id: number | undefined, what: string) => {
    if (id === undefined) throw new Error("there is no " + what);
    return [id];
  };
  switch (source.from) {
    case "current": return need(current, "triggering message");
    case "reply": return need(reply, "message replied to");
    case "last_bot": return need(turn.state.lastBot, "message of the bot in this chat yet");
    case "range_from_reply": {
      need(reply, "message replied to");
      const out = [];
      for (let id = reply!; id <= (current ?? reply!); id++) out.push(id);
      return out;
    }
    case "last_n": {
      need(current, "triggering message");
      const count = Math.min(1000, Math.max(0, Math.floor(toNumber(render(turn, source.value)) ?? 0)));
      const out = [];
      for (let id = current!; id >= Math.max(1, current! - count); id--) out.push(id);
      return out;
    }
    case "id": return [idOf(turn, source.value, "message id")];
    case "bulk": {
      const raw = readVar(turn, source.value);
      const list = typeof raw === "string" ? parseJson<unknown>(raw, raw.split(",")) : raw;
      if (!Array.isArray(list)) throw new Error("variable " + source.value + " holds no list of message ids");
      return list.map((v) => toNumber(v)).filter((n): n is number => n !== undefined && Number.isSafeInteger(n) && n > 0);
    }
  }
}

/** Whose membership changes. */
export function userOf(turn: Turn, source: UserSource): number {
  if (source.from === "sender") {
    if (!turn.from) throw new Error("the update has no sender");
    return turn.from.id;
  }
  if (source.from === "reply") {
    const id = messageOf(turn)?.replyFrom;
    if (id === undefined) throw new Error("reply to a message of the user this applies to");
    return id;
  }
  return idOf(turn, source.value, "user id");
}

export const FREE = {
  can_send_messages: true, can_send_audios: true, can_send_documents: true, can_send_photos: true,
  can_send_videos: true, can_send_video_notes: true, can_send_voice_notes: true, can_send_polls: true,
  can_send_other_messages: true, can_add_web_page_previews: true, can_invite_users: true,
  can_change_info: true, can_pin_messages: true, can_manage_topics: true,
};
export const MUTED = Object.fromEntries(Object.keys(FREE).map((k) => [k, false])) as Record<keyof typeof FREE, boolean>;
export const NO_RIGHTS = {
  is_anonymous: false, can_manage_chat: false, can_delete_messages: false, can_manage_video_chats: false,
  can_restrict_members: false, can_promote_members: false, can_change_info: false, can_invite_users: false,
  can_post_stories: false, can_edit_stories: false, can_delete_stories: false, can_pin_messages: false,
  can_manage_topics: false,
};

export async function moderate(turn: Turn, a: ModerateAction) {
  const api = turn.ctx.api;
  const chat = chatOf(turn, a.chat);
  const user = userOf(turn, a.user);
  const seconds = a.seconds !== undefined ? toNumber(render(turn, a.seconds)) : undefined;
  const until = seconds !== undefined && seconds > 0 ? Math.floor(Date.now() / 1000) + Math.floor(seconds) : undefined;
  switch (a.op) {
    case "ban": await api.banChatMember(chat, user, { until_date: until }); break;
    case "unban": await api.unbanChatMember(chat, user, { only_if_banned: true }); break;
    case "kick": await api.unbanChatMember(chat, user); break; // removes a member who may join again
    case "mute": await api.restrictChatMember(chat, user, MUTED, { until_date: until }); break;
    case "unmute": await api.restrictChatMember(chat, user, FREE); break;
    case "promote": await api.promoteChatMember(chat, user, { ...NO_RIGHTS, ...a.rights }); break;
    case "demote": await api.promoteChatMember(chat, user, NO_RIGHTS); break;
    case "approve": await api.approveChatJoinRequest(chat, user); break;
    case "decline": await api.declineChatJoinRequest(chat, user); break;
  }
  log(turn, a.op + " user " + user + " in chat " + chat);
}

/** An invoice in Stars; an amount or payload a variable made unusable fails the node (one log line). */
export async function sendInvoice(turn: Turn, a: InvoiceAction) {
  const amount = Number(render(turn, a.amount).trim());
  if (!Number.isInteger(amount) || amount < 1 || amount > 10000) throw new Error("the amount must be a whole number of Stars from 1 to 10000");
  const payload = render(turn, a.payload);
  if (payload === "" || new TextEncoder().encode(payload).length > 128) throw new Error("the payload must be 1 to 128 bytes");
  const title = render(turn, a.title);
  const photo = a.photo ? render(turn, a.photo).trim() : "";
  await turn.ctx.api.sendInvoice(turn.chatId, title, render(turn, a.description), payload, "XTR", [{ label: title, amount }], photo ? { photo_url: photo } : {});
  log(turn, "invoice " + amount + " XTR");
}

export async function refund(turn: Turn, a: RefundAction) {
  const charge = render(turn, a.charge).trim();
  if (!charge) throw new Error("no payment to refund (the charge id is empty)");
  const user = userOf(turn, a.user);
  await turn.ctx.api.refundStarPayment(user, charge);
  log(turn, "refunded " + charge + " to user " + user);
}

/** Sends a sticker, voice, animation, location (or venue) or contact. */
export async function sendOther(turn: Turn, index: number, a: SendAction) {
  const api = turn.ctx.api;
  const markup = a.keyboard ? buildKeyboard(turn, index, 0, a.keyboard)?.markup : undefined;
  const common = { reply_markup: markup, protect_content: OPTIONS.protectContent ? true : undefined };
  if (a.what === "location") {
    const lat = toNumber(render(turn, a.latitude ?? ""));
    const lon = toNumber(render(turn, a.longitude ?? ""));
    if (lat === undefined || lon === undefined) throw new Error("latitude and longitude must be numbers");
    const title = a.title && render(turn, a.title);
    const address = a.address && render(turn, a.address);
    if (title && address) await api.sendVenue(turn.chatId, lat, lon, title, address, common);
    else await api.sendLocation(turn.chatId, lat, lon, common);
    return;
  }
  if (a.what === "contact") {
    const phone = render(turn, a.phone ?? "").trim();
    if (!phone) throw new Error("the contact has no phone number");
    const first = render(turn, a.firstName ?? "").trim() || phone;
    await api.sendContact(turn.chatId, phone, first, { ...common, last_name: a.lastName && render(turn, a.lastName) });
    return;
  }
  const item = resolveMedia(turn, { kind: "document", url: a.media ?? "" });
  if (!item) throw new Error("no file to send");
  const caption = a.caption !== undefined ? render(turn, a.caption, a.format) : undefined;
  const options = { ...common, caption: caption || undefined, parse_mode: caption ? PARSE_MODE[a.format] : undefined };
  if (a.what === "sticker") await api.sendSticker(turn.chatId, item.source, common);
  else if (a.what === "voice") await api.sendVoice(turn.chatId, item.source, options);
  else await api.sendAnimation(turn.chatId, item.source, options);
}

export async function editMessage(turn: Turn, index: number, a: EditAction) {
  // the pressed message: its id also after a restart (messageOf), its keyboard while the update is here
  const pressed = messageOf(turn)?.pressed;
  const live = turn.ctx.callbackQuery?.message;
  const id = typeof a.message === "object"
    ? idOf(turn, a.message.id, "message id")
    : a.message === "pressed" && pressed !== undefined ? pressed : turn.state.lastBot;
  if (id === undefined) throw new Error("there is no message to edit");
  let markup: InlineKeyboard | { inline_keyboard: [] } | undefined;
  if (a.keyboardMode === "set" && a.keyboard) {
    const built = buildKeyboard(turn, index, 0, a.keyboard)?.markup;
    if (!(built instanceof InlineKeyboard)) throw new Error("only an inline keyboard can be put on a sent message");
    markup = built;
  } else if (a.keyboardMode === "remove") {
    markup = { inline_keyboard: [] };
  } else if (live && live.message_id === id && live.reply_markup) {
    markup = live.reply_markup as InlineKeyboard; // an edit without markup would drop the keyboard
  }
  const api = turn.ctx.api;
  try {
    if (a.text !== undefined) {
      const text = render(turn, a.text, a.format);
      await withPlainFallback(a.format, (f) =>
        api.editMessageText(turn.chatId, id, text, { parse_mode: PARSE_MODE[f], reply_markup: markup }).catch((err) => {
          if (err instanceof GrammyError && /no text in the message/.test(err.description)) {
            return api.editMessageCaption(turn.chatId, id, { caption: text, parse_mode: PARSE_MODE[f], reply_markup: markup });
          }
          throw err;
        }),
      );
    } else {
      await api.editMessageReplyMarkup(turn.chatId, id, { reply_markup: markup ?? { inline_keyboard: [] } });
    }
  } catch (err) {
    if (err instanceof GrammyError && /not modified/.test(err.description)) return log(turn, "edit: the message already shows this");
    throw err;
  }
}

/** Deletes one message, or many in batches of 100 (the messenger's limit per call). */
export async function deleteMessages(turn: Turn, a: DeleteAction) {
  const chat = chatOf(turn, a.chat);
  const ids = messageIds(turn, a.source);
  if (ids.length === 1) await turn.ctx.api.deleteMessage(chat, ids[0]);
  else for (let i = 0; i < ids.length; i += 100) await turn.ctx.api.deleteMessages(chat, ids.slice(i, i + 100));
  log(turn, "deleted " + ids.length + " message(s) in chat " + chat);
}

/** Forwards (or copies, hiding the author) to every recipient; one refused recipient does not stop the others. */
export async function forward(turn: Turn, a: ForwardAction) {
  const ids = messageIds(turn, a.source);
  const chats: { chat: number | string; thread?: number }[] = [];
  for (const t of a.to) {
    const thread = t.thread ? toNumber(render(turn, t.thread)) : undefined;
    if (t.admins) for (const id of ADMIN_IDS) if (/^\d+$/.test(id)) chats.push({ chat: Number(id), thread });
    if (t.variable) chats.push({ chat: chatOf(turn, "{" + t.variable + "}"), thread });
    if (t.chat) chats.push({ chat: chatOf(turn, t.chat), thread });
  }
  for (const target of chats) {
    const options = { message_thread_id: target.thread, disable_notification: a.silent };
    try {
      for (const id of ids) {
        if (a.copy) await turn.ctx.api.copyMessage(target.chat, turn.chatId, id, options);
        else await turn.ctx.api.forwardMessage(target.chat, turn.chatId, id, options);
      }
    } catch (err) {
      console.error("chat " + turn.chatId + ": forward to " + target.chat + " failed: " + describe(err));
    }
  }
}

export async function pin(turn: Turn, a: PinAction) {
  const chat = chatOf(turn, a.chat);
  if (a.kind === "unpin") {
    if (a.all) return void (await turn.ctx.api.unpinAllChatMessages(chat));
    return void (await turn.ctx.api.unpinChatMessage(chat, messageIds(turn, a.source)[0]));
  }
  await turn.ctx.api.pinChatMessage(chat, messageIds(turn, a.source)[0], { disable_notification: a.silent });
}

export async function createTopic(turn: Turn, a: TopicAction) {
  const name = render(turn, a.name).trim();
  if (!name) throw new Error("the topic has no name");
  const topic = await turn.ctx.api.createForumTopic(chatOf(turn, a.chat), name, { icon_color: a.color as 7322096 | undefined });
  if (a.saveTo) turn.state.vars[a.saveTo] = topic.message_thread_id;
}

export async function answerPress(turn: Turn, a: AnswerAction) {
  if (!turn.ctx.callbackQuery) return log(turn, "answer_callback_query: no button was pressed");
  if (turn.answered) return log(turn, "answer_callback_query: the press was answered already");
  turn.answered = true;
  await turn.ctx.answerCallbackQuery({ text: render(turn, a.text) || undefined, show_alert: a.alert, cache_time: a.cacheTime });
}

/** The messenger's own words for a refused call, without the token-bearing URL of network errors. */
export function describe(err: unknown): string {
  if (err instanceof GrammyError) return err.description;
  return err instanceof Error ? err.message.split(BOT_TOKEN).join("***") : String(err);
}

/** Runs an action node; returns the node that follows (also after a failure, which is logged). */
export async function runAction(turn: Turn, index: number, node: ActionNode): Promise<string | undefined> {
  const a = node.do;
  try {
    switch (a.kind) {
      case "send": await sendOther(turn, index, a); break;
      case "edit": await editMessage(turn, index, a); break;
      case "delete": await deleteMessages(turn, a); break;
      case "forward": await forward(turn, a); break;
      case "answer": await answerPress(turn, a); break;
      case "pin":
      case "unpin": await pin(turn, a); break;
      case "topic": await createTopic(turn, a); break;
      case "moderate": await moderate(turn, a); break;
      case "broadcast": return await broadcast(turn, node, a);
      case "invoice": await sendInvoice(turn, a); break;
      case "refund": await refund(turn, a); break;
      // Read by the pre_checkout_query handler once the checkout's flow ends (runtime/triggers.ts).
      case "refuse_checkout": turn.event.refused = cut(render(turn, a.reason), 255) || "-"; break;
    }
  } catch (err) {
    console.error("chat " + turn.chatId + ": node " + node.id + " (" + a.kind + ") failed: " + describe(err));
    return node.next;
  }
  if (node.say) await sendText(turn, render(turn, node.say.text, node.say.format), node.say.format);
  return node.next;
}

// ─── Answering button presses ──────────────────────────────────────────────────

export const answersLater = new Map<string, boolean>();

/** Whether the flow from this node reaches answer_callback_query by itself (then that answers the press). */
export function answersItself(id: string | undefined): boolean {
  if (!id) return false;
  if (!answersLater.has(id)) answersLater.set(id, reachesAnswer(id, new Set()));
  return answersLater.get(id)!;
}

export function reachesAnswer(id: string | undefined, seen: Set<string>): boolean {
  if (!id || seen.has(id) || seen.size > MAX_STEPS) return false;
  seen.add(id);
  const node = nodeAt({ node: id, variant: 0 });
  if (node?.t === "action") return node.do.kind === "answer" || reachesAnswer(node.next, seen);
  if (node?.t === "condition") return [...node.branches.map((b) => b.target), node.fallback].some((t) => reachesAnswer(t, seen));
  if (node?.t === "message" || node?.t === "set") return reachesAnswer(node.next, seen);
  return false;
}

/** Answers the press once (stops the button's spinner), with a notice when given. */
export async function ackPress(turn: Turn, notice?: string) {
  if (turn.answered || !turn.ctx.callbackQuery) return;
  turn.answered = true;
  await turn.ctx.answerCallbackQuery(notice ? { text: notice } : undefined).catch((err) => console.error("answerCallbackQuery failed: " + describe(err)));
}
