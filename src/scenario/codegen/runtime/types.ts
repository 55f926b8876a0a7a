// Runtime source, part 1: the shapes of per-chat state (the table shapes come before them, from
// tables.ts, which the generator shares). Every runtime file is a real module that tsc checks; its
// text from its first "// ─── " section line on is a part of every generated bot
// (codegen/runtime-text.ts), where all parts share one scope. Rules for these files: imports (of
// sibling runtime files and of the libraries program.ts IMPORTS lists) and `declare`s for the type
// checker go above that line, which the bot never sees; every top-level declaration another part
// uses is exported (`export` is dropped from the text). docs/runtime.md has the whole of it.
import { Context } from "grammy";
import type { MediaKind } from "./tables";

// ─── Per-chat state ────────────────────────────────────────────────────────────

export type Vars = Record<string, unknown>;

/** variant 0 is the node itself, k > 0 its k-th conditional message */
export interface NodeRef {
  node: string;
  variant: number;
}

export interface ChatState {
  vars: Vars;
  /** the question whose answer the bot waits for; since: when an input with a timeout asked it (its wait names that time) */
  waiting?: NodeRef & { since?: number };
  /** the reply keyboard on the user's screen, with its button texts as shown */
  keyboard?: NodeRef & { texts: string[] };
  /** what kind of media an input stored in a variable (for attachedMedia) */
  mediaKinds?: Record<string, MediaKind>;
  /** callback lookup: "x:<n>" → long scenario data; "=<data>" → internal code of its static button */
  callbacks?: Record<string, string>;
  nextCallback?: number;
  /** multi-select choices in progress, by node id */
  selections?: Record<string, string[]>;
  /** id of the bot's latest message in this chat */
  lastBot?: number;
  /** ai_answer's own memory when the bot keeps no messages: [user, answer] turns by node id (runtime/ai.ts) */
  ai?: Record<string, [string, string][]>;
}

export type IncomingMessage = NonNullable<Context["message"]>;
export type Sender = NonNullable<Context["from"]>;

/** One update being handled, or the continuation of one after a delay node. */
export interface Turn {
  ctx: Context;
  chatId: number;
  state: ChatState;
  from?: Sender;
  isAdmin: boolean;
  /** message_text, callback_data, button_text of this update */
  event: Record<string, string>;
  steps: number;
  /** nesting of loop bodies and parallel branches (runtime/control.ts) */
  depth?: number;
  /** the button press of this update has been answered (answerCallbackQuery may run once) */
  answered?: boolean;
  /** the chat's type when no update brought it: a wait's continuation, a platform command (chatTypeOf) */
  chatType?: string;
  /**
   * the ids of the update's message, of the one it replied to and of that one's author, and of the
   * message whose button was pressed, when no update brought them (a wait's continuation: messageOf)
   */
  msg?: { id: number; reply?: number; replyFrom?: number; pressed?: number };
}
