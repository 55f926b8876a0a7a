// Buttons and keyboards: a message's own buttons, or those of the `keyboard` node it names with
// keyboardNodeId (today's form), laid out by keyboardLayout.
import { keyboardDataSchema, type Button, type KeyboardData, parseNodeData } from "../model";
import { commandName } from "../refs";
import { BUTTON_STYLES } from "../../lib/button-url";
import { CompileContext, num, text, type RawNode } from "./compile-context";
import type { ButtonDef, DynamicDef, KeyboardDef } from "./table";

function compileButton(owner: RawNode, b: Button, inline: boolean, ctx: CompileContext): ButtonDef | undefined {
  const label = b.text ?? "";
  if (label.trim() === "") {
    ctx.warn(owner, "button.noText");
    return undefined;
  }
  const base: Pick<ButtonDef, "id" | "text" | "skipInput" | "data"> = {
    id: b.id ?? "",
    text: label,
    skipInput: b.skipDataCollection ? true : undefined,
    data: inline ? text(b.customCallbackData) : undefined,
  };
  const hide: true | undefined = b.hideAfterClick && inline ? true : undefined;
  const action = b.action && b.action !== "" ? b.action : "goto";
  const def = compileButtonAction(owner, b, action, inline, base, hide, ctx);
  const style = BUTTON_STYLES.find((s) => s === b.style);
  if (def && b.style && !style) {
    ctx.warn(owner, "button.unknownStyle", { button: label, style: String(b.style), known: BUTTON_STYLES.join(", ") });
  }
  return def && style ? { ...def, style } : def;
}


type ButtonBase = Pick<ButtonDef, "id" | "text" | "skipInput" | "data">;

function compileButtonAction(
  owner: RawNode, b: Button, action: string, inline: boolean, base: ButtonBase, hide: true | undefined, ctx: CompileContext,
): ButtonDef | undefined {
  const label = base.text;
  const replyOnly = (what: string) => {
    ctx.warn(owner, "button.replyOnly", { button: label, action: what });
    return undefined;
  };
  if (b.requestContact || action === "contact") {
    return { ...base, action: "contact", target: ctx.target(owner, b.target, { button: label }) };
  }
  if (b.requestLocation || action === "location") {
    return { ...base, action: "location", target: ctx.target(owner, b.target, { button: label }) };
  }
  if (b.requestPoll || action === "poll") {
    if (inline) return replyOnly("poll");
    const value = b.pollType === "quiz" || b.pollType === "regular" ? b.pollType : undefined;
    return { ...base, action: "poll", value, target: ctx.target(owner, b.target, { button: label }) };
  }
  switch (action) {
    case "web_app": {
      const url = text(b.webAppUrl)?.trim() || (/^https:\/\//.test(b.url ?? "") ? b.url : undefined);
      if (!url) {
        ctx.warn(owner, "button.miniAppNoUrl", { button: label });
        return undefined;
      }
      // Reply Mini Apps answer with web_app_data, which follows the button's target like a shared contact.
      const target = inline ? undefined : ctx.target(owner, b.target, { button: label });
      return { ...base, data: undefined, action: "web_app", url, target };
    }
    case "copy_text": {
      const value = text(b.copyText);
      if (!inline) return inlineOnly(owner, label, "copy_text", ctx);
      if (!value) {
        ctx.warn(owner, "button.copyNoText", { button: label });
        return undefined;
      }
      return { ...base, data: undefined, action: "copy_text", value };
    }
    case "request_managed_bot": {
      if (inline) return replyOnly("request_managed_bot");
      const name = text(b.suggestedBotName)?.trim() || undefined;
      const username = text(b.suggestedBotUsername)?.trim() || undefined;
      return { ...base, action: "managed_bot", suggest: name || username ? { name, username } : undefined };
    }
    // The older editor's "default" is a plain button that follows its target.
    case "default":
    case "goto":
    case "complete":
      return { ...base, action: action === "complete" ? "complete" : "goto", target: ctx.target(owner, b.target, { button: label }), hide };
    case "command": {
      const target = b.target ? commandName(b.target) : "";
      return { ...base, action: "command", target: target || undefined, hide };
    }
    case "selection":
      return { ...base, action: "selection" };
    case "url": {
      const url = text(b.url) ?? (/^https?:\/\//.test(b.target ?? "") ? b.target : undefined);
      return { ...base, action: "url", url };
    }
    default:
      // One warning per node and action: multi-select keyboards have dozens of such buttons.
      ctx.warn(owner, "button.unknownAction", { action });
      return undefined;
  }
}

function inlineOnly(owner: RawNode, label: string, what: string, ctx: CompileContext): undefined {
  ctx.warn(owner, "button.inlineOnly", { button: label, action: what });
  return undefined;
}

const DYNAMIC_ROW = "__dynamic__";

/**
 * Rows of button indexes: the saved layout, else `columns` per row (autoLayout), else one per row.
 * `dynamicAt` is the row the `__dynamic__` placeholder stands in (0 when the layout has none).
 */
function layoutRows(buttons: { id: string }[], layout: KeyboardData["keyboardLayout"]): { rows: number[][]; dynamicAt: number } {
  const rows = placeRows(buttons, layout);
  let dynamicAt = 0;
  if (layout && !layout.autoLayout) {
    // Rows before the placeholder that place at least one button.
    const index = new Set(buttons.map((b) => b.id));
    for (const row of layout.rows ?? []) {
      const ids = row.buttonIds ?? [];
      if (ids.includes(DYNAMIC_ROW)) break;
      if (ids.some((id) => index.has(id))) dynamicAt++;
    }
    if (!(layout.rows ?? []).some((r) => (r.buttonIds ?? []).includes(DYNAMIC_ROW))) dynamicAt = 0;
  }
  return { rows, dynamicAt: Math.min(dynamicAt, rows.length) };
}

function placeRows(buttons: { id: string }[], layout: KeyboardData["keyboardLayout"]): number[][] {
  const all = buttons.map((_, i) => i);
  const columns = Math.max(1, Math.floor(num(layout?.columns) ?? 1));
  const chunk = (list: number[], size: number) => {
    const rows: number[][] = [];
    for (let i = 0; i < list.length; i += size) rows.push(list.slice(i, i + size));
    return rows;
  };
  if (!layout || layout.autoLayout || !layout.rows?.length) return chunk(all, layout?.autoLayout ? columns : 1);
  const index = new Map<string, number>();
  buttons.forEach((b, i) => {
    if (b.id && !index.has(b.id)) index.set(b.id, i);
  });
  const placed = new Set<number>();
  const rows: number[][] = [];
  for (const row of layout.rows) {
    // "__dynamic__" marks where dynamic buttons go (layoutRows); it places no button of its own.
    const ids = (row.buttonIds ?? []).map((id) => index.get(id)).filter((i) => i !== undefined && !placed.has(i));
    for (const i of ids) placed.add(i!);
    if (ids.length > 0) rows.push(ids as number[]);
  }
  // Buttons the layout does not mention still show, one per row, so nothing silently disappears.
  for (const i of all) if (!placed.has(i)) rows.push([i]);
  return rows;
}

/** A keyboard from keyboard fields (a node's own, a keyboard node's, or a conditional message's). */
export function compileKeyboardFields(owner: RawNode, d: KeyboardData, ctx: CompileContext): KeyboardDef | undefined {
  const kind = d.keyboardType === "reply" || d.keyboardType === "inline" ? d.keyboardType : undefined;
  const dynamic = kind === "inline" && d.enableDynamicButtons ? compileDynamic(owner, d.dynamicButtons, ctx) : undefined;
  if (d.enableDynamicButtons && kind === "reply") {
    ctx.warn(owner, "keyboard.dynamicNeedsInline");
  }
  if (!kind || (!d.buttons?.length && !dynamic)) return undefined;
  const compiled: ButtonDef[] = [];
  const ids: { id: string }[] = [];
  for (const b of d.buttons ?? []) {
    const def = compileButton(owner, b, kind === "inline", ctx);
    if (def) {
      compiled.push(def);
      ids.push({ id: b.id ?? "" });
    }
  }
  const multi = compileMulti(owner, d, compiled, ids, ctx);
  if (compiled.length === 0 && !dynamic) return undefined;
  const { rows, dynamicAt } = layoutRows(ids, d.keyboardLayout);
  return {
    kind,
    buttons: compiled,
    rows,
    dynamic: dynamic && { ...dynamic, at: dynamicAt },
    multi,
    oneTime: kind === "reply" && d.oneTimeKeyboard ? true : undefined,
    resize: kind === "reply" && d.resizeKeyboard !== false ? true : undefined,
  };
}

function compileDynamic(owner: RawNode, d: KeyboardData["dynamicButtons"], ctx: CompileContext): DynamicDef | undefined {
  const source = text(d?.sourceVariable)?.trim();
  const label = text(d?.textTemplate);
  if (!source || !label) {
    ctx.warn(owner, "keyboard.dynamicIncomplete");
    return undefined;
  }
  return {
    source,
    path: text(d?.arrayPath)?.trim(),
    text: label,
    data: text(d?.callbackTemplate) ?? label,
    columns: Math.min(8, Math.max(1, Math.floor(num(d?.columns) ?? 2))),
  };
}

/**
 * Multi-select: with multiSelectVariable set, `selection` buttons toggle and a continue button
 * (continueButtonText → continueButtonTarget) stores the choice; `complete` buttons do the same.
 */
function compileMulti(owner: RawNode, d: KeyboardData, buttons: ButtonDef[], ids: { id: string }[], ctx: CompileContext): KeyboardDef["multi"] {
  const hasSelection = buttons.some((b) => b.action === "selection");
  const variable = text(d.multiSelectVariable)?.trim();
  if (!hasSelection) return undefined;
  if (!variable) {
    ctx.warn(owner, "keyboard.selectionNoVariable");
  }
  const target = ctx.target(owner, d.continueButtonTarget, "continueButtonTarget");
  const hasDone = buttons.some((b) => b.action === "complete");
  if (target || !hasDone) {
    buttons.push({ id: "__continue__", text: text(d.continueButtonText) ?? "Готово", action: "continue", target });
    ids.push({ id: "__continue__" });
  }
  return { variable: variable ?? "", mark: text(d.multiSelectCheckmark) ?? "✅" };
}

/** The keyboard a message shows: the keyboard node named by keyboardNodeId wins over own buttons. */
export function compileKeyboard(
  owner: RawNode,
  d: KeyboardData & { keyboardNodeId?: string },
  ctx: CompileContext,
): KeyboardDef | undefined {
  const ref = d.keyboardNodeId?.trim();
  if (ref) {
    const kbNode = ctx.byId.get(ref);
    if (kbNode?.type === "keyboard") {
      const kb = compileKeyboardFields(owner, parseNodeData(keyboardDataSchema, kbNode.data), ctx);
      return kb && { ...kb, from: ref };
    }
    if (kbNode) ctx.warn(owner, "keyboard.notKeyboard", { keyboardNode: ref, keyboardType: kbNode.type });
  }
  return compileKeyboardFields(owner, d, ctx);
}
