// What every node compiler needs: the raw nodes by id, target resolution and warning collection.
import type { Issue, IssueCode } from "../validate";
import { isRunnableType } from "../model";
import { LOGIC_TYPES } from "../types-logic";
import { ACTION_TYPES } from "../types-messaging";

export interface RawNode {
  id: string;
  type: string;
  data: Record<string, unknown>;
  sheetId?: string;
  sheetName: string;
}

/** Types that become rows of the node table (triggers and keyboards are folded elsewhere). */
export const TABLE_TYPES = new Set([
  "start",
  "command",
  "message",
  "photo",
  "video",
  "audio",
  "document",
  "input",
  "condition",
  "set_variable",
  "delay",
  ...LOGIC_TYPES,
  ...ACTION_TYPES,
]);

export class CompileContext {
  readonly warnings: Issue[] = [];
  private readonly seen = new Set<string>();
  /** keyboard nodes a transition leads to: they become rows that put their keyboard on a message */
  readonly keyboardTargets = new Set<string>();

  constructor(readonly byId: Map<string, RawNode>) {}

  warn(node: RawNode | undefined, message: string, code: IssueCode = "INVALID_DATA") {
    const key = `${node?.id ?? ""}\u0000${message}`;
    if (this.seen.has(key)) return; // one warning per node and problem
    this.seen.add(key);
    this.warnings.push({ nodeId: node?.id, sheetId: node?.sheetId, code, message });
  }

  /**
   * A transition target the bot can run, or undefined (stop). Missing targets were already reported
   * by validation; a target of a skipped type is reported here because the flow stops there.
   */
  target(from: RawNode, id: string | undefined, what: string): string | undefined {
    const t = id?.trim();
    if (!t) return undefined;
    const node = this.byId.get(t);
    if (!node) return undefined;
    if (TABLE_TYPES.has(node.type)) return t;
    if (node.type === "keyboard") {
      this.keyboardTargets.add(t);
      return t;
    } else if ((node.type === "callback_trigger" || node.type === "incoming_callback_trigger") && from.type !== node.type) {
      // A button wired to a callback trigger (the older editor's way): the press goes where the
      // trigger leads; with matching data the trigger itself runs first (callbacks runtime).
      const next = typeof node.data.autoTransitionTo === "string" ? node.data.autoTransitionTo : undefined;
      return next && next !== from.id ? this.target(node, next, "autoTransitionTo") : undefined;
    } else if (!isRunnableType(node.type)) {
      this.warn(from, `Node "${from.id}": ${what} leads to "${t}" (${node.type}), which is skipped; the flow stops there.`, "TARGET_NOT_RUNNABLE");
    } else {
      this.warn(from, `Node "${from.id}": ${what} points to trigger "${t}"; the flow stops there.`, "TARGET_NOT_RUNNABLE");
    }
    return undefined;
  }
}

/** A trimmed non-empty string, or undefined. */
export const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v : undefined;

/** Numbers given as numbers or numeric strings. */
export function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/**
 * `map[key]` for a key that comes from the scenario: own entries only, so "constructor" or
 * "__proto__" never reach Object.prototype (its functions would otherwise land in the program).
 */
export function ownValue<M extends object>(map: M, key: unknown): M[keyof M] | undefined {
  return typeof key === "string" && Object.hasOwn(map, key) ? map[key as keyof M] : undefined;
}
