// Where a node points to other nodes, for validation (dangling targets, reachability). The places
// are the one slot table of slots.ts; a type the bot does not run is read at every usual place, so
// that such a node in the middle of a flow does not make the rest of the flow look unreachable.
import { isObject } from "../lib/values";
import { targetsOfNode, type SlotKind } from "./slots";

export interface NodeRef {
  /** what the reference is, in words, for messages: `button "Go"`, `autoTransitionTo` */
  label: string;
  kind: SlotKind;
  target: string;
}

/** Every node id a node refers to, in the order the node draws its slots. */
export function nodeRefs(node: { type?: unknown; data?: unknown }): NodeRef[] {
  return targetsOfNode(typeof node.type === "string" ? node.type : "", node.data).map((s) => ({ label: s.what, kind: s.kind, target: s.target }));
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
