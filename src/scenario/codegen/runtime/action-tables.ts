// The table shapes of action nodes (messaging and moderation, docs/nodes/messaging.md and
// moderation.md). Like tables.ts, this file is also the text of that part of every generated
// program (runtime-text.ts embeds it from its first "// ─── " line on, without `export`): declarations
// only, every top-level declaration exported.
import type { Format, KeyboardDef } from "./tables";

// ─── Action node shapes ────────────────────────────────────────────────────────

/** Which message an action works on. Values are templates ({variables} allowed). */
export type MessageSource =
  /** the triggering message: the user's, or the one holding the pressed button */
  | { from: "current" }
  /** the message the triggering message replies to */
  | { from: "reply" }
  /** every message from the replied-to one up to the triggering one */
  | { from: "range_from_reply" }
  | { from: "last_bot" }
  /** the triggering message and the `value` messages before it */
  | { from: "last_n"; value: string }
  /** a message id, or the name of a variable holding one */
  | { from: "id"; value: string }
  /** a variable holding a list of message ids */
  | { from: "bulk"; value: string };

/** Whose membership a moderation action changes. */
export type UserSource = { from: "sender" } | { from: "reply" } | { from: "id"; value: string };

export interface SendAction {
  kind: "send";
  what: "sticker" | "voice" | "animation" | "location" | "contact";
  /** sticker, voice, animation: a file id, URL or platform path */
  media?: string;
  caption?: string;
  format: Format;
  latitude?: string;
  longitude?: string;
  /** location with title and address: sent as a venue */
  title?: string;
  address?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
  keyboard?: KeyboardDef;
}

export interface EditAction {
  kind: "edit";
  /** pressed: the message holding the pressed button (else the bot's last one) */
  message: "pressed" | "last_bot" | { id: string };
  text?: string;
  format: Format;
  /** keep: the message's inline keyboard stays; remove; set: `keyboard` */
  keyboardMode: "keep" | "remove" | "set";
  keyboard?: KeyboardDef;
}

export interface DeleteAction {
  kind: "delete";
  /** a chat id template; absent: the current chat */
  chat?: string;
  source: MessageSource;
}

export interface ForwardTarget {
  /** a chat id template, a variable holding one, or every admin (ADMIN_IDS) */
  chat?: string;
  variable?: string;
  admins?: true;
  thread?: string;
}

export interface ForwardAction {
  kind: "forward";
  source: MessageSource;
  to: ForwardTarget[];
  /** hideAuthor: copyMessage instead of forwardMessage */
  copy?: true;
  silent?: true;
}

export interface AnswerAction {
  kind: "answer";
  text: string;
  alert?: true;
  cacheTime?: number;
}

export interface PinAction {
  kind: "pin" | "unpin";
  chat?: string;
  source: MessageSource;
  silent?: true;
  /** unpin: every pinned message of the chat */
  all?: true;
}

export interface TopicAction {
  kind: "topic";
  chat?: string;
  name: string;
  color?: number;
  /** variable that receives message_thread_id */
  saveTo?: string;
}

export interface ModerateAction {
  kind: "moderate";
  op: "ban" | "unban" | "kick" | "mute" | "unmute" | "promote" | "demote" | "approve" | "decline";
  chat?: string;
  user: UserSource;
  /** ban and mute: for this many seconds (template); absent: for ever */
  seconds?: string;
  /** promote: administrator rights as the Bot API names them */
  rights?: Record<string, boolean>;
}

export interface BroadcastAction {
  kind: "broadcast";
  /** the message node whose text, media and keyboard go to every recorded user */
  message: string;
  /** asked with Yes/No buttons before sending (enableConfirmation) */
  confirm?: string;
  /** sent to the initiator when done: {sent}, {failed}, {total} */
  done?: string;
  failed?: string;
}

/** An invoice in Telegram Stars (XTR); every field may hold {variables}. */
export interface InvoiceAction {
  kind: "invoice";
  title: string;
  description: string;
  /** whole Stars, 1 to 10000 once rendered */
  amount: string;
  /** 1 to 128 bytes once rendered; comes back in {payment_payload} */
  payload: string;
  photo?: string;
}

/** Gives a Stars payment back: the charge id (default {payment_charge_id}) of the user's payment. */
export interface RefundAction {
  kind: "refund";
  charge: string;
  user: UserSource;
}

/** In a checkout_trigger's flow: the checkout is refused with this reason (shown to the user). */
export interface RefuseCheckoutAction {
  kind: "refuse_checkout";
  reason: string;
}

export type ActionDef =
  | SendAction | EditAction | DeleteAction | ForwardAction | AnswerAction | PinAction | TopicAction | ModerateAction
  | BroadcastAction | InvoiceAction | RefundAction | RefuseCheckoutAction;

export interface ActionNode {
  t: "action";
  id: string;
  do: ActionDef;
  /** legacy command nodes of these types: a text sent when the action succeeded */
  say?: { text: string; format: Format };
  next?: string;
  adminOnly?: true;
}

// ─── Message and schedule triggers ─────────────────────────────────────────────

/**
 * incoming: every message a user sends starts the flow too (before the usual handling);
 * outgoing: every message the bot sends; group: a message in a forum topic of the group,
 * run in the chat of the user whose variable `threadVariable` holds that topic's id.
 */
export interface MessageTriggerDef {
  on: "incoming" | "outgoing" | "group" | "reaction" | "member" | "join_request" | "payment" | "checkout" | "hook";
  target: string;
  /** the trigger node's id: counted as reached when it fires (docs/analytics.md); a hook's command names it */
  node: string;
  /** reaction: only these emoji (none: any); member: only these events (none: any) */
  only?: string[];
  /** reaction: only on messages these nodes sent (none: any message) */
  fromNodes?: string[];
  /** group: the group's chat id (template; "-100" is added to a bare id) */
  group?: string;
  threadVariable?: string;
  /** group: receives the user id found */
  userVariable?: string;
}

export interface ScheduleDef {
  id: string;
  target: string;
  /** croner patterns (5 or 6 fields), evaluated in `timezone` */
  cron: string[];
  /** interval rules, in seconds */
  every: number[];
  timezone: string;
  /** a chat to run in; absent: every recorded bot user */
  chat?: string;
  runOnStart?: true;
}
