// Which node types the generated bot runs (docs/scenario.md "Core node types" and docs/nodes/*.md).
// A type outside this list is skipped with a warning: left out on purpose (OUT_OF_SCOPE) or unknown.
import { LOGIC_TYPES } from "./types-logic";
import { ACTION_TYPES, TRIGGER_NODE_TYPES } from "./types-messaging";

/** The core of the format: triggers, messages, keyboards, input, conditions, variables, delays. */
export const CORE_TYPES = [
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

/** Every type the bot runs, and `comment` (a note on the canvas the bot passes over). */
export const RUNNABLE_TYPES: readonly string[] = [...CORE_TYPES, ...TRIGGER_NODE_TYPES, ...ACTION_TYPES, ...LOGIC_TYPES, "comment"];
const runnable = new Set<string>(RUNNABLE_TYPES);
export const isRunnableType = (type: string) => runnable.has(type);
