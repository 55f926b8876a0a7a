// Node types of the messaging, trigger and moderation families (docs/nodes/*.md) that the generated
// bot runs, and those it leaves out on purpose. Kept apart from model.ts so each family's list
// changes in its own file.

/** Nodes that do something when the flow reaches them (rows of the node table). */
export const ACTION_TYPES = [
  "media",
  "sticker",
  "voice",
  "animation",
  "location",
  "contact",
  "edit_message",
  "delete_message",
  "forward_message",
  "answer_callback_query",
  "pin_message",
  "unpin_message",
  "create_forum_topic",
  "broadcast",
  "ban_user",
  "unban_user",
  "mute_user",
  "unmute_user",
  "kick_user",
  "promote_user",
  "demote_user",
  "admin_rights",
  "approve_join_request",
  "decline_join_request",
  "invoice",
  "refund_payment",
  "refuse_checkout",
] as const;

/** Nodes that start a flow on their own. */
export const TRIGGER_NODE_TYPES = [
  "callback_trigger",
  "incoming_callback_trigger",
  "incoming_message_trigger",
  "outgoing_message_trigger",
  "group_message_trigger",
  "schedule_trigger",
  "reaction_trigger",
  "member_trigger",
  "join_request_trigger",
  "payment_trigger",
  "checkout_trigger",
  "webhook_trigger",
] as const;

/** Types left out on purpose, with the reason the warning names. */
export const OUT_OF_SCOPE: Record<string, string> = {
  userbot_message: "it needs a Telegram user account session, which a bot token cannot provide",
  userbot_click_button: "it needs a Telegram user account session, which a bot token cannot provide",
  userbot_inline_query: "it needs a Telegram user account session, which a bot token cannot provide",
  userbot_edit_trigger: "it needs a Telegram user account session, which a bot token cannot provide",
  client_auth: "it logs in a Telegram user account, which Botloom does not hold",
  managed_bot_updated_trigger: "managed bots (bots created through another bot) are not supported by Botloom",
  get_managed_bot_token: "managed bots (bots created through another bot) are not supported by Botloom",
};
