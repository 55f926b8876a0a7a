// What every node compiler needs: the raw nodes by id, target resolution and warning collection.
import type { Issue } from "../validate";
import { isRunnableType } from "../model";
import { LOGIC_TYPES } from "../types-logic";
import { ACTION_TYPES } from "../types-messaging";
import { COMPILE_WARNINGS, warningCode, warningMessage, type SlotsOf, type TargetField, type WarningKey, type WarningParams } from "./warnings";

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

/** Where a transition comes from, for the warning when its target does not run: a field, a button or a branch. */
export type Via = TargetField | { button: string } | { branch: string; onError?: true };

export class CompileContext {
  readonly warnings: Issue[] = [];
  private readonly seen = new Set<string>();
  /** keyboard nodes a transition leads to: they become rows that put their keyboard on a message */
  readonly keyboardTargets = new Set<string>();

  constructor(readonly byId: Map<string, RawNode>) {}

  /** A warning of the table (./warnings.ts) about `node`; its `node` slot is the node's id. */
  warn<K extends WarningKey>(node: RawNode | undefined, key: K, ...args: Exclude<SlotsOf<K>, "node"> extends never ? [] : [Record<Exclude<SlotsOf<K>, "node">, string | number>]) {
    const params: WarningParams = { ...(node && COMPILE_WARNINGS[key].en.includes("{node}") && { node: node.id }), ...args[0] };
    const message = warningMessage(key, params);
    const seen = `${node?.id ?? ""}\u0000${message}`;
    if (this.seen.has(seen)) return; // one warning per node and problem
    this.seen.add(seen);
    this.warnings.push({ nodeId: node?.id, sheetId: node?.sheetId, code: warningCode(key), message, detail: { key, params } });
  }

  /**
   * A transition target the bot can run, or undefined (stop). Missing targets were already reported
   * by validation; a target of a skipped type is reported here because the flow stops there.
   */
  target(from: RawNode, id: string | undefined, via: Via): string | undefined {
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
    }
    const targetNode = t;
    // a comment is a note on the canvas: the flow stops at it as at a skipped type, it is no trigger
    if (!isRunnableType(node.type) || node.type === "comment") {
      const targetType = node.type;
      if (typeof via === "string") this.warn(from, "target.skipped", { targetNode, targetType, field: via });
      else if ("button" in via) this.warn(from, "target.buttonSkipped", { targetNode, targetType, button: via.button });
      else this.warn(from, via.onError ? "target.branchErrorSkipped" : "target.branchSkipped", { targetNode, targetType, branch: via.branch });
    } else if (typeof via === "string") this.warn(from, "target.trigger", { targetNode, field: via });
    else if ("button" in via) this.warn(from, "target.buttonTrigger", { targetNode, button: via.button });
    else this.warn(from, via.onError ? "target.branchErrorTrigger" : "target.branchTrigger", { targetNode, branch: via.branch });
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
