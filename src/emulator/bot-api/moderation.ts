// Group administration: members' status (ban, restrict, promote), pinned messages and forum topics,
// with Telegram's refusals for private chats, unknown messages and chats that are not forums.
import { strip } from "./chats";
import type { CallContext, Handler } from "./context";
import { badRequest } from "./types";

const PERMISSIONS = [
  "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos", "can_send_videos",
  "can_send_video_notes", "can_send_voice_notes", "can_send_polls", "can_send_other_messages",
  "can_add_web_page_previews", "can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics",
];
const RIGHTS = [
  "is_anonymous", "can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
  "can_promote_members", "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
  "can_delete_stories", "can_post_messages", "can_edit_messages", "can_pin_messages", "can_manage_topics",
];
const TOPIC_COLORS = new Set([7322096, 16766590, 13338331, 9367192, 16749490, 16478047]);

/** A group or supergroup chat and a user id, as member-changing methods need them. */
function groupAndUser(c: CallContext): { chat: Record<string, any>; userId: number } {
  const chat = c.dir.chat(c.params.chat_id);
  if (chat.type === "private") throw badRequest("chat member status can't be changed in private chats");
  const userId = Number(c.params.user_id);
  if (!Number.isSafeInteger(userId) || userId <= 0) throw badRequest("invalid user_id specified");
  if (userId === c.state.bot.id) throw badRequest("can't restrict self");
  return { chat, userId };
}

function untilDate(c: CallContext): number | undefined {
  const v = c.params.until_date;
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw badRequest("invalid until_date specified");
  return v;
}

const banChatMember: Handler = (c) => {
  const { chat, userId } = groupAndUser(c);
  c.dir.setMember(chat.id, userId, strip({ status: "kicked", until_date: untilDate(c) ?? 0 }));
  return true;
};

const unbanChatMember: Handler = (c) => {
  const { chat, userId } = groupAndUser(c);
  const current = c.dir.member(chat.id, userId);
  if (c.params.only_if_banned === true && current.status !== "kicked") return true;
  c.dir.setMember(chat.id, userId, { status: "left" });
  return true;
};

// Join requests: approving makes the user a member; declining leaves them out. Telegram answers
// HIDE_REQUESTER_MISSING when there is no pending request; the emulator keeps no list of them.
const approveChatJoinRequest: Handler = (c) => {
  const { chat, userId } = groupAndUser(c);
  c.dir.setMember(chat.id, userId, { status: "member" });
  return true;
};

const declineChatJoinRequest: Handler = (c) => {
  groupAndUser(c);
  return true;
};

const restrictChatMember: Handler = (c) => {
  const { chat, userId } = groupAndUser(c);
  if (chat.type !== "supergroup") throw badRequest("method is available only for supergroups");
  const p = c.params.permissions;
  if (!p || typeof p !== "object" || Array.isArray(p)) throw badRequest("can't parse chat permissions JSON object");
  const permissions: Record<string, boolean> = {};
  for (const key of PERMISSIONS) permissions[key] = p[key] === true;
  const free = PERMISSIONS.every((k) => permissions[k]);
  c.dir.setMember(chat.id, userId, free ? { status: "member" } : strip({ status: "restricted", ...permissions, until_date: untilDate(c) ?? 0 }));
  return true;
};

const promoteChatMember: Handler = (c) => {
  const { chat, userId } = groupAndUser(c);
  const rights: Record<string, boolean> = {};
  for (const key of RIGHTS) if (c.params[key] === true) rights[key] = true;
  const any = Object.keys(rights).length > 0;
  c.dir.setMember(chat.id, userId, any ? { status: "administrator", can_be_edited: true, ...rights } : { status: "member" });
  return true;
};

function pinnedMessage(c: CallContext) {
  const chat = c.dir.chat(c.params.chat_id);
  const id = c.params.message_id;
  if (id === undefined) throw badRequest("message identifier is not specified");
  if (!c.state.message(chat.id, id)) throw badRequest("message to pin not found");
  return { chat, id: Number(id) };
}

const pinChatMessage: Handler = (c) => {
  const { chat, id } = pinnedMessage(c);
  const list = c.dir.pinned(chat.id).filter((m) => m !== id);
  list.push(id);
  c.dir.setPinned(chat.id, list);
  c.messageId = id;
  return true;
};

const unpinChatMessage: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  const list = c.dir.pinned(chat.id);
  if (list.length === 0) throw badRequest("there is no pinned message");
  const id = c.params.message_id === undefined ? list[list.length - 1] : Number(c.params.message_id);
  if (!list.includes(id!)) throw badRequest("message to unpin not found");
  c.dir.setPinned(chat.id, list.filter((m) => m !== id));
  return true;
};

const unpinAllChatMessages: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  c.dir.setPinned(chat.id, []);
  return true;
};

let nextThread = 1000;

const createForumTopic: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  if (!c.dir.forums.has(chat.id)) throw badRequest("the chat is not a forum");
  const name = typeof c.params.name === "string" ? c.params.name : "";
  if (name.trim() === "" || name.length > 128) throw badRequest("TOPIC_TITLE_EMPTY");
  const color = c.params.icon_color === undefined ? 7322096 : Number(c.params.icon_color);
  if (!TOPIC_COLORS.has(color)) throw badRequest("TOPIC_ICON_COLOR_INVALID");
  return { message_thread_id: ++nextThread, name, icon_color: color };
};

export const MODERATION_METHODS: Record<string, Handler> = {
  banChatMember, unbanChatMember, restrictChatMember, promoteChatMember, approveChatJoinRequest, declineChatJoinRequest,
  pinChatMessage, unpinChatMessage, unpinAllChatMessages, createForumTopic,
};
