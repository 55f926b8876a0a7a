// The compiled scenario: what the generator writes into the bot as data tables. These shapes are
// mirrored by the type declarations at the top of the generated program (runtime/types.ts); the
// type-check of generated code in the tests keeps both in step.

export type Format = "html" | "markdown" | "text";
export type MediaKind = "photo" | "video" | "audio" | "document";
export type ButtonAction = "goto" | "command" | "url" | "contact" | "location" | "complete";

export interface ButtonDef {
  id: string;
  text: string;
  action: ButtonAction;
  /** node id (goto, complete) or command name without slash (command) */
  target?: string;
  url?: string;
  /** skipDataCollection: pressing it does not store the text into the input variable */
  skipInput?: true;
  /** hideAfterClick: the inline keyboard is removed from the message after a press */
  hide?: true;
}

export interface KeyboardDef {
  kind: "reply" | "inline";
  /** the keyboard node it comes from (keyboardNodeId), so contentCache can find its buttons */
  from?: string;
  buttons: ButtonDef[];
  /** button indexes per row */
  rows: number[][];
  oneTime?: true;
  resize?: true;
}

/** A media item: a URL/path/file id (`url`, may hold {variables}) or a variable's stored value. */
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
  /** where a text answer goes */
  variable?: string;
  target?: string;
  text: boolean;
  media: { kind: MediaKind; variable: string }[];
  /** inputType "any": text or any media into `variable` */
  any?: true;
  append?: true;
  validate?: ValidationDef;
  retry?: string;
}

export interface VariantDef {
  id: string;
  check: "exists" | "not_exists" | "equals" | "contains";
  vars: string[];
  /** OR instead of AND over `vars` */
  anyOf?: true;
  value?: string;
  /** absent: the node's own text stays (a blank conditional text replaces only the keyboard) */
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
  adminOnly?: true;
}

export type Operator =
  | "equals"
  | "not_equals"
  | "contains"
  | "matches"
  | "filled"
  | "empty"
  | "greater_than"
  | "less_than"
  | "between"
  | "else";

export interface ConditionNode {
  t: "condition";
  id: string;
  /** a variable name (dotted paths allowed) ... */
  variable?: string;
  /** ... or a template such as "{message_text}" */
  template?: string;
  branches: { op: Operator; value: string; value2?: string; target: string }[];
  fallback?: string;
  adminOnly?: true;
}

export interface AssignmentDef {
  variable: string;
  mode: "set" | "append" | "increment" | "regex_extract";
  value: string;
  pattern?: string;
  group?: number;
  fallback?: string;
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
  seconds: number;
  next?: string;
  adminOnly?: true;
}

export interface InputNode {
  t: "input";
  id: string;
  collect: CollectDef;
  adminOnly?: true;
}

export type TableNode = MessageNode | ConditionNode | SetNode | DelayNode | InputNode;

export interface CommandDef {
  /** lower case, without slash */
  command: string;
  target: string;
  description: string;
  menu?: true;
  adminOnly?: true;
}

export interface TextTriggerDef {
  match: "exact" | "contains";
  texts: string[];
  target: string;
  adminOnly?: true;
}

/** A table row with what a human reader of the generated file needs to find it in the editor. */
export interface TableEntry {
  node: TableNode;
  sourceType: string;
  sheet: string;
}

export interface CompiledScenario {
  nodes: TableEntry[];
  commands: CommandDef[];
  textTriggers: TextTriggerDef[];
  /** Level 2 / unknown nodes left out, for the header comment */
  skipped: { id: string; type: string }[];
}
