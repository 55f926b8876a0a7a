// Buttons and keyboards: a message's own buttons, or those of the `keyboard` node it names with
// keyboardNodeId (today's form), laid out by keyboardLayout.
import { keyboardDataSchema, type Button, type KeyboardData } from "../model";
import { commandName } from "../refs";
import { CompileContext, num, text, type RawNode } from "./compile-context";
import type { ButtonDef, KeyboardDef } from "./table";

function compileButton(owner: RawNode, b: Button, inline: boolean, ctx: CompileContext): ButtonDef | undefined {
  const label = b.text ?? "";
  if (label.trim() === "") {
    ctx.warn(owner, `Node "${owner.id}": a button without text is left out (the messenger rejects it).`);
    return undefined;
  }
  const base: Pick<ButtonDef, "id" | "text" | "skipInput"> = {
    id: b.id ?? "",
    text: label,
    skipInput: b.skipDataCollection ? true : undefined,
  };
  const hide: true | undefined = b.hideAfterClick && inline ? true : undefined;
  const action = b.action && b.action !== "" ? b.action : "goto";
  if (b.requestContact || action === "contact") {
    return { ...base, action: "contact", target: ctx.target(owner, b.target, `button "${label}"`) };
  }
  if (b.requestLocation || action === "location") {
    return { ...base, action: "location", target: ctx.target(owner, b.target, `button "${label}"`) };
  }
  switch (action) {
    case "goto":
    case "complete":
      return { ...base, action, target: ctx.target(owner, b.target, `button "${label}"`), hide };
    case "command": {
      const target = b.target ? commandName(b.target) : "";
      return { ...base, action: "command", target: target || undefined, hide };
    }
    case "url": {
      const url = text(b.url) ?? (/^https?:\/\//.test(b.target ?? "") ? b.target : undefined);
      return { ...base, action: "url", url };
    }
    default:
      // One warning per node and action: multi-select keyboards have dozens of such buttons.
      ctx.warn(owner, `Node "${owner.id}": buttons with action "${action}" are not run by this version; they are left out.`);
      return undefined;
  }
}

/** Rows of button indexes: the saved layout, else `columns` per row (autoLayout), else one per row. */
function layoutRows(buttons: { id: string }[], layout: KeyboardData["keyboardLayout"]): number[][] {
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
    // "__dynamic__" marks where Level 2 dynamic buttons go: nothing to place yet.
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
  if (!kind || !d.buttons?.length) return undefined;
  const compiled: ButtonDef[] = [];
  const ids: { id: string }[] = [];
  for (const b of d.buttons) {
    const def = compileButton(owner, b, kind === "inline", ctx);
    if (def) {
      compiled.push(def);
      ids.push({ id: b.id ?? "" });
    }
  }
  if (compiled.length === 0) return undefined;
  return {
    kind,
    buttons: compiled,
    rows: layoutRows(ids, d.keyboardLayout),
    oneTime: kind === "reply" && d.oneTimeKeyboard ? true : undefined,
    resize: kind === "reply" && d.resizeKeyboard !== false ? true : undefined,
  };
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
      const kb = compileKeyboardFields(owner, keyboardDataSchema.parse(kbNode.data), ctx);
      return kb && { kind: kb.kind, from: ref, buttons: kb.buttons, rows: kb.rows, oneTime: kb.oneTime, resize: kb.resize };
    }
    if (kbNode) ctx.warn(owner, `Node "${owner.id}": keyboardNodeId "${ref}" is a ${kbNode.type} node, not a keyboard.`);
  }
  return compileKeyboardFields(owner, d, ctx);
}
