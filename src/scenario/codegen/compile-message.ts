// `message`, legacy `start`/`command`, and the media nodes `photo`/`video`/`audio`/`document`.
import { messageDataSchema, type ConditionalMessage, type MessageData, parseNodeData } from "../model";
import { CompileContext, num, text, type RawNode } from "./compile-context";
import { compileCollect } from "./compile-input";
import { compileKeyboard } from "./compile-keyboard";
import { ownValue } from "./compile-context";
import type { CollectDef, Format, MediaDef, MediaKind, MessageNode, VariantDef } from "./table";

export const MEDIA_NODE_TYPES: Record<string, MediaKind> = {
  photo: "photo",
  video: "video",
  audio: "audio",
  document: "document",
};

/** formatMode wins when it names a mode; otherwise the legacy boolean `markdown`. */
export function formatOf(formatMode: string | undefined, markdown?: boolean): Format {
  const mode = formatMode?.toLowerCase();
  if (mode === "html") return "html";
  if (mode === "markdown" || mode === "markdownv2") return "markdown";
  if (mode === "text" || mode === "none" || mode === "plain") return "text";
  return markdown ? "markdown" : "text";
}

/** Media by URL fields and attachedMedia (URLs, {templates}, or names of variables holding file ids). */
function compileMedia(node: RawNode, d: MessageData): MediaDef[] {
  const raw = node.data;
  const out: MediaDef[] = [];
  const urls: [MediaKind, unknown][] = [
    ["photo", d.imageUrl ?? raw.photoUrl],
    ["video", d.videoUrl],
    ["audio", d.audioUrl],
    ["document", d.documentUrl],
  ];
  const own = ownValue(MEDIA_NODE_TYPES, node.type);
  if (own) urls.unshift([own, raw.mediaUrl]);
  for (const [kind, url] of urls) {
    const u = text(url);
    if (u && !out.some((m) => m.url === u)) out.push({ kind, url: u.trim() });
  }
  for (const item of d.attachedMedia ?? []) {
    if (typeof item === "string") {
      const s = item.trim();
      if (s === "") continue;
      // A bare word is the name of a variable that an input filled with a file id.
      if (/^[\p{L}\p{N}_.]+$/u.test(s)) out.push({ kind: "auto", variable: s });
      else out.push({ kind: "auto", url: s });
    } else {
      const url = text(item.url ?? item.fileId ?? item.src);
      const kind = String(item.type ?? item.kind ?? "auto");
      const k = (["photo", "video", "audio", "document"] as string[]).includes(kind) ? (kind as MediaKind) : "auto";
      if (url) out.push({ kind: k, url: url.trim() });
    }
  }
  return out;
}

const CHECKS = {
  user_data_exists: "exists",
  user_data_not_exists: "not_exists",
  user_data_equals: "equals",
  user_data_contains: "contains",
} as const;

/** What a conditional message collects when shown: its own settings, or the node's, retargeted. */
function variantCollect(node: RawNode, cm: ConditionalMessage, base: CollectDef | undefined, d: MessageData, ctx: CompileContext) {
  if (cm.collectUserInput) return compileCollect(node, { ...cm, inputVariable: cm.inputVariable ?? d.inputVariable }, ctx);
  const target = ctx.target(node, cm.nextNodeAfterInput, "nextNodeAfterInput");
  if (cm.waitForTextInput) {
    const from = base ?? { variable: text(d.inputVariable), text: true, media: [] };
    return { ...from, text: true, target: target ?? from.target };
  }
  if (base && target) return { ...base, target };
  return undefined;
}

function compileVariants(node: RawNode, d: MessageData, format: Format, base: CollectDef | undefined, ctx: CompileContext) {
  if (!d.enableConditionalMessages || !d.conditionalMessages?.length) return undefined;
  const ordered = d.conditionalMessages
    .map((cm, i) => ({ cm, i, priority: num(cm.priority) ?? 0 }))
    .sort((a, b) => b.priority - a.priority || a.i - b.i); // highest priority first, then as written
  const out: VariantDef[] = [];
  for (const { cm, i } of ordered) {
    const check = ownValue(CHECKS, cm.condition);
    if (!check) {
      ctx.warn(node, "message.conditionUnsupported", { index: i + 1, condition: String(cm.condition) });
      continue;
    }
    const vars = (cm.variableNames?.length ? cm.variableNames : [cm.variableName ?? ""]).filter((v) => v.trim() !== "");
    if (vars.length === 0) {
      ctx.warn(node, "message.conditionNoVariable", { index: i + 1 });
      continue;
    }
    const value = cm.expectedValue ?? cm.value;
    out.push({
      id: cm.id ?? String(i),
      check,
      vars,
      anyOf: cm.logicOperator?.toUpperCase() === "OR" ? true : undefined,
      value: value === undefined ? undefined : String(value),
      text: text(cm.messageText),
      format: text(cm.messageText) ? (cm.formatMode ? formatOf(cm.formatMode) : format) : undefined,
      keyboard: compileKeyboard(node, cm, ctx),
      collect: variantCollect(node, cm, base, d, ctx),
    });
  }
  return out.length > 0 ? out : undefined;
}

export function compileMessage(node: RawNode, ctx: CompileContext): MessageNode {
  const d = parseNodeData(messageDataSchema, node.data);
  const format = formatOf(d.formatMode, d.markdown);
  const media = compileMedia(node, d);
  // text ← messageText and caption ← mediaCaption, one to one, so that contentCache can reload them.
  const body = d.messageText ?? "";
  const caption = text(d.mediaCaption);
  if (body.trim() === "" && !caption && media.length === 0) {
    ctx.warn(node, "message.empty");
  }
  const collect = d.collectUserInput ? compileCollect(node, d, ctx) : undefined;
  const next = d.enableAutoTransition !== false ? ctx.target(node, d.autoTransitionTo, "autoTransitionTo") : undefined;
  return {
    t: "message",
    id: node.id,
    text: body,
    format,
    noPreview: d.disableLinkPreview ? true : undefined,
    media: media.length > 0 ? media : undefined,
    caption,
    keyboard: compileKeyboard(node, d, ctx),
    removeKeyboard: d.removeKeyboard ? true : undefined,
    collect,
    variants: compileVariants(node, d, format, collect, ctx),
    next,
    saveIdTo: text(node.data.saveMessageIdTo)?.trim(),
    adminOnly: d.adminOnly ? true : undefined,
  };
}
