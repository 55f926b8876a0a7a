// Where a node's transitions live (docs/scenario.md: transitions live in node data). ONE table per
// node type, read by validation (refs.ts), editing and the MCP delete_node (edit.ts), and the web
// editor (web/src/editor/document.ts); test/scenario/slots.test.ts holds it equal to what the
// compiler follows. The web app bundles this file, so it stays pure: no imports, no I/O.

type Data = Record<string, unknown>;

/** How the canvas draws a slot: a step of the flow, a button, a branch, or the keyboard attachment. */
export type SlotKind = "auto" | "button" | "branch" | "default" | "input" | "keyboard";

/** One data field that holds a target node id. */
interface FieldSpec {
  form: "field";
  field: string;
  kind: SlotKind;
  /** the canvas handle id (stored in edges, so it never changes) */
  handle: string;
  /** the word the editor shows for the slot (editor.slots.<name>) */
  name: string;
  /** whether the editor offers the slot while it is empty; a set target is always a slot */
  offered?: (d: Data, type: string) => boolean;
}

/** A list in node data whose items each hold a target (buttons, branches). */
interface ListSpec {
  form: "list";
  list: string;
  /** the item field holding the target */
  field: string;
  kind: SlotKind;
  /** handle prefix: `<prefix>:<item id or index>` */
  prefix: string;
  /** words for messages: `button`, `branch` (followed by the item's text in quotes) */
  noun: string;
  /** what the item is called after the noun, e.g. `onErrorTarget` */
  suffix?: string;
  /** only items the runtime follows (a url button has no node target) */
  follows?: (item: Data) => boolean;
}

/** A list whose items carry slots of their own (conditional messages). */
interface NestedSpec {
  form: "nested";
  list: string;
  prefix: string;
  noun: string;
  inner: readonly (FieldSpec | ListSpec)[];
}

export type SlotSpec = FieldSpec | ListSpec | NestedSpec;

const isObj = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const items = (v: unknown): Data[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Button actions whose `target` is a node id; `command` names a command and `url` a link. */
export const NODE_TARGET_ACTIONS: readonly string[] = ["goto", "complete", "contact", "location", "poll", "web_app", "default", ""];
/** What a button does, as the compiler reads it (request flags win over the action). */
export function buttonAction(b: Data): string {
  if (b.requestContact === true) return "contact";
  if (b.requestLocation === true) return "location";
  if (b.requestPoll === true) return "poll";
  return str(b.action) || "goto";
}
const followsButton = (b: Data) => NODE_TARGET_ACTIONS.includes(buttonAction(b));
const hasSelection = (d: Data) => items(d.buttons).some((b) => b.action === "selection");

const field = (f: string, kind: SlotKind, handle: string, name: string, offered?: FieldSpec["offered"]): FieldSpec => ({ form: "field", field: f, kind, handle, name, offered });
const always = () => true;

const AUTO = field("autoTransitionTo", "auto", "auto", "auto", always);
const KEYBOARD = field("keyboardNodeId", "keyboard", "keyboard", "keyboard", always);
/** an input node's keyboard node goes with its question, so it is offered once there is one */
const QUESTION_KEYBOARD = field("keyboardNodeId", "keyboard", "keyboard", "keyboard", (d) => str(d.inputPrompt).trim() !== "");
const INPUT = field("inputTargetNodeId", "input", "input", "input", (d, type) => type === "input" || d.collectUserInput === true);
/** where an input goes when nobody answers within its inputTimeout, offered once it has one */
const INPUT_TIMEOUT = field("inputTimeoutTarget", "default", "timeout", "timeout", (d) => Number(d.inputTimeout) > 0);
const CONTINUE = field("continueButtonTarget", "button", "continue", "continue", hasSelection);
const BUTTONS: ListSpec = { form: "list", list: "buttons", field: "target", kind: "button", prefix: "btn", noun: "button", follows: followsButton };
const VARIANTS: NestedSpec = {
  form: "nested",
  list: "conditionalMessages",
  prefix: "cm",
  noun: "conditional message",
  inner: [
    BUTTONS,
    CONTINUE,
    field("nextNodeAfterInput", "input", "afterInput", "input", (d) => d.waitForTextInput === true),
    field("inputTargetNodeId", "input", "input", "input", (d) => d.collectUserInput === true),
    field("keyboardNodeId", "keyboard", "keyboard", "keyboard"),
  ],
};

/** A message and its kin: buttons, input, conditional variants, a keyboard node, then the next step. */
const MESSAGE: readonly SlotSpec[] = [BUTTONS, CONTINUE, INPUT, VARIANTS, KEYBOARD, AUTO];
/** Nodes that send something with a keyboard but collect nothing (compile-actions.ts). */
const SENDER: readonly SlotSpec[] = [BUTTONS, CONTINUE, KEYBOARD, AUTO];
const STEP: readonly SlotSpec[] = [AUTO];
/** Where the flow goes when the node fails (a timeout, a refused connection, a bad answer); offered always. */
const ON_ERROR = field("errorTransitionTo", "default", "error", "error", always);

/** Slots per node type, in the order the node draws its handles. */
export const SLOTS: Readonly<Record<string, readonly SlotSpec[]>> = {
  start: MESSAGE,
  command: MESSAGE,
  message: MESSAGE,
  photo: MESSAGE,
  video: MESSAGE,
  audio: MESSAGE,
  document: MESSAGE,
  media: MESSAGE,
  sticker: SENDER,
  voice: SENDER,
  animation: SENDER,
  location: SENDER,
  contact: SENDER,
  // a keyboard node reached by a transition puts its keyboard on the last message, then moves on
  keyboard: [BUTTONS, CONTINUE, AUTO],
  // the buttons of its question (inputPrompt, docs/scenario.md "Input nodes"), then the answer's way
  input: [BUTTONS, CONTINUE, QUESTION_KEYBOARD, INPUT, INPUT_TIMEOUT],
  condition: [
    { form: "list", list: "branches", field: "target", kind: "branch", prefix: "branch", noun: "branch" },
    field("defaultTargetId", "default", "default", "default", always),
  ],
  loop: [field("afterLoopTo", "default", "afterLoop", "afterLoop", always), { ...AUTO, name: "body" }],
  parallel_split: [
    { form: "list", list: "parallelBranches", field: "target", kind: "branch", prefix: "pbranch", noun: "branch" },
    { form: "list", list: "parallelBranches", field: "onErrorTarget", kind: "branch", prefix: "pbranch-error", noun: "branch", suffix: "onErrorTarget" },
    AUTO,
  ],
  edit_message: [field("editKeyboardNodeId", "keyboard", "keyboard", "keyboard", (d) => d.editKeyboardMode === "node"), AUTO],
  broadcast: [field("broadcastTargetNode", "default", "broadcast", "broadcast", always), AUTO],
  set_variable: STEP,
  delay: STEP,
  http_request: STEP,
  convert_file: STEP,
  bot_table: STEP,
  psql_query: [AUTO, ON_ERROR],
  ai_answer: [AUTO, ON_ERROR],
  delete_message: STEP,
  forward_message: STEP,
  answer_callback_query: STEP,
  pin_message: STEP,
  unpin_message: STEP,
  create_forum_topic: STEP,
  ban_user: STEP,
  unban_user: STEP,
  mute_user: STEP,
  unmute_user: STEP,
  kick_user: STEP,
  promote_user: STEP,
  demote_user: STEP,
  admin_rights: STEP,
  approve_join_request: STEP,
  invoice: STEP,
  refund_payment: STEP,
  refuse_checkout: STEP,
  decline_join_request: STEP,
  command_trigger: STEP,
  text_trigger: STEP,
  callback_trigger: STEP,
  incoming_callback_trigger: STEP,
  incoming_message_trigger: STEP,
  outgoing_message_trigger: STEP,
  group_message_trigger: STEP,
  schedule_trigger: STEP,
  reaction_trigger: STEP,
  member_trigger: STEP,
  join_request_trigger: STEP,
  payment_trigger: STEP,
  checkout_trigger: STEP,
  webhook_trigger: STEP,
  comment: [],
};

/**
 * A type the bot does not run (unknown, or left out on purpose): every usual place is read, so
 * that such a node in the middle of a flow neither hides what follows it nor keeps a deleted target.
 */
const OTHER: readonly SlotSpec[] = [...MESSAGE.filter((s) => s !== AUTO), SLOTS.condition![0]!, field("defaultTargetId", "default", "default", "default"), AUTO];

export const slotSpecsOf = (type: string): readonly SlotSpec[] => (Object.hasOwn(SLOTS, type) ? SLOTS[type]! : OTHER);

/** One transition of one node. */
export interface Slot {
  /** canvas handle id; also what setSlot takes */
  handle: string;
  kind: SlotKind;
  /** whether it is a field of the data, or an item of a list (a button, a branch) */
  form: "field" | "item";
  /** the word the editor shows for a field slot (editor.slots.<name>) */
  name: string;
  /** an item's text or label, for the canvas; "" for a field */
  label: string;
  /** the target node id, "" when unset */
  target: string;
  /** in words, for messages: `autoTransitionTo`, `button "Go"`, `conditional message #1 keyboardNodeId` */
  what: string;
  /** where it is written, for lists of changes: `autoTransitionTo`, `buttons[b1]`, `conditionalMessages[0].keyboardNodeId` */
  path: string;
}

function specSlots(specs: readonly SlotSpec[], d: Data, type: string, ctx: { handle: string; what: string; path: string }, out: Slot[]) {
  for (const spec of specs) {
    if (spec.form === "field") {
      const target = str(d[spec.field]);
      if (target === "" && !spec.offered?.(d, type)) continue;
      out.push({ handle: ctx.handle + spec.handle, kind: spec.kind, form: "field", name: spec.name, label: "", target, what: ctx.what + spec.field, path: ctx.path + spec.field });
    } else if (spec.form === "list") {
      items(d[spec.list]).forEach((item, i) => {
        if (spec.follows && !spec.follows(item)) return;
        const key = String(item.id ?? i);
        const label = str(item.text) || str(item.label) || str(item.operator);
        const target = str(item[spec.field]);
        if (spec.suffix && target === "") return; // a secondary target is drawn only once set
        const words = `${spec.noun} "${str(item.text) || str(item.label) || String(item.id ?? "")}"${spec.suffix ? " " + spec.suffix : ""}`;
        out.push({ handle: `${ctx.handle}${spec.prefix}:${key}`, kind: spec.kind, form: "item", name: spec.kind, label, target, what: ctx.what + words, path: `${ctx.path}${spec.list}[${key}]${spec.field === "target" ? "" : "." + spec.field}` });
      });
    } else {
      items(d[spec.list]).forEach((item, i) => {
        const key = String(item.id ?? i);
        specSlots(spec.inner, item, type, { handle: `${ctx.handle}${spec.prefix}:${key}/`, what: `${ctx.what}${spec.noun} #${i + 1} `, path: `${ctx.path}${spec.list}[${key}].` }, out);
      });
    }
  }
}

/** Every transition slot of a node, set or offered, in the order the node draws its handles. */
export function slotsOfNode(type: string, data: unknown): Slot[] {
  const out: Slot[] = [];
  specSlots(slotSpecsOf(type), isObj(data) ? data : {}, type, { handle: "", what: "", path: "" }, out);
  return out;
}

/** The slots that name a target. */
export const targetsOfNode = (type: string, data: unknown): Slot[] => slotsOfNode(type, data).filter((s) => s.target !== "");

/** Where a connection of one kind goes on a node of `type`, for clients that name the kind, not the handle. */
export type KindSlot = { form: "field"; handle: string; field: string } | { form: "list"; list: string; prefix: string; noun: string };

/** The node's first top-level slot of `kind` (a field, or a list whose items each go somewhere); undefined when it has none. */
export function slotOfKind(type: string, kind: SlotKind): KindSlot | undefined {
  for (const spec of slotSpecsOf(type)) {
    if (spec.form === "nested" || spec.kind !== kind) continue;
    if (spec.form === "field") return { form: "field", handle: spec.handle, field: spec.field };
    if (spec.form === "list" && spec.field === "target") return { form: "list", list: spec.list, prefix: spec.prefix, noun: spec.noun };
  }
  return undefined;
}

/** The kinds of connection a node of `type` takes, for messages. */
export const kindsOf = (type: string): SlotKind[] => [...new Set(slotSpecsOf(type).flatMap((s) => (s.form === "nested" ? [] : [s.kind])))];

/** Every data field (and list item field) that may hold a target, over all types. */
export function targetFields(): Set<string> {
  const out = new Set<string>();
  const walk = (specs: readonly SlotSpec[], at: string) => {
    for (const s of specs) {
      if (s.form === "field") out.add(at + s.field);
      else if (s.form === "list") out.add(`${at}${s.list}[].${s.field}`);
      else walk(s.inner, `${at}${s.list}[].`);
    }
  };
  for (const specs of [...Object.values(SLOTS), OTHER]) walk(specs, "");
  return out;
}

/** Writes a target into one slot of a spec list; returns new data, or undefined for an unknown handle. */
function writeSpecs(specs: readonly SlotSpec[], d: Data, type: string, handle: string, target: string, top: boolean): Data | undefined {
  for (const spec of specs) {
    if (spec.form === "field") {
      if (handle !== spec.handle) continue;
      const out: Data = { ...d, [spec.field]: target };
      // A message moves on only with enableAutoTransition; an input slot on a message turns collection on.
      if (top && spec.field === "autoTransitionTo" && ("enableAutoTransition" in d || SLOTS[type] === MESSAGE || SLOTS[type] === SENDER)) out.enableAutoTransition = target !== "";
      if (spec.field === "inputTargetNodeId" && type !== "input" && target !== "") out.collectUserInput = true;
      return out;
    }
    const head = `${spec.prefix}:`;
    if (!handle.startsWith(head)) continue;
    const rest = handle.slice(head.length);
    if (spec.form === "list") {
      let hit = false;
      const list = (Array.isArray(d[spec.list]) ? (d[spec.list] as unknown[]) : []).map((item, i) => {
        if (!isObj(item) || String(item.id ?? i) !== rest) return item;
        hit = true;
        const next: Data = { ...item, [spec.field]: target };
        // a button given a node to go to says so (a url or command button becomes a goto)
        if (spec.list === "buttons" && !(followsButton(item) && str(item.action) !== "")) next.action = "goto";
        return next;
      });
      if (hit) return { ...d, [spec.list]: list };
    } else {
      const slash = rest.indexOf("/");
      if (slash < 0) continue;
      const key = rest.slice(0, slash);
      let hit = false;
      const list = (Array.isArray(d[spec.list]) ? (d[spec.list] as unknown[]) : []).map((item, i) => {
        if (!isObj(item) || String(item.id ?? i) !== key) return item;
        const next = writeSpecs(spec.inner, item, type, rest.slice(slash + 1), target, false);
        if (!next) return item;
        hit = true;
        return next;
      });
      if (hit) return { ...d, [spec.list]: list };
    }
  }
  return undefined;
}

/** The node's data with one slot set (an empty target clears it); undefined when the type has no such slot. */
export function setSlot(type: string, data: unknown, handle: string, target: string): Data | undefined {
  return writeSpecs(slotSpecsOf(type), isObj(data) ? data : {}, type, handle, target, true);
}
