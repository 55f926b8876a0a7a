// Input collection: `input` nodes and collectUserInput on message-like nodes (docs/scenario.md#core-node-types).
import { inputDataSchema, keyboardDataSchema, type CollectFields, parseNodeData } from "../model";
import { CompileContext, num, text, type RawNode } from "./compile-context";
import { compileKeyboard } from "./compile-keyboard";
import { formatOf } from "./compile-message";
import type { CollectDef, InputNode, MediaKind, ValidationDef } from "./table";

const MEDIA_KINDS: MediaKind[] = ["photo", "video", "audio", "document"];

const FLAG = { photo: "enablePhotoInput", video: "enableVideoInput", audio: "enableAudioInput", document: "enableDocumentInput" } as const;
const VAR = { photo: "photoInputVariable", video: "videoInputVariable", audio: "audioInputVariable", document: "documentInputVariable" } as const;

/** inputValidation as given: a regular expression string, or `{ type, pattern, min, max, ... }`. */
function compileValidation(owner: RawNode, v: CollectFields["inputValidation"], ctx: CompileContext): ValidationDef | undefined {
  if (typeof v === "string") {
    if (v.trim() === "") return undefined;
    try {
      new RegExp(v);
      return { kind: "regex", pattern: v };
    } catch {
      ctx.warn(owner, "input.badRegex", { pattern: v });
      return undefined;
    }
  }
  if (!v) return undefined;
  const o = v as Record<string, unknown>;
  const kind = String(o.type ?? o.kind ?? (o.pattern ? "regex" : ""));
  const min = num(o.min ?? o.minLength);
  const max = num(o.max ?? o.maxLength);
  if (kind === "number" || kind === "email" || kind === "phone") return { kind, min, max };
  if (kind === "regex" && typeof o.pattern === "string") return compileValidation(owner, o.pattern, ctx);
  if (min !== undefined || max !== undefined) return { kind: "length", min, max };
  return undefined;
}

/**
 * What a node collects. Text is collected when enableTextInput is set or when no media kind is
 * enabled; each enabled media kind stores the file id into its own variable (or inputVariable).
 * `inputType` (input nodes) decides when no enable* flag is set.
 */
export function compileCollect(
  owner: RawNode,
  d: CollectFields,
  ctx: CompileContext,
  inputType?: string,
): CollectDef {
  const variable = text(d.inputVariable);
  const flagged = MEDIA_KINDS.filter((k) => d[FLAG[k]] === true);
  const media: CollectDef["media"] = [];
  for (const kind of flagged) {
    const target = text(d[VAR[kind]]) ?? variable;
    if (target) media.push({ kind, variable: target });
    else ctx.warn(owner, "input.mediaNoVariable", { inputKind: kind });
  }
  let textInput = d.enableTextInput === true || flagged.length === 0;
  let any: true | undefined;
  let validate = compileValidation(owner, d.inputValidation, ctx);
  if (flagged.length === 0 && d.enableTextInput !== true && inputType) {
    if (inputType === "any") any = true;
    else if (inputType === "contact" || inputType === "location") {
      const target = ctx.target(owner, d.inputTargetNodeId, "inputTargetNodeId");
      return { variable, target, text: false, media, [inputType]: true, append: d.appendVariable ? true : undefined, retry: text(d.inputRetryMessage) };
    }
    else if ((MEDIA_KINDS as string[]).includes(inputType)) {
      textInput = false;
      if (variable) media.push({ kind: inputType as MediaKind, variable });
    } else if (inputType === "number" || inputType === "email" || inputType === "phone") {
      validate ??= { kind: inputType };
    }
  }
  return {
    variable,
    target: ctx.target(owner, d.inputTargetNodeId, "inputTargetNodeId"),
    text: textInput,
    media,
    any,
    append: d.appendVariable ? true : undefined,
    validate,
    retry: text(d.inputRetryMessage),
  };
}

export function compileInputNode(node: RawNode, ctx: CompileContext): InputNode {
  const d = parseNodeData(inputDataSchema, node.data);
  const collect = compileCollect(node, d, ctx, d.inputType ?? "text");
  if (!collect.variable && collect.media.length === 0) {
    ctx.warn(node, "input.noVariable");
  }
  return { t: "input", id: node.id, collect, ask: compileAsk(node, d.inputPrompt, ctx), timeout: timeoutOf(node, ctx), adminOnly: d.adminOnly ? true : undefined };
}

/** The longest inputTimeout: 30 days (a question left open longer simply waits). */
const MAX_INPUT_TIMEOUT = 30 * 86_400;

/** inputTimeout (seconds, the reference's field) and where the flow goes then (inputTimeoutTarget, Botloom's). */
function timeoutOf(node: RawNode, ctx: CompileContext): InputNode["timeout"] {
  const seconds = num(node.data.inputTimeout);
  const target = ctx.target(node, text(node.data.inputTimeoutTarget), "inputTimeoutTarget");
  if (seconds === undefined || seconds <= 0) {
    if (target) ctx.warn(node, "input.timeoutTargetOnly");
    return undefined;
  }
  if (seconds > MAX_INPUT_TIMEOUT) ctx.warn(node, "input.timeoutCapped", { max: MAX_INPUT_TIMEOUT });
  return { seconds: Math.min(seconds, MAX_INPUT_TIMEOUT), target };
}

/**
 * The question an input node asks itself (docs/scenario.md "Input nodes"): its inputPrompt, with
 * the buttons the node carries. The runtime sends it only when the flow reaches the node without a
 * message shown on the way in the same update, so a question asked by the message before it is not
 * repeated.
 */
function compileAsk(node: RawNode, prompt: string | undefined, ctx: CompileContext): InputNode["ask"] {
  const question = text(prompt);
  if (!question) return undefined;
  const kd = parseNodeData(keyboardDataSchema, node.data);
  const keyboardNodeId = typeof node.data.keyboardNodeId === "string" ? node.data.keyboardNodeId : undefined;
  const format = formatOf(typeof node.data.formatMode === "string" ? node.data.formatMode : undefined);
  return { text: question, format, keyboard: compileKeyboard(node, { ...kd, keyboardNodeId }, ctx) };
}
