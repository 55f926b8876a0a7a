// Trigger nodes beyond commands and texts (docs/nodes/triggers.md): callback triggers, message
// triggers and schedules. Each becomes a row of its own table; the flow starts at its target.
import { CompileContext, text, type RawNode } from "./compile-context";
import type { CallbackTriggerDef } from "./table";

/** Tables the trigger nodes fill (see CompiledScenario). */
export interface TriggerTables {
  callbackTriggers: CallbackTriggerDef[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** "order_{id}_{qty}" → a regular expression with named groups that must match the whole data. */
function parsePattern(template: string): { pattern: string; groups: string[] } {
  const groups: string[] = [];
  let pattern = "^";
  let last = 0;
  for (const m of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    pattern += escapeRegex(template.slice(last, m.index));
    const name = m[1]!;
    pattern += groups.includes(name) ? `\\k<${name}>` : `(?<${name}>.+?)`;
    if (!groups.includes(name)) groups.push(name);
    last = m.index! + m[0].length;
  }
  return { pattern: pattern + escapeRegex(template.slice(last)) + "$", groups };
}

function callbackTrigger(node: RawNode, ctx: CompileContext): CallbackTriggerDef | undefined {
  const d = node.data;
  const target = ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo");
  const adminOnly = d.adminOnly === true ? true : undefined;
  if (node.type === "callback_trigger") {
    const data = text(d.callbackData);
    if (!data) {
      ctx.warn(node, `Node "${node.id}": callback trigger without callbackData is ignored.`);
      return undefined;
    }
    if (!target) return undefined;
    const match = String(d.matchType ?? "exact").toLowerCase() === "startswith" ? "prefix" : "exact";
    const def: CallbackTriggerDef = { match, data, target, adminOnly };
    const template = text(d.callbackParseTemplate);
    const saves = Array.isArray(d.callbackSaveVariables) ? d.callbackSaveVariables : [];
    if (template && saves.length > 0) {
      const { pattern, groups } = parsePattern(template);
      const vars = saves
        .map((v) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {}))
        .map((v) => ({ group: String(v.templateVar ?? ""), variable: String(v.saveAs ?? "").trim() }))
        .filter((v) => groups.includes(v.group) && v.variable !== "");
      if (vars.length > 0) def.parse = { pattern, vars };
    }
    return def;
  }
  // incoming_callback_trigger: callbackMatchType startsWith (default) | equals | contains; no pattern: any press.
  if (!target) return undefined;
  const pattern = typeof d.callbackPattern === "string" ? d.callbackPattern : "";
  const type = String(d.callbackMatchType ?? "startsWith").toLowerCase();
  const saveAs = text(d.callbackDataSaveAs)?.trim();
  const match = pattern === "" ? "any" : type === "equals" ? "exact" : type === "contains" ? "contains" : "prefix";
  return {
    match,
    data: pattern,
    target,
    // {callback_data} is the press's own data already; a variable of that name would outlive it.
    saveAs: saveAs && saveAs !== "callback_data" ? saveAs : undefined,
    strip: text(d.callbackDataStripPrefix),
    adminOnly,
  };
}

/** Compiles a trigger node into its table; false when the type is not a trigger of this family. */
export function compileTrigger(node: RawNode, ctx: CompileContext, out: TriggerTables): boolean {
  switch (node.type) {
    case "callback_trigger":
    case "incoming_callback_trigger": {
      const def = callbackTrigger(node, ctx);
      if (def) out.callbackTriggers.push(def);
      return true;
    }
    default:
      return false;
  }
}
