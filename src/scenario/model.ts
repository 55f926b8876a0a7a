// The scenario document (docs/scenario.md "Document" and "Core node types") as zod 4 schemas.
//
// Every object schema is `.loose()`: unknown fields pass through untouched, because a project's
// `data` is stored and exported exactly as given (round trip is lossless). Every optional field is
// wrapped in `field()`, which turns a value of the wrong type into `undefined` instead of failing:
// editors of the older platform write odd values (numbers as strings, nulls) and validation may
// only reject what makes a document unusable (see validate.ts). The compilers of the core types
// (compile.ts, compile-message, -keyboard, -input, -logic) parse node data through these schemas
// (parseNodeData) for typed, sanitised fields; the families without a schema here (compile-actions,
// -assign, -control, -data, -http, -triggers) read raw node.data through the same rule, a value of
// the wrong type reads as absent, with the readers of compile-context.ts (text, num).
import { z } from "zod";
import { isObject } from "../lib/values";

/** An optional field that never fails parsing: a value of the wrong type reads as `undefined`. */
const field = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const str = () => field(z.string());
const bool = () => field(z.boolean());
/** Numbers arrive as numbers or numeric strings ("15", "1"). */
const numeric = () => field(z.union([z.number(), z.string()]));

export const positionSchema = z.object({ x: field(z.number()), y: field(z.number()) }).loose();

export const buttonSchema = z
  .object({
    id: str(),
    text: str(),
    /** goto | command | url | contact | location | poll | complete | selection | web_app | copy_text | request_managed_bot | default */
    action: str(),
    target: str(),
    url: str(),
    requestContact: bool(),
    requestLocation: bool(),
    /** reply buttons: the user creates a poll; pollType "quiz" or "regular" narrows it */
    requestPoll: bool(),
    pollType: str(),
    /** web_app: the Mini App's https URL ({variables} allowed) */
    webAppUrl: str(),
    /** copy_text: what the button copies to the user's clipboard (1-256 characters) */
    copyText: str(),
    /** primary | success | danger: the button's colour (docs/nodes/buttons.md) */
    style: str(),
    /** request_managed_bot: the name and username offered for the bot the user creates */
    suggestedBotName: str(),
    suggestedBotUsername: str(),
    skipDataCollection: bool(),
    hideAfterClick: bool(),
    /** the scenario's own callback_data (inline buttons); without it the bot uses an internal code */
    customCallbackData: str(),
  })
  .loose();
export type Button = z.infer<typeof buttonSchema>;

export const keyboardLayoutSchema = z
  .object({
    rows: field(z.array(z.object({ buttonIds: field(z.array(z.string())) }).loose())),
    columns: numeric(),
    autoLayout: bool(),
  })
  .loose();

/** Inline buttons made from a list in a variable (one button per item). */
export const dynamicButtonsSchema = z
  .object({
    sourceVariable: str(),
    arrayPath: str(),
    textTemplate: str(),
    callbackTemplate: str(),
    columns: numeric(),
  })
  .loose();

/** Keyboard fields shared by `message`-like nodes, `keyboard` nodes and conditional messages. */
const keyboardFields = {
  keyboardType: str(),
  buttons: field(z.array(buttonSchema)),
  keyboardLayout: field(keyboardLayoutSchema),
  oneTimeKeyboard: bool(),
  resizeKeyboard: bool(),
  removeKeyboard: bool(),
  enableDynamicButtons: bool(),
  dynamicButtons: field(dynamicButtonsSchema),
  /** multi-select: `action: "selection"` buttons toggle a checkmark and collect into this variable */
  multiSelectVariable: str(),
  continueButtonText: str(),
  continueButtonTarget: str(),
  multiSelectCheckmark: str(),
};

/** Input collection fields of `message`-like nodes (and of conditional messages). */
const collectFields = {
  collectUserInput: bool(),
  inputVariable: str(),
  inputTargetNodeId: str(),
  enableTextInput: bool(),
  enablePhotoInput: bool(),
  photoInputVariable: str(),
  enableVideoInput: bool(),
  videoInputVariable: str(),
  enableAudioInput: bool(),
  audioInputVariable: str(),
  enableDocumentInput: bool(),
  documentInputVariable: str(),
  appendVariable: bool(),
  saveToDatabase: bool(),
  inputValidation: field(z.union([z.string(), z.record(z.string(), z.unknown())])),
  inputRetryMessage: str(),
};

/** The input collection fields alone (typed view used by the codegen). */
export const collectFieldsSchema = z.object(collectFields);
export type CollectFields = z.infer<typeof collectFieldsSchema>;

export const conditionalMessageSchema = z
  .object({
    id: str(),
    /** user_data_exists | user_data_not_exists | user_data_equals | user_data_contains */
    condition: str(),
    variableName: str(),
    variableNames: field(z.array(z.string())),
    logicOperator: str(),
    expectedValue: field(z.union([z.string(), z.number()])),
    value: field(z.union([z.string(), z.number()])),
    priority: numeric(),
    messageText: str(),
    formatMode: str(),
    keyboardNodeId: str(),
    waitForTextInput: bool(),
    nextNodeAfterInput: str(),
    ...keyboardFields,
    ...collectFields,
  })
  .loose();
export type ConditionalMessage = z.infer<typeof conditionalMessageSchema>;

/** `message`, legacy `start`/`command`, and the media nodes `photo`/`video`/`audio`/`document`. */
export const messageDataSchema = z
  .object({
    messageText: str(),
    formatMode: str(),
    /** legacy boolean: true means Markdown */
    markdown: bool(),
    disableLinkPreview: bool(),
    keyboardNodeId: str(),
    enableAutoTransition: bool(),
    autoTransitionTo: str(),
    imageUrl: str(),
    videoUrl: str(),
    audioUrl: str(),
    documentUrl: str(),
    attachedMedia: field(z.array(z.union([z.string(), z.record(z.string(), z.unknown())]))),
    mediaCaption: str(),
    enableConditionalMessages: bool(),
    conditionalMessages: field(z.array(conditionalMessageSchema)),
    adminOnly: bool(),
    /** legacy: a `start`/`command`/`message` node may answer a command itself */
    command: str(),
    description: str(),
    showInMenu: bool(),
    /** legacy: texts that trigger this node like a text_trigger with exact match */
    synonyms: field(z.array(z.string())),
    ...keyboardFields,
    ...collectFields,
  })
  .loose();
export type MessageData = z.infer<typeof messageDataSchema>;

export const keyboardDataSchema = z.object({ ...keyboardFields }).loose();
export type KeyboardData = z.infer<typeof keyboardDataSchema>;

export const commandTriggerDataSchema = z
  .object({
    command: str(),
    description: str(),
    showInMenu: bool(),
    adminOnly: bool(),
    autoTransitionTo: str(),
    /** a deep link's parameter (`t.me/bot?start=promo_7` sends "/start promo_7"): this trigger runs only for it */
    deepLinkParam: str(),
    /** exact (default) | startsWith (also "prefix") */
    deepLinkMatchMode: str(),
    /** with deepLinkVarName: the parameter is stored into that variable */
    deepLinkSaveToVar: bool(),
    deepLinkVarName: str(),
  })
  .loose();

export const textTriggerDataSchema = z
  .object({
    textSynonyms: field(z.array(z.string())),
    /** exact (default, case-insensitive) | contains */
    textMatchType: str(),
    adminOnly: bool(),
    autoTransitionTo: str(),
  })
  .loose();

export const inputDataSchema = z
  .object({
    inputType: str(),
    inputRequired: bool(),
    inputPrompt: str(),
    adminOnly: bool(),
    ...collectFields,
  })
  .loose();

export const branchSchema = z
  .object({
    id: str(),
    label: str(),
    operator: str(),
    value: field(z.union([z.string(), z.number()])),
    value2: field(z.union([z.string(), z.number()])),
    target: str(),
  })
  .loose();
export type Branch = z.infer<typeof branchSchema>;

export const conditionDataSchema = z
  .object({
    variable: str(),
    branches: field(z.array(branchSchema)),
    defaultTargetId: str(),
    adminOnly: bool(),
  })
  .loose();

export const assignmentSchema = z
  .object({
    id: str(),
    variable: str(),
    value: field(z.union([z.string(), z.number(), z.boolean()])),
    /** set (default) | append | increment | regex_extract */
    mode: str(),
    pattern: str(),
    regexGroup: numeric(),
    regexDefault: field(z.union([z.string(), z.number()])),
  })
  .loose();

export const setVariableDataSchema = z
  .object({
    assignments: field(z.array(assignmentSchema)),
    // legacy node-level fields (a single assignment, or regex settings shared by the assignments)
    variable: str(),
    value: field(z.union([z.string(), z.number(), z.boolean()])),
    mode: str(),
    regexPattern: str(),
    regexGroup: numeric(),
    regexDefault: field(z.union([z.string(), z.number()])),
    adminOnly: bool(),
    autoTransitionTo: str(),
  })
  .loose();
export type SetVariableData = z.infer<typeof setVariableDataSchema>;

export const delayDataSchema = z
  .object({
    delaySeconds: numeric(),
    seconds: numeric(),
    delay: numeric(),
    duration: numeric(),
    delayMs: numeric(),
    adminOnly: bool(),
    autoTransitionTo: str(),
  })
  .loose();

export const nodeSchema = z
  .object({
    id: z.string().min(1),
    type: z.string().min(1),
    position: field(positionSchema),
    data: field(z.record(z.string(), z.unknown())),
  })
  .loose();
export type ScenarioNode = z.infer<typeof nodeSchema>;

export const edgeSchema = z
  .object({ id: str(), source: str(), target: str(), sourceHandle: str(), targetHandle: str() })
  .loose();

export const sheetSchema = z
  .object({
    id: str(),
    name: str(),
    nodes: z.array(nodeSchema),
    /** docs/api.md name; `connections` is the accepted alias and is kept under its own name */
    edges: field(z.array(edgeSchema)),
    connections: field(z.array(edgeSchema)),
    viewState: field(z.record(z.string(), z.unknown())),
  })
  .loose();
export type Sheet = z.infer<typeof sheetSchema>;

export const documentSchema = z
  .object({
    version: field(z.number()),
    activeSheetId: str(),
    sheets: z.array(sheetSchema),
    interSheetConnections: field(z.array(z.unknown())),
  })
  .loose();
export type ScenarioDocument = z.infer<typeof documentSchema>;

/**
 * The parts of a document the generator reads (sheet id and name; node id, type and data), with
 * the same rules as documentSchema, so it accepts and rejects exactly the same documents. Positions,
 * edges and view state are left unparsed: they were a third of a generation's parsing time.
 */
export const documentNodesSchema = z.object({
  sheets: z.array(
    sheetSchema
      .pick({ id: true, name: true })
      .extend({ nodes: z.array(nodeSchema.pick({ id: true, type: true, data: true }).strip()) })
      .strip(),
  ),
});
export type DocumentNodes = z.infer<typeof documentNodesSchema>;

export { parseNodeData } from "./node-data-parse";
export { CORE_TYPES, isRunnableType, RUNNABLE_TYPES } from "./node-types";

function parseJsonString(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v; // not JSON: validation reports "not an object"
  }
}

/**
 * Brings every accepted input form to the sheets document:
 * - the document itself (returned as given, same object);
 * - the legacy flat form `{ nodes, connections|edges, ... }` → one sheet holding them;
 * - `{ json_data: <document or its JSON string> }`;
 * - a template record (`{ name, description, ..., data: <document> }`, as in compat/);
 * - a JSON string of any of these.
 * Anything else is returned as given, so that validation can say what is wrong with it.
 */
export function normalizeDocument(input: unknown): unknown {
  const value = parseJsonString(input);
  if (!isObject(value)) return value;
  if ("sheets" in value) return value;
  if ("json_data" in value) return normalizeDocument(value.json_data);
  if (Array.isArray(value.nodes)) {
    // Flat form: the nodes and their edge list move into one sheet under the same key name.
    const { nodes, ...rest } = value;
    const sheet: Record<string, unknown> = { id: "sheet-1", name: "Main", nodes };
    for (const key of ["connections", "edges"]) {
      if (key in rest) {
        sheet[key] = rest[key];
        delete rest[key];
      }
    }
    return { ...rest, sheets: [sheet] };
  }
  if ("data" in value) {
    const inner = parseJsonString(value.data);
    if (isObject(inner) && ("sheets" in inner || Array.isArray(inner.nodes) || "json_data" in inner)) {
      return normalizeDocument(inner);
    }
  }
  return value;
}

/** Counts for list endpoints; tolerant of invalid documents (they count as empty). */
export function countNodes(doc: unknown): { sheetsCount: number; nodesCount: number } {
  const sheets = isObject(doc) && Array.isArray(doc.sheets) ? doc.sheets : [];
  let nodesCount = 0;
  for (const sheet of sheets) {
    if (isObject(sheet) && Array.isArray(sheet.nodes)) nodesCount += sheet.nodes.length;
  }
  return { sheetsCount: sheets.length, nodesCount };
}
