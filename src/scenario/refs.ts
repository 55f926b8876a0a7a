// Where a node points to other nodes. Transitions live in node data (edges are drawing only),
// so validation (dangling targets, reachability) reads them from here. Works on raw data of any
// node type, Level 2 included, so that a Level 2 node in the middle of a flow does not make the
// rest of the flow look unreachable.
import { isObject } from "../lib/values";

export type RefKind = "transition" | "keyboard" | "button";

export interface NodeRef {
  /** what the reference is, in words, for messages: `button "Go"`, `autoTransitionTo` */
  label: string;
  kind: RefKind;
  target: string;
}

/** Data fields that hold one target node id. */
const TARGET_FIELDS = [
  "autoTransitionTo",
  "inputTargetNodeId",
  "defaultTargetId",
  "nextNodeAfterInput",
  "continueButtonTarget",
] as const;

/**
 * Button actions whose `target` is a node id (`command` targets a command, `url` a link): the
 * compiler follows the target of contact/location/complete buttons too (compile-keyboard.ts).
 */
const NODE_TARGET_ACTIONS = new Set(["goto", "complete", "contact", "location", "", undefined]);

function buttonRefs(owner: string, buttons: unknown, out: NodeRef[]) {
  if (!Array.isArray(buttons)) return;
  for (const b of buttons) {
    if (!isObject(b)) continue;
    const action = typeof b.action === "string" ? b.action : undefined;
    if (!NODE_TARGET_ACTIONS.has(action)) continue;
    if (typeof b.target === "string" && b.target !== "") {
      out.push({ label: `${owner}button "${String(b.text ?? b.id ?? "")}"`, kind: "button", target: b.target });
    }
  }
}

function dataRefs(data: Record<string, unknown>, owner: string, out: NodeRef[]) {
  for (const key of TARGET_FIELDS) {
    const v = data[key];
    if (typeof v === "string" && v !== "") out.push({ label: owner + key, kind: "transition", target: v });
  }
  if (typeof data.keyboardNodeId === "string" && data.keyboardNodeId !== "") {
    out.push({ label: owner + "keyboardNodeId", kind: "keyboard", target: data.keyboardNodeId });
  }
  buttonRefs(owner, data.buttons, out);
}

/** Every node id a node refers to, in data order. */
export function nodeRefs(node: { type?: unknown; data?: unknown } | Record<string, unknown>): NodeRef[] {
  const out: NodeRef[] = [];
  const data = isObject(node.data) ? node.data : {};
  dataRefs(data, "", out);
  if (Array.isArray(data.branches)) {
    for (const br of data.branches) {
      if (isObject(br) && typeof br.target === "string" && br.target !== "") {
        out.push({ label: `branch "${String(br.label ?? br.id ?? "")}"`, kind: "transition", target: br.target });
      }
    }
  }
  if (Array.isArray(data.conditionalMessages)) {
    data.conditionalMessages.forEach((cm, i) => {
      if (isObject(cm)) dataRefs(cm, `conditional message #${i + 1} `, out);
    });
  }
  return out;
}

/** Commands a node's buttons run (`action: "command"`), normalised like command names. */
export function buttonCommands(node: { data?: unknown } | Record<string, unknown>): string[] {
  const data = isObject(node.data) ? node.data : {};
  const lists = [data.buttons];
  if (Array.isArray(data.conditionalMessages)) {
    for (const cm of data.conditionalMessages) if (isObject(cm)) lists.push(cm.buttons);
  }
  const out: string[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const b of list) {
      if (isObject(b) && b.action === "command" && typeof b.target === "string" && b.target.trim() !== "") {
        out.push(commandName(b.target));
      }
    }
  }
  return out;
}

/** "/Start@my_bot" → "start": how commands are compared everywhere. */
export function commandName(raw: string): string {
  return raw.trim().replace(/^\//, "").split(/[\s@]/)[0]!.toLowerCase();
}
