// Runtime source, part 1: the shapes of the scenario tables and of per-chat state.
// The runtime parts are TypeScript source kept as text and copied into every generated bot
// (String.raw keeps backslashes as written). Rules for these files: no backticks, no template
// placeholders and no \u escapes inside the code (program.ts explains the last one).
// The tests type-check generated programs with tsc.
export const RUNTIME_TYPES = String.raw`
// ─── Scenario table shapes ─────────────────────────────────────────────────────

type Format = "html" | "markdown" | "text";
type MediaKind = "photo" | "video" | "audio" | "document";

interface ButtonDef {
  id: string;
  text: string;
  action: "goto" | "command" | "url" | "contact" | "location" | "complete";
  /** node id (goto, complete, contact, location) or command name (command) */
  target?: string;
  url?: string;
  /** skipDataCollection: pressing it does not store its text into the input variable */
  skipInput?: true;
  /** hideAfterClick: the inline keyboard disappears from the message after a press */
  hide?: true;
}

interface KeyboardDef {
  kind: "reply" | "inline";
  /** the keyboard node it comes from */
  from?: string;
  buttons: ButtonDef[];
  /** button indexes per row */
  rows: number[][];
  oneTime?: true;
  resize?: true;
}

/** A URL, platform path or file id (may contain {variables}), or a variable holding a file id. */
interface MediaDef {
  kind: MediaKind | "auto";
  url?: string;
  variable?: string;
}

interface ValidationDef {
  kind: "number" | "email" | "phone" | "regex" | "length";
  pattern?: string;
  min?: number;
  max?: number;
}

interface CollectDef {
  /** where a text answer goes */
  variable?: string;
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
interface VariantDef {
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

interface MessageNode {
  t: "message";
  id: string;
  text: string;
  format: Format;
  noPreview?: true;
  media?: MediaDef[];
  caption?: string;
  keyboard?: KeyboardDef;
  removeKeyboard?: true;
  collect?: CollectDef;
  variants?: VariantDef[];
  next?: string;
  adminOnly?: true;
}

type Operator =
  | "equals" | "not_equals" | "contains" | "matches" | "filled" | "empty"
  | "greater_than" | "less_than" | "between" | "else";

interface ConditionNode {
  t: "condition";
  id: string;
  variable?: string;
  template?: string;
  branches: { op: Operator; value: string; value2?: string; target: string }[];
  fallback?: string;
  adminOnly?: true;
}

interface AssignmentDef {
  variable: string;
  mode: "set" | "append" | "increment" | "regex_extract";
  value: string;
  pattern?: string;
  group?: number;
  fallback?: string;
}

interface SetNode {
  t: "set";
  id: string;
  assignments: AssignmentDef[];
  next?: string;
  adminOnly?: true;
}

interface DelayNode {
  t: "delay";
  id: string;
  seconds: number;
  next?: string;
  adminOnly?: true;
}

interface InputNode {
  t: "input";
  id: string;
  collect: CollectDef;
  adminOnly?: true;
}

type ScenarioNode = MessageNode | ConditionNode | SetNode | DelayNode | InputNode;

interface CommandDef {
  command: string;
  target: string;
  description: string;
  menu?: true;
  adminOnly?: true;
}

interface TextTriggerDef {
  match: "exact" | "contains";
  texts: string[];
  target: string;
  adminOnly?: true;
}

// ─── Per-chat state ────────────────────────────────────────────────────────────

type Vars = Record<string, unknown>;

/** variant 0 is the node itself, k > 0 its k-th conditional message */
interface NodeRef {
  node: string;
  variant: number;
}

interface ChatState {
  vars: Vars;
  /** the question whose answer the bot waits for */
  waiting?: NodeRef;
  /** the reply keyboard on the user's screen, with its button texts as shown */
  keyboard?: NodeRef & { texts: string[] };
  /** what kind of media an input stored in a variable (for attachedMedia) */
  mediaKinds?: Record<string, MediaKind>;
}

type IncomingMessage = NonNullable<Context["message"]>;
type Sender = NonNullable<Context["from"]>;

/** One update being handled, or the continuation of one after a delay node. */
interface Turn {
  ctx: Context;
  chatId: number;
  state: ChatState;
  from?: Sender;
  isAdmin: boolean;
  /** message_text, callback_data, button_text of this update */
  event: Record<string, string>;
  steps: number;
}
`;
