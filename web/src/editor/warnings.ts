// The warnings the editor shows (docs/editor.md "Warnings"): validation runs in the browser on the
// unsaved document as you edit (src/scenario/validate.ts, the same code the server runs), the
// compiler's own findings come from the last generate (they refresh on save), and every warning is
// said in the reader's language, naming nodes by what they say rather than by id.
import type { TFunction } from "i18next";
import { validateScenario, type Issue } from "../../../src/scenario/validate";
import { textOf, type Doc, type SNode } from "./document";
import type { Warning } from "./CodeView";

/** What validateScenario finds: for these the live check replaces generate's (older) copy. */
const LIVE_CODES = new Set(["NODE_TYPE_OUT_OF_SCOPE", "NODE_TYPE_UNKNOWN", "DANGLING_TARGET", "UNREACHABLE", "BUTTON_INCOMPLETE", "QUESTION_MISSING"]);

/** A node as a person recognises it: its kind and its text, e.g. Message “Hello there”. */
export function nodeName(n: SNode, t: TFunction): string {
  return t("editor.warn.name", { kind: t(`editor.types.${n.type}`, n.type), text: textOf(n) || n.id });
}

function say(w: Issue, nodes: Map<string, SNode>, t: TFunction): string {
  const node = w.nodeId ? nodes.get(w.nodeId) : undefined;
  const name = node ? nodeName(node, t) : w.nodeId ?? "";
  switch (w.code) {
    case "UNREACHABLE":
      return t("editor.warn.unreachable", { node: name });
    case "DANGLING_TARGET":
      return t("editor.warn.dangling", { node: name });
    case "BUTTON_INCOMPLETE":
      if (w.detail?.missing) return t(w.detail.missing === "url" ? "editor.warn.buttonNoUrl" : "editor.warn.buttonNoTarget", { node: name, button: w.detail.button ?? "" });
      break;
    case "QUESTION_MISSING":
      return t("editor.warn.question", { node: name });
    case "NODE_TYPE_OUT_OF_SCOPE":
    case "NODE_TYPE_UNKNOWN":
      return t("editor.warn.skipped", { node: name });
  }
  // the compiler's sentences (English): at least the nodes they name are named by their text
  return w.message.replace(/(Node |node |trigger |to )?"([^"]+)"/g, (whole, _lead: string | undefined, id: string) => {
    const named = nodes.get(id);
    return named ? nodeName(named, t) : whole;
  });
}

/** Live warnings of `doc` and the compiler's warnings of the last generate, for nodes that still exist. */
export function editorWarnings(doc: Doc, generated: Warning[], t: TFunction): Warning[] {
  const nodes = new Map(doc.sheets.flatMap((s) => s.nodes).map((n) => [n.id, n]));
  const live: Issue[] = validateScenario(doc).warnings;
  const compiled = generated.filter((w) => !LIVE_CODES.has(w.code ?? "") && (!w.nodeId || nodes.has(w.nodeId))) as Issue[];
  return [...live, ...compiled].map((w) => ({ nodeId: w.nodeId ?? undefined, sheetId: w.sheetId ?? undefined, code: w.code, message: say(w, nodes, t) }));
}
