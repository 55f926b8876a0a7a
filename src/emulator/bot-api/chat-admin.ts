// Pins and chat members: what moderation and broadcast scenarios call. Telegram refuses these in a
// private chat or on a message that does not exist, and so does the emulator; member changes are
// remembered per chat so getChatMember reports them back.
import type { BotState } from "./chats";
import { botUserObject } from "./chats";
import type { CallContext, Handler } from "./context";
import { badRequest } from "./types";

interface ChatAdminState {
  pinned: Map<string, number[]>;
  members: Map<string, { status: string; until_date?: number; permissions?: Record<string, any> }>;
}

const perBot = new WeakMap<BotState, ChatAdminState>();

export function chatAdminState(state: BotState): ChatAdminState {
  let s = perBot.get(state);
  if (!s) perBot.set(state, (s = { pinned: new Map(), members: new Map() }));
  return s;
}

/** Message ids pinned in a chat, most recent last. */
export function pinnedIn(state: BotState, chatId: number | string): number[] {
  return chatAdminState(state).pinned.get(String(chatId)) ?? [];
}

const userIdOf = (c: CallContext) => {
  const id = Number(c.params.user_id);
  if (!Number.isSafeInteger(id) || id <= 0) throw badRequest("invalid user_id specified");
  return id;
};

/** The chat object; member methods need a group, supergroup or channel. */
function groupOf(c: CallContext) {
  const chat = c.dir.chat(c.params.chat_id);
  if (chat.type === "private") throw badRequest("chat member status can't be changed in private chats");
  return chat;
}

const pinChatMessage: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  if (c.params.message_id === undefined) throw badRequest("message identifier is not specified");
  if (!c.state.message(chat.id, c.params.message_id)) throw badRequest("message to pin not found");
  const list = pinnedIn(c.state, chat.id).filter((id) => id !== c.params.message_id);
  chatAdminState(c.state).pinned.set(String(chat.id), [...list, Number(c.params.message_id)]);
  c.messageId = Number(c.params.message_id);
  return true;
};

const unpinChatMessage: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  const list = pinnedIn(c.state, chat.id);
  const target = c.params.message_id === undefined ? list[list.length - 1] : Number(c.params.message_id);
  if (target === undefined || !list.includes(target)) throw badRequest("message to unpin not found");
  chatAdminState(c.state).pinned.set(String(chat.id), list.filter((id) => id !== target));
  c.messageId = target;
  return true;
};

const unpinAllChatMessages: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  chatAdminState(c.state).pinned.delete(String(chat.id));
  return true;
};

function setStatus(c: CallContext, status: string, extra: Record<string, any> = {}) {
  const chat = groupOf(c);
  const userId = userIdOf(c);
  if (userId === c.state.bot.id) throw badRequest("can't restrict self");
  chatAdminState(c.state).members.set(`${chat.id}:${userId}`, { status, ...extra });
  return true;
}

const banChatMember: Handler = (c) => setStatus(c, "kicked", typeof c.params.until_date === "number" ? { until_date: c.params.until_date } : {});
const unbanChatMember: Handler = (c) => {
  const chat = groupOf(c);
  const key = `${chat.id}:${userIdOf(c)}`;
  const members = chatAdminState(c.state).members;
  if (members.get(key)?.status === "kicked") members.set(key, { status: "left" });
  else if (c.params.only_if_banned !== true) members.set(key, { status: "left" });
  return true;
};
const restrictChatMember: Handler = (c) => {
  if (!c.params.permissions || typeof c.params.permissions !== "object") throw badRequest('parameter "permissions" is required');
  return setStatus(c, "restricted", { permissions: c.params.permissions });
};
const promoteChatMember: Handler = (c) => {
  const any = Object.entries(c.params).some(([k, v]) => k.startsWith("can_") && v === true);
  return setStatus(c, any ? "administrator" : "member");
};

const getChatMember: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  const userId = userIdOf(c);
  if (userId === c.state.bot.id) return { status: chat.type === "private" ? "member" : "administrator", user: botUserObject(c.state.bot) };
  const known = chatAdminState(c.state).members.get(`${chat.id}:${userId}`);
  return { status: "member", ...known, user: c.dir.user(userId) };
};

const getChatAdministrators: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  const admins = [{ status: "administrator", user: botUserObject(c.state.bot), can_be_edited: false }];
  for (const [key, m] of chatAdminState(c.state).members) {
    const [chatId, userId] = key.split(":");
    if (chatId === String(chat.id) && m.status === "administrator") admins.push({ status: "administrator", user: c.dir.user(Number(userId)), can_be_edited: true });
  }
  return admins;
};

const getChatMemberCount: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  return chat.type === "private" ? 2 : Math.max(2, c.dir.users.size + 1);
};

const leaveChat: Handler = (c) => {
  groupOf(c);
  return true;
};

export const CHAT_ADMIN_METHODS: Record<string, Handler> = {
  pinChatMessage, unpinChatMessage, unpinAllChatMessages,
  banChatMember, unbanChatMember, restrictChatMember, promoteChatMember,
  getChatMember, getChatAdministrators, getChatMemberCount, leaveChat,
};
