// Scenario validation (docs/scenario.md#the-document): errors only for what makes a document unusable
// (they block storing); everything else is a warning that generate/start report and the bot skips.
// The web editor runs it on the unsaved document as you edit (docs/editor.md "Warnings"), so it
// stays pure: no zod, no I/O.
import { isMiniAppUrl } from "../lib/button-url";
import { isRunnableType } from "./node-types";
import { OUT_OF_SCOPE, TRIGGER_NODE_TYPES } from "./types-messaging";
import { buttonCommands, commandName, nodeRefs } from "./refs";
import { isObject, kindOf } from "../lib/values";

/**
 * Stable words for what a warning is about (docs/api.md generate): NODE_TYPE_OUT_OF_SCOPE (a type
 * Botloom leaves out on purpose),
 * NODE_TYPE_UNKNOWN, DANGLING_TARGET, UNREACHABLE, BUTTON_INCOMPLETE, TARGET_NOT_RUNNABLE (a
 * transition to a node that does not run by itself), COMMAND_CONFLICT, QUESTION_MISSING (an input
 * node some path reaches with nothing asking its question), INVALID_DATA (a field the bot cannot
 * use as given).
 */
export type IssueCode =
  | "NODE_TYPE_OUT_OF_SCOPE"
  | "NODE_TYPE_UNKNOWN"
  | "DANGLING_TARGET"
  | "UNREACHABLE"
  | "BUTTON_INCOMPLETE"
  | "TARGET_NOT_RUNNABLE"
  | "COMMAND_CONFLICT"
  | "QUESTION_MISSING"
  | "INVALID_DATA";

export interface Issue {
  nodeId?: string;
  sheetId?: string;
  /** warnings always have one; errors (which block storing) do not */
  code?: IssueCode;
  message: string;
  /**
   * What the editor needs to say it in the reader's language: the missing target, the button; for
   * the generator's warnings the key of its table (codegen/warnings.ts) and the values of its slots.
   */
  detail?: { target?: string; button?: string; problem?: ButtonProblem; key?: string; params?: Record<string, string | number> };
}

/** What is wrong with a button (BUTTON_INCOMPLETE), and how the message says it. */
const BUTTON_PROBLEMS = {
  noTarget: "has no target",
  noUrl: "has no URL",
  noMiniAppUrl: "has no Mini App URL (webAppUrl)",
  miniAppNotHttps: "opens a Mini App whose URL is not https (Telegram refuses it)",
  nothingToCopy: "has nothing to copy (copyText)",
  copyTooLong: "copies more than 256 characters (Telegram refuses it)",
} as const;
export type ButtonProblem = keyof typeof BUTTON_PROBLEMS;

export interface ValidationResult {
  errors: Issue[];
  warnings: Issue[];
}

/** Node types that start a flow on their own (a user action reaches them directly). */
const TRIGGER_TYPES = new Set([
  "start",
  "command",
  "command_trigger",
  "text_trigger",
  "incoming_callback_trigger",
  "callback_trigger",
  ...TRIGGER_NODE_TYPES,
]);

interface Located {
  node: Record<string, unknown> & { id: string; type: string };
  sheetId?: string;
  sheetName: string;
}

function sheetLabel(sheet: Record<string, unknown>, index: number) {
  if (typeof sheet.name === "string" && sheet.name) return `sheet "${sheet.name}"`;
  if (typeof sheet.id === "string" && sheet.id) return `sheet "${sheet.id}"`;
  return `sheet #${index + 1}`;
}

/** Structural pass: collects the usable nodes and the errors that block storing. */
function collectNodes(doc: unknown, errors: Issue[]): Located[] {
  if (!isObject(doc)) {
    errors.push({ message: `The scenario must be a JSON object, got ${kindOf(doc)}.` });
    return [];
  }
  if (!Array.isArray(doc.sheets)) {
    const got = doc.sheets === undefined ? "it is missing" : `got ${kindOf(doc.sheets)}`;
    errors.push({ message: `"sheets" must be an array of sheets (${got}).` });
    return [];
  }
  const found: Located[] = [];
  const firstSeen = new Map<string, string>();
  doc.sheets.forEach((sheet: unknown, si: number) => {
    if (!isObject(sheet)) {
      errors.push({ message: `Sheet #${si + 1} must be an object, got ${kindOf(sheet)}.` });
      return;
    }
    const sheetId = typeof sheet.id === "string" ? sheet.id : undefined;
    const where = sheetLabel(sheet, si);
    if (sheet.nodes === undefined) return; // an empty sheet is fine
    if (!Array.isArray(sheet.nodes)) {
      errors.push({ sheetId, message: `"nodes" of ${where} must be an array, got ${kindOf(sheet.nodes)}.` });
      return;
    }
    sheet.nodes.forEach((node: unknown, ni: number) => {
      if (!isObject(node)) {
        errors.push({ sheetId, message: `Node #${ni + 1} on ${where} must be an object, got ${kindOf(node)}.` });
        return;
      }
      const id = node.id;
      if (typeof id !== "string" || id.trim() === "") {
        errors.push({ sheetId, message: `Node #${ni + 1} on ${where} has no "id".` });
        return;
      }
      if (typeof node.type !== "string" || node.type.trim() === "") {
        errors.push({ sheetId, nodeId: id, message: `Node "${id}" on ${where} has no "type".` });
        return;
      }
      const previous = firstSeen.get(id);
      if (previous !== undefined) {
        const also = previous === where ? `twice on ${where}` : `on ${previous} and on ${where}`;
        errors.push({ sheetId, nodeId: id, message: `Duplicate node id "${id}": it is used ${also}.` });
        return;
      }
      firstSeen.set(id, where);
      found.push({ node: node as Located["node"], sheetId, sheetName: where });
    });
  });
  return found;
}

function typeWarnings(all: Located[], warnings: Issue[]) {
  for (const { node, sheetId } of all) {
    if (isRunnableType(node.type)) continue;
    const reason = OUT_OF_SCOPE[node.type];
    const code: IssueCode = reason ? "NODE_TYPE_OUT_OF_SCOPE" : "NODE_TYPE_UNKNOWN";
    const message = reason
      ? `Node "${node.id}" has type "${node.type}", which Botloom does not run: ${reason}; the bot skips it.`
      : `Node "${node.id}" has unknown type "${node.type}"; the bot skips it.`;
    warnings.push({ nodeId: node.id, sheetId, code, message });
  }
}

function buttonWarnings(located: Located, warnings: Issue[]) {
  const { node, sheetId } = located;
  const data = isObject(node.data) ? node.data : {};
  const lists: unknown[] = [data.buttons];
  if (Array.isArray(data.conditionalMessages)) {
    for (const cm of data.conditionalMessages) if (isObject(cm)) lists.push(cm.buttons);
  }
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const b of list) {
      if (!isObject(b)) continue;
      const action = typeof b.action === "string" && b.action !== "" ? b.action : "goto";
      const label = `button "${String(b.text ?? b.id ?? "")}"`;
      const target = typeof b.target === "string" ? b.target.trim() : "";
      const url = typeof b.url === "string" ? b.url.trim() : "";
      let problem: ButtonProblem | undefined;
      // a goto button without a target on a question answers it with its text: nothing is missing
      const answers = (node.type === "input" || data.collectUserInput === true) && b.skipDataCollection !== true;
      if ((action === "command" || (action === "goto" && !answers)) && target === "") problem = "noTarget";
      if (action === "url" && url === "" && !/^https?:\/\//.test(target)) problem = "noUrl";
      if (action === "web_app") problem = webAppProblem(typeof b.webAppUrl === "string" ? b.webAppUrl.trim() : url);
      if (action === "copy_text") problem = copyTextProblem(b.copyText);
      // `problem` words the editor's warning in the reader's language (docs/editor.md#warnings)
      if (problem) warnings.push({ nodeId: node.id, sheetId, code: "BUTTON_INCOMPLETE", message: `Node "${node.id}": ${label} ${BUTTON_PROBLEMS[problem]}.`, detail: { button: String(b.text ?? b.id ?? ""), problem } });
    }
  }
}

/** Telegram opens Mini Apps only over https; a {variable} is checked again by the bot once filled in. */
function webAppProblem(url: string): ButtonProblem | undefined {
  if (url === "") return "noMiniAppUrl";
  if (url.startsWith("{")) return undefined;
  return isMiniAppUrl(url) ? undefined : "miniAppNotHttps";
}

/** copy_text copies 1-256 characters. */
function copyTextProblem(value: unknown): ButtonProblem | undefined {
  if (typeof value !== "string" || value === "") return "nothingToCopy";
  return value.length > 256 ? "copyTooLong" : undefined;
}

function isEntryPoint(node: Located["node"]): boolean {
  if (TRIGGER_TYPES.has(node.type)) return true;
  const data = isObject(node.data) ? node.data : {};
  if (typeof data.command === "string" && data.command.trim() !== "") return true;
  return Array.isArray(data.synonyms) && data.synonyms.length > 0;
}

/** Dangling references and nodes no trigger can reach. */
function graphWarnings(all: Located[], warnings: Issue[]) {
  const byId = new Map(all.map((l) => [l.node.id, l]));
  const byCommand = new Map<string, string[]>();
  for (const { node } of all) {
    const data = isObject(node.data) ? node.data : {};
    const cmd = typeof data.command === "string" ? commandName(data.command) : node.type === "start" ? "start" : "";
    if (cmd) byCommand.set(cmd, [...(byCommand.get(cmd) ?? []), node.id]);
  }
  const refs = new Map(all.map((l) => [l.node.id, nodeRefs(l.node)]));
  for (const { node, sheetId } of all) {
    for (const ref of refs.get(node.id)!) {
      if (!byId.has(ref.target)) {
        warnings.push({
          nodeId: node.id,
          sheetId,
          code: "DANGLING_TARGET",
          message: `Node "${node.id}": ${ref.label} points to node "${ref.target}", which does not exist.`,
          detail: { target: ref.target },
        });
      }
    }
  }
  unaskedInputs(all, refs, warnings);
  const reached = new Set<string>();
  const queue = all.filter((l) => isEntryPoint(l.node)).map((l) => l.node.id);
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    const located = byId.get(id);
    if (!located) continue;
    for (const ref of refs.get(id)!) if (!reached.has(ref.target)) queue.push(ref.target);
    for (const cmd of buttonCommands(located.node)) queue.push(...(byCommand.get(cmd) ?? []));
  }
  for (const { node, sheetId } of all) {
    if (reached.has(node.id) || node.type === "comment") continue; // a comment is a note on the canvas
    warnings.push({
      nodeId: node.id,
      sheetId,
      code: "UNREACHABLE",
      message: `Node "${node.id}" (${node.type}) cannot be reached from any command or trigger.`,
    });
  }
}

/** Types that send their text before moving on: an input after one of them was asked by it. */
const ASKING_TYPES = new Set(["start", "command", "message", "photo", "video", "audio", "document"]);

/**
 * Input nodes without a question (empty inputPrompt) that some path reaches without a message
 * before them, e.g. straight from a button or a command: the bot would wait without a word.
 */
function unaskedInputs(all: Located[], refs: Map<string, ReturnType<typeof nodeRefs>>, warnings: Issue[]) {
  const silent = new Map<string, Located>();
  for (const l of all) {
    const data = isObject(l.node.data) ? l.node.data : {};
    if (l.node.type === "input" && !(typeof data.inputPrompt === "string" && data.inputPrompt.trim() !== "")) silent.set(l.node.id, l);
  }
  if (silent.size === 0) return;
  const warned = new Set<string>();
  for (const { node } of all) {
    for (const ref of refs.get(node.id)!) {
      const input = silent.get(ref.target);
      if (!input || warned.has(ref.target) || (ref.kind === "auto" && ASKING_TYPES.has(node.type))) continue;
      warned.add(ref.target);
      const data = isObject(input.node.data) ? input.node.data : {};
      const name = typeof data.inputVariable === "string" && data.inputVariable.trim() !== "" ? `the answer step saving "${data.inputVariable.trim()}"` : `answer step "${input.node.id}"`;
      warnings.push({
        nodeId: input.node.id,
        sheetId: input.sheetId,
        code: "QUESTION_MISSING",
        message: `Nothing asks the question of ${name}: the bot would wait without a word. Write the question in its Prompt field, or reach it from a message that asks.`,
      });
    }
  }
}

/** Validates a normalized document (see normalizeDocument). */
export function validateScenario(doc: unknown): ValidationResult {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const all = collectNodes(doc, errors);
  if (errors.length > 0) return { errors, warnings };
  typeWarnings(all, warnings);
  for (const located of all) buttonWarnings(located, warnings);
  graphWarnings(all, warnings);
  return { errors, warnings };
}
