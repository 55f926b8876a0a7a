// Which node types the generated bot runs (Level 1 and the Level 2 families), and which it knows
// only to skip with a warning.
import { LOGIC_TYPES } from "./types-logic";
import { ACTION_TYPES, TRIGGER_NODE_TYPES } from "./types-messaging";

/** Node types the generated bot runs (docs/scenario.md#level-1-node-types). */
export const LEVEL1_TYPES = [
  "start",
  "command",
  "command_trigger",
  "text_trigger",
  "message",
  "photo",
  "video",
  "audio",
  "document",
  "keyboard",
  "input",
  "condition",
  "set_variable",
  "delay",
] as const;

/** Known types planned for Level 2: skipped with a "not yet" warning rather than "unknown". */
export const LEVEL2_TYPES = [
  "incoming_callback_trigger",
  "edit_message",
  "delete_message",
  "answer_callback_query",
  "forward_message",
  "sticker",
  "voice",
  "animation",
  "location",
  "contact",
  "incoming_message_trigger",
  "callback_trigger",
  "broadcast",
  "pin_message",
  "unpin_message",
  "ban_user",
  "unban_user",
  "mute_user",
  "unmute_user",
  "kick_user",
  "promote_user",
  "demote_user",
  "admin_rights",
] as const;

const level1 = new Set<string>([...LEVEL1_TYPES, ...ACTION_TYPES, ...TRIGGER_NODE_TYPES, ...LOGIC_TYPES, "comment"]);
const level2 = new Set<string>(LEVEL2_TYPES);
export const isLevel1Type = (type: string) => level1.has(type);
export const isLevel2Type = (type: string) => level2.has(type);
