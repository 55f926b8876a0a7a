// The Bot API method table. Names are matched case-insensitively, as Telegram does, and recorded
// under their canonical spelling so tests can filter by "sendMessage".
import { botUserObject, strip } from "./chats";
import { Described, type CallContext, type Handler } from "./context";
import { EDIT_METHODS } from "./edit";
import { MODERATION_METHODS } from "./moderation";
import { SEND_METHODS } from "./send";
import { ApiError, badRequest } from "./types";
import { Upload } from "./params";

const getMe: Handler = ({ state: { bot } }) => ({
  ...botUserObject(bot),
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
});

const getUpdates: Handler = (c) => c.state.updates.getUpdates(c.params, c.signal);

const setWebhook: Handler = (c) => {
  const p = c.params;
  const q = c.state.updates;
  const url = typeof p.url === "string" ? p.url.trim() : "";
  if (url === "") {
    const had = q.deleteWebhook(p.drop_pending_updates === true);
    return new Described(true, had ? "Webhook was deleted" : "Webhook is already deleted");
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest("bad webhook: Failed to resolve host: Name or service not known");
  }
  // Telegram demands HTTPS; the fake also takes http so tests need no certificates
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
  const secret = p.secret_token === undefined || p.secret_token === "" ? undefined : String(p.secret_token);
  if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) throw badRequest("secret token contains unallowed characters");
  const same = q.webhook?.url === url && q.webhook.secretToken === secret;
  q.setWebhook(
    { url, secretToken: secret, maxConnections: typeof p.max_connections === "number" ? p.max_connections : 40 },
    p.allowed_updates,
    p.drop_pending_updates === true,
  );
  return new Described(true, same ? "Webhook is already set" : "Webhook was set");
};

const deleteWebhook: Handler = (c) => {
  const had = c.state.updates.deleteWebhook(c.params.drop_pending_updates === true);
  return new Described(true, had ? "Webhook was deleted" : "Webhook is already deleted");
};

const getWebhookInfo: Handler = ({ state: { updates: q } }) => {
  const h = q.webhook;
  return strip({
    url: h?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: q.pending,
    max_connections: h?.maxConnections,
    ip_address: h ? "127.0.0.1" : undefined,
    last_error_date: h?.lastErrorDate,
    last_error_message: h?.lastErrorMessage,
    allowed_updates: h && q.allowedUpdates.length ? q.allowedUpdates : undefined,
  });
};

const commandsKey = (p: Record<string, any>) => `${JSON.stringify(p.scope ?? { type: "default" })}|${p.language_code ?? ""}`;

const setMyCommands: Handler = (c) => {
  const list = c.params.commands;
  if (!Array.isArray(list)) throw badRequest('parameter "commands" is required');
  if (list.length > 100) throw badRequest("BOT_COMMANDS_TOO_MUCH");
  const commands = list.map((cmd: any) => {
    if (!cmd || typeof cmd !== "object") throw badRequest("can't parse BotCommand: BotCommand must be an Object");
    if (typeof cmd.description !== "string") throw badRequest('can\'t parse BotCommand: Can\'t find field "description"');
    const name = String(cmd.command ?? "").replace(/^\//, "");
    if (!/^[a-z0-9_]{1,32}$/.test(name)) throw badRequest("BOT_COMMAND_INVALID");
    if (cmd.description.trim() === "") throw badRequest("command description must be non-empty");
    if (cmd.description.length > 256) throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
    return { command: name, description: cmd.description };
  });
  c.state.commands.set(commandsKey(c.params), commands);
  return true;
};

const getMyCommands: Handler = (c) => c.state.commands.get(commandsKey(c.params)) ?? [];

const deleteMyCommands: Handler = (c) => {
  c.state.commands.delete(commandsKey(c.params));
  return true;
};

const answerCallbackQuery: Handler = (c) => {
  const id = c.params.callback_query_id;
  if (id === undefined || !c.state.callbackIds.has(String(id))) {
    throw badRequest("query is too old and response timeout expired or query ID is invalid");
  }
  if (c.params.text !== undefined && String(c.params.text).length > 200) throw badRequest("MESSAGE_TOO_LONG");
  return true;
};

/** A user's avatar: stable file ids per user, so a test can getFile what it was given earlier. */
function avatar(c: CallContext, userId: number) {
  let sizes = c.dir.avatars.get(userId);
  if (!sizes) c.dir.avatars.set(userId, (sizes = c.files.photoSizes()));
  return sizes;
}

const getUserProfilePhotos: Handler = (c) => {
  const userId = Number(c.params.user_id);
  if (!Number.isSafeInteger(userId) || userId <= 0) throw badRequest("user not found");
  const has = userId === c.state.bot.id ? c.state.bot.hasPhoto : c.dir.photos.get(userId) === true;
  if (!has) return { total_count: 0, photos: [] };
  const offset = typeof c.params.offset === "number" ? c.params.offset : 0;
  return { total_count: 1, photos: offset > 0 ? [] : [avatar(c, userId)] };
};

const getFile: Handler = (c) => {
  const id = c.params.file_id;
  const f = typeof id === "string" ? c.files.get(id) : undefined;
  if (!f) throw badRequest("invalid file_id");
  return { file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size, file_path: f.file_path };
};

const getChat: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  return { ...chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: { unlimited_gifts: false, limited_gifts: false, unique_gifts: false, premium_subscription: false } };
};

const getChatMember: Handler = (c) => {
  const chat = c.dir.chat(c.params.chat_id);
  const userId = Number(c.params.user_id);
  if (!Number.isSafeInteger(userId) || userId <= 0) throw badRequest("invalid user_id specified");
  const user = userId === c.state.bot.id ? botUserObject(c.state.bot) : c.dir.user(userId);
  return { ...c.dir.member(chat.id, userId), user };
};

const CHAT_ACTIONS = new Set([
  "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice", "upload_document",
  "choose_sticker", "find_location", "record_video_note", "upload_video_note",
]);

const sendChatAction: Handler = (c) => {
  c.dir.chat(c.params.chat_id);
  if (!CHAT_ACTIONS.has(c.params.action)) throw badRequest("wrong parameter action in request");
  return true;
};

const accept: Handler = () => true;

/** The bot's profile texts per language, with Telegram's limits; "" removes the language's own text. */
function profileText(field: "name" | "description" | "short_description", max: number): { set: Handler; get: Handler } {
  const key = (p: Record<string, any>) => {
    const lang = p.language_code ?? "";
    if (typeof lang !== "string" || (lang !== "" && !/^[a-z]{2}$/.test(lang))) throw badRequest("LANGUAGE_CODE_INVALID");
    return `${field}|${lang}`;
  };
  return {
    set: (c) => {
      const value = c.params[field] ?? "";
      if (typeof value !== "string") throw badRequest(`parameter "${field}" must be a String`);
      if (value.length > max) throw badRequest(`${field.toUpperCase()}_INVALID`);
      if (value === "") c.state.profile.delete(key(c.params));
      else c.state.profile.set(key(c.params), value);
      return true;
    },
    get: (c) => ({ [field]: c.state.profile.get(key(c.params)) ?? c.state.profile.get(`${field}|`) ?? (field === "name" ? c.state.bot.firstName : "") }),
  };
}
/** The bot's own photo: a new JPEG upload (InputProfilePhotoStatic), never a file id. */
const setMyProfilePhoto: Handler = (c) => {
  const photo = c.params.photo;
  if (!photo || typeof photo !== "object" || photo.type !== "static") throw badRequest("PHOTO_INVALID");
  const file = photo.photo;
  if (!(file instanceof Upload) || !(file.bytes[0] === 0xff && file.bytes[1] === 0xd8 && file.bytes[2] === 0xff)) throw badRequest("IMAGE_PROCESS_FAILED");
  c.state.bot.hasPhoto = true;
  return true;
};

const removeMyProfilePhoto: Handler = (c) => {
  c.state.bot.hasPhoto = false;
  return true;
};

const myName = profileText("name", 64);
const myDescription = profileText("description", 512);
const myShortDescription = profileText("short_description", 120);

const HANDLERS: Record<string, Handler> = {
  getMe, getUpdates, setWebhook, deleteWebhook, getWebhookInfo,
  setMyCommands, getMyCommands, deleteMyCommands,
  answerCallbackQuery, getUserProfilePhotos, getFile, getChat, getChatMember, sendChatAction,
  ...SEND_METHODS, ...EDIT_METHODS, ...MODERATION_METHODS,
  // accepted without effect: bots call these at start-up and should not crash on the fake
  setMyProfilePhoto, removeMyProfilePhoto,
  setMyName: myName.set, getMyName: myName.get, setMyDescription: myDescription.set, getMyDescription: myDescription.get,
  setMyShortDescription: myShortDescription.set, getMyShortDescription: myShortDescription.get, setChatMenuButton: accept,
  setMessageReaction: accept, logOut: accept, close: accept,
};

const BY_LOWER = new Map(Object.entries(HANDLERS).map(([name, h]) => [name.toLowerCase(), { name, h }]));

export function findMethod(name: string): { name: string; h: Handler } | undefined {
  return BY_LOWER.get(name.toLowerCase());
}

export function notFound() {
  return new ApiError(404, "Not Found: method not found");
}
