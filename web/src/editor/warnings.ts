// The warnings the editor shows (docs/editor.md "Warnings"): validation runs in the browser on the
// unsaved document as you edit (src/scenario/validate.ts, the same code the server runs), the
// compiler's own findings come from the last generate (they refresh on save), and every warning is
// said in the reader's language, naming nodes by what they say rather than by id.
import type { TFunction } from "i18next";
import { SLOTS } from "../../../src/scenario/slots";
import { validateScenario, type Issue } from "../../../src/scenario/validate";
import type { GeneratedWarning } from "../api/types";
import { COMPILER_WARNINGS_RU } from "./compiler-warnings-ru";
import { textOf, type Doc, type SNode } from "./document";
import type { Warning } from "./CodeView";

/** What validateScenario finds: for these the live check replaces generate's (older) copy. */
const LIVE_CODES = new Set(["NODE_TYPE_OUT_OF_SCOPE", "NODE_TYPE_UNKNOWN", "DANGLING_TARGET", "UNREACHABLE", "BUTTON_INCOMPLETE", "QUESTION_MISSING"]);

/** A node as a person recognises it: its kind and its text, e.g. Message “Hello there”. */
export function nodeName(n: SNode, t: TFunction): string {
  return t("editor.warn.name", { kind: t(`editor.types.${n.type}`, n.type), text: textOf(n) || n.id });
}

/**
 * The word of the link a warning's `field` slot names, as the node's handle shows it
 * (editor.slots, from the node type's slot table); the loop's body comes as "loop body (autoTransitionTo)".
 */
function linkWord(field: string, type: string, t: TFunction): string {
  const name = /\((\w+)\)$/.exec(field)?.[1] ?? field;
  const specs = (Object.hasOwn(SLOTS, type) ? SLOTS[type]! : []).flatMap((s) => (s.form === "nested" ? s.inner : [s]));
  const spec = specs.find((s) => s.form === "field" && s.field === name);
  return spec?.form === "field" ? t(`editor.slots.${spec.name}`) : field;
}

/** One slot value as the reader knows it: a node by its text, a kind of step, a link in words. */
function slotText(slot: string, value: string | number, owner: SNode | undefined, nodes: Map<string, SNode>, t: TFunction): string {
  const v = String(value);
  if (slot === "node" || slot.endsWith("Node")) {
    const named = nodes.get(v);
    return named ? nodeName(named, t) : `«${v}»`;
  }
  if (slot.endsWith("Type")) return t(`editor.types.${v}`, v);
  if (slot === "field") return linkWord(v, owner?.type ?? "", t);
  if (slot === "inputKind") return t(`editor.choices.inputType.${v}`, v);
  return v;
}

/** The generator's warning from its key (docs/api.md#scenario-warnings); undefined for any other. */
function inRussian(w: Issue, owner: SNode | undefined, nodes: Map<string, SNode>, t: TFunction): string | undefined {
  const key = w.detail?.key;
  const params = w.detail?.params;
  if (!key || !params || !Object.hasOwn(COMPILER_WARNINGS_RU, key)) return undefined;
  // each value goes in once, as text: a value holding {{…}} is never filled again
  return COMPILER_WARNINGS_RU[key as keyof typeof COMPILER_WARNINGS_RU].replace(/\{\{(\w+)\}\}/g, (whole, slot: string) =>
    Object.hasOwn(params, slot) ? slotText(slot, params[slot]!, owner, nodes, t) : whole,
  );
}

function say(w: Issue, nodes: Map<string, SNode>, t: TFunction, lang: string): string {
  const node = w.nodeId ? nodes.get(w.nodeId) : undefined;
  const name = node ? nodeName(node, t) : w.nodeId ?? "";
  switch (w.code) {
    case "UNREACHABLE":
      return t("editor.warn.unreachable", { node: name });
    case "DANGLING_TARGET":
      return t("editor.warn.dangling", { node: name });
    case "BUTTON_INCOMPLETE":
      if (w.detail?.problem) return t(`editor.warn.button.${w.detail.problem}`, { node: name, button: w.detail.button ?? "" });
      break;
    case "QUESTION_MISSING":
      return t("editor.warn.question", { node: name });
    case "NODE_TYPE_OUT_OF_SCOPE":
    case "NODE_TYPE_UNKNOWN":
      return t("editor.warn.skipped", { node: name });
  }
  const said = lang === "ru" ? inRussian(w, node, nodes, t) : undefined;
  if (said) return said;
  // the server's English sentence: at least the nodes it names are named by their text
  return w.message.replace(/(Node |node |trigger |to )?"([^"]+)"/g, (whole, _lead: string | undefined, id: string) => {
    const named = nodes.get(id);
    return named ? nodeName(named, t) : whole;
  });
}

/**
 * Live warnings of `doc` and the compiler's warnings of the last generate, for nodes that still
 * exist, in `lang`. Russian has its own sentence for each of the generator's keys; English shows the
 * server's sentence, so the two English copies cannot drift apart.
 */
export function editorWarnings(doc: Doc, generated: GeneratedWarning[], t: TFunction, lang: string): Warning[] {
  const nodes = new Map(doc.sheets.flatMap((s) => s.nodes).map((n) => [n.id, n]));
  const live: Issue[] = validateScenario(doc).warnings;
  const compiled = generated.filter((w) => !LIVE_CODES.has(w.code) && (!w.nodeId || nodes.has(w.nodeId))) as Issue[];
  return [...live, ...compiled].map((w) => ({ nodeId: w.nodeId ?? undefined, sheetId: w.sheetId ?? undefined, code: w.code, message: say(w, nodes, t, lang) }));
}
