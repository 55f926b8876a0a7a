// Action nodes: messaging (sticker, voice, animation, location, contact, edit, delete, forward,
// answer_callback_query, pin/unpin, forum topics, broadcast) and group moderation. Field names
// follow the reference editor; older and newer spellings of the same field are both read.
import { CompileContext, num, text, type RawNode } from "./compile-context";
import { compileKeyboard } from "./compile-keyboard";
import { compileMessage, formatOf } from "./compile-message";
import type { ActionDef, ActionNode, ForwardTarget, InvoiceAction, MessageSource, ModerateAction, UserSource } from "./runtime/action-tables";
import type { TableNode } from "./table";

type Data = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "number" ? String(v) : text(v)?.trim());
const flag = (v: unknown): true | undefined => (v === true ? true : undefined);

/** A chat id template from the reference's manual/variable/custom spellings; undefined: this chat. */
function chatRef(d: Data, prefix: "chat" | "targetChat" | "forumChat" | "adminChat" | "groupChat"): string | undefined {
  const source = String(d[`${prefix}IdSource`] ?? "");
  if (source === "current_chat") return undefined;
  if (source === "variable") {
    const v = str(d[`${prefix}VariableName`]);
    return v ? `{${v}}` : undefined;
  }
  return str(d[`${prefix}IdManual`]) ?? str(d[`${prefix}Id`]);
}

/** messageIdSource (+ messageIdManual, lastNCount, bulkDelete) → where the message comes from. */
function messageSource(d: Data, node: RawNode, ctx: CompileContext): MessageSource {
  if (d.bulkDelete === true) {
    const v = str(d.bulkMessageIdsVariable);
    if (v) return { from: "bulk", value: v };
    ctx.warn(node, "delete.bulkNoVariable");
  }
  const manual = str(d.messageIdManual) ?? str(d.targetMessageId) ?? str(d.sourceMessageId);
  switch (String(d.messageIdSource ?? d.sourceMessageIdSource ?? "current_message")) {
    case "reply_message":
      return { from: "reply" };
    case "range_from_reply":
      return { from: "range_from_reply" };
    case "last_bot_message":
    case "last_message":
    case "last":
      return { from: "last_bot" };
    case "last_n":
      return { from: "last_n", value: str(d.lastNCount) ?? "1" };
    case "variable": {
      const v = str(d.variableName) ?? str(d.sourceMessageVariableName) ?? manual;
      return v ? { from: "id", value: v.includes("{") ? v : `{${v}}` } : { from: "current" };
    }
    case "manual":
    case "custom":
      if (manual) return { from: "id", value: manual };
      ctx.warn(node, "action.noMessageId");
      return { from: "current" };
    default:
      return { from: "current" };
  }
}

/** userIdSource in both reference spellings (manual/variable/last_message, current_user/reply_user/custom). */
function userSource(d: Data, prefix: "user" | "adminUser"): UserSource {
  const source = String(d[`${prefix}IdSource`] ?? "last_message");
  const manual = prefix === "user" ? str(d.userIdManual) ?? str(d.targetUserId) : str(d.adminTargetUserId);
  const variable = str(d[`${prefix}VariableName`]);
  if (source === "current_user") return { from: "sender" };
  if (source === "variable" && variable) return { from: "id", value: `{${variable}}` };
  if ((source === "manual" || source === "custom") && manual) return { from: "id", value: manual };
  return { from: "reply" };
}

const PROMOTE_RIGHTS: [string, string][] = [
  ["canChangeInfo", "can_change_info"],
  ["canDeleteMessages", "can_delete_messages"],
  ["canBanUsers", "can_restrict_members"],
  ["canRestrictMembers", "can_restrict_members"],
  ["canInviteUsers", "can_invite_users"],
  ["canPinMessages", "can_pin_messages"],
  ["canAddAdmins", "can_promote_members"],
  ["canPromoteMembers", "can_promote_members"],
  ["canManageVideoChats", "can_manage_video_chats"],
  ["canManageTopics", "can_manage_topics"],
  ["isAnonymous", "is_anonymous"],
];
const API_RIGHTS = [
  "can_manage_chat", "can_post_messages", "can_edit_messages", "can_delete_messages", "can_post_stories",
  "can_edit_stories", "can_delete_stories", "can_manage_video_chats", "can_restrict_members", "can_promote_members",
  "can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics", "is_anonymous",
];

/** Rights of promote_user (camelCase fields) or admin_rights (Bot API names); at least can_manage_chat. */
function rights(d: Data, apiNames: boolean): Record<string, boolean> {
  const out: Record<string, boolean> = { can_manage_chat: true };
  if (apiNames) {
    for (const k of API_RIGHTS) if (d[k] === true) out[k] = true;
  } else {
    for (const [field, right] of PROMOTE_RIGHTS) if (d[field] === true) out[right] = true;
  }
  return out;
}

const MODERATION: Record<string, ModerateAction["op"]> = {
  ban_user: "ban",
  unban_user: "unban",
  kick_user: "kick",
  mute_user: "mute",
  unmute_user: "unmute",
  promote_user: "promote",
  demote_user: "demote",
  admin_rights: "promote",
  approve_join_request: "approve",
  decline_join_request: "decline",
};

function moderation(node: RawNode, d: Data): ModerateAction {
  const op = MODERATION[node.type]!;
  const admin = node.type === "admin_rights";
  const seconds = str(d.muteDuration) ?? str(d.duration) ?? str(d.banDuration);
  return {
    kind: "moderate",
    op,
    // A join request's flow runs in the user's private chat: the group is the one asked to join.
    chat: admin ? chatRef(d, "adminChat") : chatRef(d, "chat") ?? str(d.targetGroupId) ?? (op === "approve" || op === "decline" ? "{join_chat_id}" : undefined),
    // A join request is answered for the user who asked unless the node names another.
    user: admin ? userSource(d, "adminUser") : (op === "approve" || op === "decline") && d.userIdSource === undefined ? { from: "sender" } : userSource(d, "user"),
    seconds: op === "ban" || op === "mute" ? seconds : undefined,
    rights: op === "promote" ? rights(d, admin) : undefined,
  };
}

function forwardTargets(d: Data): ForwardTarget[] {
  const list = Array.isArray(d.targetChatTargets) && d.targetChatTargets.length > 0 ? (d.targetChatTargets as Data[]) : [d];
  const out: ForwardTarget[] = [];
  for (const t of list) {
    if (!t || typeof t !== "object") continue;
    const thread = str(t.targetThreadId) ?? (str(t.targetThreadIdVariable) ? `{${str(t.targetThreadIdVariable)}}` : undefined);
    const source = String(t.targetChatIdSource ?? "manual");
    if (source === "admin_ids") out.push({ admins: true, thread });
    else if (source === "variable" && str(t.targetChatVariableName)) out.push({ variable: str(t.targetChatVariableName), thread });
    else if (str(t.targetChatId)) out.push({ chat: str(t.targetChatId), thread });
  }
  return out;
}

/** Telegram's limits for an invoice in Stars (docs/nodes/payments.md). */
export const STARS_MAX = 10_000;
const PAYLOAD_MAX_BYTES = 128;

function invoice(node: RawNode, d: Data, ctx: CompileContext): InvoiceAction | undefined {
  const title = str(d.title);
  const description = str(d.description);
  const amount = str(d.amount) ?? (typeof d.amount === "number" ? String(d.amount) : undefined);
  const payload = str(d.payload) ?? node.id;
  if (!title || !description || !amount) {
    ctx.warn(node, "invoice.incomplete");
    return undefined;
  }
  // Literal values are checked here; values with {variables} when the bot sends (the node's error path).
  if (!amount.includes("{") && !(/^\d+$/.test(amount) && Number(amount) >= 1 && Number(amount) <= STARS_MAX)) {
    ctx.warn(node, "invoice.amountRange", { amount, max: STARS_MAX });
  }
  if (!payload.includes("{") && Buffer.byteLength(payload) > PAYLOAD_MAX_BYTES) {
    ctx.warn(node, "invoice.payloadTooLong", { max: PAYLOAD_MAX_BYTES });
  }
  if (title.length > 32) ctx.warn(node, "invoice.titleTooLong", { max: 32 });
  if (description.length > 255) ctx.warn(node, "invoice.descriptionTooLong", { max: 255 });
  return { kind: "invoice", title, description, amount, payload, photo: str(d.photoUrl) };
}

function compileDo(node: RawNode, ctx: CompileContext): ActionDef | undefined {
  const d = node.data;
  const format = formatOf(text(d.formatMode), d.markdown === true);
  switch (node.type) {
    case "invoice":
      return invoice(node, d, ctx);
    case "refuse_checkout":
      return { kind: "refuse_checkout", reason: str(d.reason) ?? "This purchase is not available." };
    case "refund_payment":
      return { kind: "refund", charge: str(d.chargeId) ?? "{payment_charge_id}", user: d.userIdSource === undefined ? { from: "sender" } : userSource(d, "user") };
    case "sticker":
    case "voice":
    case "animation": {
      const media = str(d.stickerFileId) ?? str(d[`${node.type}Url`]) ?? str(d.mediaUrl) ?? str(d.fileId);
      if (!media) ctx.warn(node, "media.noFile", { nodeType: node.type });
      const caption = node.type === "sticker" ? undefined : text(d.mediaCaption) ?? text(d.messageText);
      return { kind: "send", what: node.type, media, caption, format, keyboard: compileKeyboard(node, d, ctx) };
    }
    case "location": {
      const latitude = str(d.latitude);
      const longitude = str(d.longitude);
      if (!latitude || !longitude) ctx.warn(node, "location.incomplete");
      return { kind: "send", what: "location", latitude, longitude, title: str(d.title), address: str(d.address), format, keyboard: compileKeyboard(node, d, ctx) };
    }
    case "contact": {
      const phone = str(d.phoneNumber);
      if (!phone) ctx.warn(node, "contact.noPhone");
      return { kind: "send", what: "contact", phone, firstName: str(d.firstName) ?? "", lastName: str(d.lastName), format, keyboard: compileKeyboard(node, d, ctx) };
    }
    case "edit_message": {
      const mode = String(d.editMode ?? "text");
      const idSource = String(d.editMessageIdSource ?? "");
      const manual = str(d.editMessageIdManual);
      const message = idSource === "custom" && manual ? { id: manual } : idSource === "last_bot_message" ? ("last_bot" as const) : ("pressed" as const);
      const kbMode = String(d.editKeyboardMode ?? "keep");
      const keyboard = kbMode === "node" ? compileKeyboard(node, { keyboardNodeId: str(d.editKeyboardNodeId) }, ctx) : undefined;
      if (kbMode === "node" && !keyboard) ctx.warn(node, "edit.noKeyboard");
      return {
        kind: "edit",
        message,
        text: mode === "markup" ? undefined : text(d.editMessageText) ?? text(d.messageText),
        format: formatOf(text(d.editFormatMode) ?? text(d.formatMode), d.markdown === true),
        keyboardMode: mode === "text" ? "keep" : kbMode === "remove" ? "remove" : keyboard ? "set" : "keep",
        keyboard,
      };
    }
    case "delete_message":
      return { kind: "delete", chat: chatRef(d, "chat"), source: messageSource(d, node, ctx) };
    case "forward_message": {
      const to = forwardTargets(d);
      if (to.length === 0) ctx.warn(node, "forward.noRecipient");
      return { kind: "forward", source: messageSource({ ...d, messageIdSource: d.sourceMessageIdSource }, node, ctx), to, copy: flag(d.hideAuthor), silent: flag(d.disableNotification) };
    }
    case "answer_callback_query":
      return { kind: "answer", text: text(d.notificationText) ?? text(d.messageText) ?? "", alert: flag(d.showAlert), cacheTime: num(d.cacheTime) };
    case "pin_message":
    case "unpin_message":
      return {
        kind: node.type === "pin_message" ? "pin" : "unpin",
        chat: chatRef(d, "chat") ?? str(d.targetGroupId),
        source: messageSource(d, node, ctx),
        silent: flag(d.disableNotification),
        all: node.type === "unpin_message" && d.unpinAll === true ? true : undefined,
      };
    case "create_forum_topic": {
      const name = text(d.topicName);
      if (!name) ctx.warn(node, "topic.noName");
      return { kind: "topic", chat: chatRef(d, "forumChat"), name: name ?? "", color: num(d.topicIconColor), saveTo: str(d.saveThreadIdTo) };
    }
    case "broadcast": {
      const target = ctx.target(node, str(d.broadcastTargetNode) ?? broadcastMessage(ctx), "broadcastTargetNode");
      if (!target) {
        ctx.warn(node, "broadcast.noMessage");
        return undefined;
      }
      return {
        kind: "broadcast",
        message: target,
        confirm: d.enableConfirmation === true ? text(d.confirmationText) ?? "Send this broadcast to every user?" : undefined,
        done: text(d.successMessage),
        failed: text(d.errorMessage),
      };
    }
    default:
      if (MODERATION[node.type]) return moderation(node, d);
      return undefined;
  }
}

/** The first message node marked enableBroadcast, the reference's other way to name the content. */
function broadcastMessage(ctx: CompileContext): string | undefined {
  for (const n of ctx.byId.values()) if (n.type === "message" && n.data.enableBroadcast === true) return n.id;
  return undefined;
}

/**
 * A keyboard node reached by a transition: as in the older platform, its keyboard replaces the
 * inline keyboard of the message on screen (the bot's latest); without buttons it removes it.
 */
export function compileKeyboardRow(node: RawNode, ctx: CompileContext): ActionNode {
  const keyboard = compileKeyboard(node, { ...node.data, keyboardNodeId: undefined }, ctx);
  if (keyboard && keyboard.kind !== "inline") {
    ctx.warn(node, "sentMessage.replyKeyboard");
  }
  const inline = keyboard?.kind === "inline" ? keyboard : undefined;
  return {
    t: "action",
    id: node.id,
    do: { kind: "edit", message: "last_bot", format: "text", keyboardMode: inline ? "set" : "remove", keyboard: inline },
    next: ctx.target(node, text(node.data.autoTransitionTo), "autoTransitionTo"),
  };
}

export function compileAction(node: RawNode, ctx: CompileContext): TableNode {
  if (node.type === "media") return compileMessage(node, ctx); // a message whose content is attachedMedia
  const d = node.data;
  const action = compileDo(node, ctx);
  const next = d.enableAutoTransition !== false ? ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo") : undefined;
  // Legacy moderation and pin nodes answer a /command themselves and confirm with their messageText.
  const say = text(d.command) && text(d.messageText) && action?.kind !== "send" && action?.kind !== "edit"
    ? { text: text(d.messageText)!, format: formatOf(text(d.formatMode), d.markdown === true) }
    : undefined;
  const adminOnly = d.adminOnly === true ? true : undefined;
  // Nothing to do (warned above): the flow passes through to what follows.
  if (!action) return { t: "set", id: node.id, assignments: [], next, adminOnly };
  const row: ActionNode = { t: "action", id: node.id, do: action, say, next, adminOnly };
  return row;
}
