// The scenario tables: the shapes the generator writes (table.ts re-exports them for compile*.ts)
// and the generated bot reads. This file is also the text of that part of every generated program:
// codegen/runtime-text.ts embeds it (a text import, kept in the compiled binary too) from the first line that
// starts a "// ─── " section on, without the `export` keywords. So: declarations only, no imports,
// every top-level declaration exported, and nothing from that line on that the bot should not see.

import type { ActionNode } from "./action-tables";
import type { LogicNode } from "./logic-tables";

// ─── Scenario table shapes ─────────────────────────────────────────────────────

export type Format = "html" | "markdown" | "text";
export type MediaKind = "photo" | "video" | "audio" | "document";

export interface ButtonDef {
  id: string;
  text: string;
  /** selection: toggles a checkmark (multi-select); continue: stores the selection and goes on */
  action:
    | "goto" | "command" | "url" | "contact" | "location" | "poll" | "complete" | "selection" | "continue"
    | "web_app" | "copy_text" | "managed_bot";
  /** node id (goto, complete, contact, location, poll) or command name (command) */
  target?: string;
  /** url: the link; web_app: the Mini App's address (https only, checked once rendered) */
  url?: string;
  /** copy_text: the text copied; poll: "quiz" | "regular" when narrowed */
  value?: string;
  /** managed_bot: the suggested name and username */
  suggest?: { name?: string; username?: string };
  style?: "primary" | "success" | "danger";
  /** skipDataCollection: pressing it does not store its text into the input variable */
  skipInput?: true;
  /** hideAfterClick: the inline keyboard disappears from the message after a press */
  hide?: true;
  /** customCallbackData: the scenario's own callback data ({variables} allowed) */
  data?: string;
}

/** Buttons made from a list: one per item of the array at source (+ path). */
export interface DynamicDef {
  source: string;
  path?: string;
  /** templates over the item's fields ({name}; {value} for a plain item), then the user's variables */
  text: string;
  data: string;
  columns: number;
}

export interface KeyboardDef {
  kind: "reply" | "inline";
  /** the keyboard node it comes from (keyboardNodeId), so contentCache can find its buttons */
  from?: string;
  buttons: ButtonDef[];
  /** button indexes per row */
  rows: number[][];
  /** inline keyboards: buttons from a list, inserted before rows[dynamicAt] (the __dynamic__ row) */
  dynamic?: DynamicDef & { at: number };
  /** multi-select: the chosen labels go into this variable (joined by ", ") when continued */
  multi?: { variable: string; mark: string };
  oneTime?: true;
  resize?: true;
}

/** A URL, platform path or file id (may contain {variables}), or a variable holding a file id. */
export interface MediaDef {
  kind: MediaKind | "auto";
  url?: string;
  variable?: string;
}

export interface ValidationDef {
  kind: "number" | "email" | "phone" | "regex" | "length";
  pattern?: string;
  min?: number;
  max?: number;
}

export interface CollectDef {
  /** where a text answer goes (a shared contact's phone number, a location's "lat,lon" too) */
  variable?: string;
  /** inputType contact / location: that kind of message is the answer */
  contact?: true;
  location?: true;
  /** node to run after a valid answer */
  target?: string;
  text: boolean;
  media: { kind: MediaKind; variable: string }[];
  /** inputType "any": text or any media goes into variable */
  any?: true;
  append?: true;
  validate?: ValidationDef;
  retry?: string;
}

/** A conditional message: when its check holds, it replaces the node's text and keyboard. */
export interface VariantDef {
  id: string;
  check: "exists" | "not_exists" | "equals" | "contains";
  vars: string[];
  anyOf?: true;
  value?: string;
  /** absent: the node's own text stays */
  text?: string;
  format?: Format;
  keyboard?: KeyboardDef;
  collect?: CollectDef;
}

export interface MessageNode {
  t: "message";
  id: string;
  text: string;
  format: Format;
  noPreview?: true;
  media?: MediaDef[];
  /** mediaCaption: the caption of the media; when the node also has text, that follows as its own message */
  caption?: string;
  keyboard?: KeyboardDef;
  removeKeyboard?: true;
  collect?: CollectDef;
  variants?: VariantDef[];
  next?: string;
  /** saveMessageIdTo: the variable that receives the id of the message sent last */
  saveIdTo?: string;
  adminOnly?: true;
}

export type Operator =
  | "equals" | "not_equals" | "contains" | "not_contains" | "starts_with" | "ends_with" | "matches"
  | "filled" | "empty" | "greater_than" | "less_than" | "greater_or_equal" | "less_or_equal" | "between"
  | "is_even" | "is_odd" | "divisible_by" | "is_private" | "is_group" | "is_channel" | "is_admin"
  | "is_premium" | "is_bot" | "is_subscribed" | "is_not_subscribed" | "else";

export interface BranchDef {
  op: Operator;
  value: string;
  value2?: string;
  target: string;
  /** is_subscribed / is_not_subscribed over several channels: all (default) or any */
  mode?: "any";
}

export interface ConditionNode {
  t: "condition";
  id: string;
  /** a variable name (dotted paths allowed) ... */
  variable?: string;
  /** ... or a template such as "{message_text}" */
  template?: string;
  branches: BranchDef[];
  fallback?: string;
  adminOnly?: true;
}

export type AssignMode =
  | "set" | "append" | "increment" | "regex_extract" | "expression" | "lookup" | "str_replace"
  | "json_push" | "json_format" | "random" | "random_item" | "array_item" | "timestamp"
  | "format_duration" | "format_number" | "extract_number" | "split_get" | "json_get" | "substring"
  | "conditional" | "lowercase" | "uppercase" | "trim" | "length" | "array_concat";

export interface AssignmentDef {
  /** may contain {variables} (the name is rendered first) */
  variable: string;
  mode: AssignMode;
  value: string;
  pattern?: string;
  group?: number;
  fallback?: string;
  /** mode-specific settings, as named in the reference's assignment schema */
  table?: string;
  field?: string;
  where?: { field: string; value: string }[];
  replaceWith?: string;
  max?: string;
  separator?: string;
  path?: string;
  start?: string;
  end?: string;
  cond?: { variable: string; op: string; value: string; yes: string; no: string };
  concatWith?: string;
  /** skipIfEmpty: the assignment is skipped while this variable is empty or 0 */
  skipIf?: string;
}

export interface SetNode {
  t: "set";
  id: string;
  assignments: AssignmentDef[];
  next?: string;
  adminOnly?: true;
}

export interface DelayNode {
  t: "delay";
  id: string;
  /** the wait; with template: the length of one unit, multiplied by the template's number */
  seconds: number;
  template?: string;
  next?: string;
  adminOnly?: true;
}

export interface InputNode {
  t: "input";
  id: string;
  collect: CollectDef;
  /** inputPrompt with the node's buttons: sent when nothing asked the question in the same update */
  ask?: { text: string; format: Format; keyboard?: KeyboardDef };
  /** inputTimeout: no answer within seconds → the question expires and the flow goes to target (a durable wait, waits.ts) */
  timeout?: { seconds: number; target?: string };
  adminOnly?: true;
}


export type ScenarioNode = MessageNode | ConditionNode | SetNode | DelayNode | InputNode | LogicNode | ActionNode;

export interface CommandDef {
  /** lower case, without slash */
  command: string;
  target: string;
  description: string;
  menu?: true;
  adminOnly?: true;
  /** deep links: "/start <parameter>" runs the first link that matches (exact ones, then the longest prefix) */
  links?: DeepLinkDef[];
  /** the trigger node that starts the flow (analytics count it and its transition, docs/analytics.md) */
  via?: string;
}

/** A command_trigger with deepLinkParam: its own flow for one parameter (or a family by prefix). */
export interface DeepLinkDef {
  match: "exact" | "prefix";
  value: string;
  target: string;
  /** the variable that receives the parameter */
  saveAs?: string;
  /** the trigger node that starts the flow (analytics count it and its transition, docs/analytics.md) */
  via?: string;
}

/** A pressed inline button whose data matches starts the flow at target. */
export interface CallbackTriggerDef {
  /** any: every press nothing else handles */
  match: "exact" | "prefix" | "contains" | "any";
  data: string;
  target: string;
  /** variable that receives the data (callbackDataSaveAs), without strip when it starts with it */
  saveAs?: string;
  strip?: string;
  /** callbackParseTemplate as a regular expression with named groups, and where each group goes */
  parse?: { pattern: string; vars: { group: string; variable: string }[] };
  adminOnly?: true;
  /** the trigger node that starts the flow (analytics count it and its transition, docs/analytics.md) */
  via?: string;
}

export interface TextTriggerDef {
  match: "exact" | "contains";
  texts: string[];
  target: string;
  adminOnly?: true;
  /** the trigger node that starts the flow (analytics count it and its transition, docs/analytics.md) */
  via?: string;
}
