// The editor's one table of actions (docs/architecture.md "The editor's actions"): each action's
// label, icon, keys, when it is enabled and what it does. The toolbar draws its buttons from it,
// the keyboard handler dispatches from it, and the shortcut help lists it; adding an action is one
// row here (and its place in TOOLBAR if it has a button there).
import { autoLayout, duplicate, copyToClipboard, pasteFromClipboard, removeSelected, selectAll, toggleAnalytics } from "./commands";
import type { EditorStore } from "./store";
import type { IconName } from "./icons";

/** What `when` and `active` read: slices of the store and the editor screen's own flags, as plain values. */
export interface ActionView {
  canUndo: boolean;
  canRedo: boolean;
  hasSelection: boolean;
  analytics: boolean;
  view: "canvas" | "code";
  preview: boolean;
  fullscreen: boolean;
  minimap: boolean;
  palette: boolean;
  properties: boolean;
  /** a phone-sized screen: the editor is a read-only view (docs/editor.md "On a phone") */
  phone: boolean;
}

/** What an action may do besides the store: the editor screen's panels and dialogs. */
export interface ActionContext {
  store: EditorStore;
  save(): void;
  setView(view: "canvas" | "code"): void;
  openSearch(): void;
  toggleHelp(): void;
  togglePreview(): void;
  toggleFullscreen(): void;
  toggleMinimap(): void;
  zoom(direction: "in" | "out"): void;
  togglePalette(): void;
  toggleProperties(): void;
  /** Escape: closes search, help, menus and the tour; then, when nothing was open, full screen */
  closeOverlays(typing: boolean): void;
}

export interface Action {
  id: string;
  /** i18n key of the button's text (or of its accessible name when it shows an icon) */
  labelKey: string;
  /** i18n key of the button's title while `active` (full screen → "Exit full screen") */
  activeLabelKey?: string;
  icon?: (v: ActionView) => string;
  /** a drawn icon instead of the words (icons.tsx); the words stay its name and tooltip */
  svg?: IconName;
  /**
   * Key combinations, "Mod" being Ctrl (Cmd on macOS): "Mod+Shift+Z", "Alt+L", "?", "Escape".
   * Shown in the help and the button's title, dispatched by the editor's key handler unless `keysBy`.
   */
  keys?: string[];
  /** keys someone else listens to: React Flow (`canvas`: delete, selection) or the clipboard events */
  keysBy?: "canvas" | "clipboard";
  /** i18n key of the action's line in the shortcut help; actions sharing one are one line */
  helpKey?: string;
  /** keys that act while a form field has the focus (save, search, Escape) */
  whileTyping?: boolean;
  /** an edit: hidden and inert on a phone, where the editor is read-only */
  editOnly?: boolean;
  /** a button that stays pressed (aria-pressed) while `active` */
  toggle?: boolean;
  primary?: boolean;
  /** extra attributes of its button (tests and the tour find it by them) */
  attrs?: Record<string, string>;
  when?: (v: ActionView) => boolean;
  active?: (v: ActionView) => boolean;
  /** absent for gestures that only have a help line (the canvas does them) */
  run?: (ctx: ActionContext, how: { typing: boolean }) => void;
}

export const ACTIONS: readonly Action[] = [
  { id: "viewCanvas", labelKey: "editor.canvas", active: (v) => v.view === "canvas", run: (c) => c.setView("canvas") },
  { id: "viewCode", labelKey: "editor.code.title", active: (v) => v.view === "code", run: (c) => c.setView("code") },
  // enabled while a save is on its way too: it is queued behind it (useSave.ts)
  { id: "save", labelKey: "editor.save.save", keys: ["Mod+S"], helpKey: "editor.keys.save", whileTyping: true, editOnly: true, primary: true, run: (c) => c.save() },
  { id: "undo", labelKey: "editor.undo", svg: "undo", keys: ["Mod+Z"], helpKey: "editor.keys.undo", editOnly: true, when: (v) => v.canUndo, run: (c) => c.store.undo() },
  { id: "redo", labelKey: "editor.redo", svg: "redo", keys: ["Mod+Shift+Z", "Mod+Y"], helpKey: "editor.keys.redo", editOnly: true, when: (v) => v.canRedo, run: (c) => c.store.redo() },
  { id: "copy", labelKey: "editor.copy", svg: "copy", keys: ["Mod+C"], keysBy: "clipboard", helpKey: "editor.keys.copyPaste", editOnly: true, when: (v) => v.hasSelection, run: (c) => void copyToClipboard(c.store) },
  { id: "paste", labelKey: "editor.paste", svg: "paste", keys: ["Mod+V"], keysBy: "clipboard", helpKey: "editor.keys.copyPaste", editOnly: true, run: (c) => void pasteFromClipboard(c.store) },
  { id: "duplicate", labelKey: "editor.duplicate", svg: "duplicate", keys: ["Mod+D"], helpKey: "editor.keys.duplicate", editOnly: true, when: (v) => v.hasSelection, run: (c) => duplicate(c.store) },
  { id: "selectAll", labelKey: "editor.keys.selectAll", keys: ["Mod+A"], helpKey: "editor.keys.selectAll", editOnly: true, run: (c) => selectAll(c.store) },
  // React Flow deletes on these keys (selected edges too); the button deletes the selected nodes
  { id: "delete", labelKey: "editor.delete", svg: "trash", keys: ["Delete", "Backspace"], keysBy: "canvas", helpKey: "editor.keys.delete", editOnly: true, when: (v) => v.hasSelection, run: (c) => removeSelected(c.store) },
  { id: "search", labelKey: "editor.search.title", keys: ["Mod+F"], helpKey: "editor.keys.search", whileTyping: true, run: (c) => c.openSearch() },
  { id: "layout", labelKey: "editor.layout", svg: "layout", keys: ["Alt+L"], helpKey: "editor.keys.layout", editOnly: true, run: (c) => void autoLayout(c.store) },
  { id: "analytics", labelKey: "analytics.funnel.toggle", keys: ["Alt+A"], helpKey: "editor.keys.analytics", toggle: true, attrs: { "data-testid": "analytics-toggle" }, active: (v) => v.analytics, run: (c) => toggleAnalytics(c.store) },
  { id: "marquee", labelKey: "editor.keys.marquee", keys: ["Shift+drag"], keysBy: "canvas", helpKey: "editor.keys.marquee" },
  { id: "multiSelect", labelKey: "editor.keys.multi", keys: ["Mod+click", "Shift+click"], keysBy: "canvas", helpKey: "editor.keys.multi" },
  { id: "preview", labelKey: "editor.preview", toggle: true, attrs: { "data-tour": "preview" }, active: (v) => v.preview, run: (c) => c.togglePreview() },
  { id: "fullscreen", labelKey: "editor.fullscreen", activeLabelKey: "editor.exitFullscreen", icon: (v) => (v.fullscreen ? "⤡" : "⤢"), editOnly: true, toggle: true, active: (v) => v.fullscreen, run: (c) => c.toggleFullscreen() },
  { id: "help", labelKey: "editor.keys.title", icon: () => "?", keys: ["?"], helpKey: "editor.keys.help", editOnly: true, run: (c) => c.toggleHelp() },
  { id: "escape", labelKey: "editor.keys.close", keys: ["Escape"], helpKey: "editor.keys.close", whileTyping: true, run: (c, how) => c.closeOverlays(how.typing) },
  { id: "palette", labelKey: "editor.showPalette", editOnly: true, active: (v) => v.palette, run: (c) => c.togglePalette() },
  { id: "properties", labelKey: "editor.showProps", active: (v) => v.properties, run: (c) => c.toggleProperties() },
  { id: "zoomIn", labelKey: "editor.zoomIn", icon: () => "+", run: (c) => c.zoom("in") },
  { id: "zoomOut", labelKey: "editor.zoomOut", icon: () => "−", run: (c) => c.zoom("out") },
  { id: "fitView", labelKey: "editor.fitView", icon: () => "⤢", run: (c) => c.store.requestFit() },
  { id: "minimap", labelKey: "editor.minimap", icon: () => "▣", toggle: true, active: (v) => v.minimap, run: (c) => c.toggleMinimap() },
];

export type ActionId = (typeof ACTIONS)[number]["id"];

const byId = new Map(ACTIONS.map((a) => [a.id, a]));
export function action(id: string): Action {
  const a = byId.get(id);
  if (!a) throw new Error(`no editor action "${id}"`);
  return a;
}

/** The toolbar's buttons, in groups split by a thin line; the save group has the commit message before it. */
export const TOOLBAR: readonly (readonly string[])[] = [
  ["viewCanvas", "viewCode"],
  ["undo", "redo", "copy", "paste", "duplicate", "delete", "layout", "search", "help", "analytics", "preview", "fullscreen"],
  ["save"],
];

/** Whether the action exists on this screen (edits do not on a phone). */
export const shown = (a: Action, v: ActionView) => !(a.editOnly && v.phone);
export const enabled = (a: Action, v: ActionView) => shown(a, v) && (a.when?.(v) ?? true);

export function runAction(a: Action, ctx: ActionContext, v: ActionView, how = { typing: false }) {
  if (a.run && enabled(a, v)) a.run(ctx, how);
}

const MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const MAC_MODS: Record<string, string> = { Mod: "⌘", Alt: "⌥", Shift: "⇧" };
const NAMES: Record<string, string> = { Escape: "Esc" };

/** A combination as people read it: "Ctrl+Shift+Z" (⇧⌘Z on macOS). */
export function keyText(combo: string, mac = MAC): string {
  const parts = combo.split("+");
  const key = parts.pop()!;
  const name = NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key);
  if (mac) {
    const order = ["Alt", "Shift", "Mod"];
    const mods = parts.sort((a, b) => order.indexOf(a) - order.indexOf(b)).map((m) => MAC_MODS[m] ?? m).join("");
    return key.length === 1 || !parts.length ? mods + name : `${mods}+${name}`;
  }
  return [...parts.map((m) => (m === "Mod" ? "Ctrl" : m)), name].join("+");
}

export const keysText = (a: Action, mac = MAC) => (a.keys ?? []).map((k) => keyText(k, mac)).join(" / ");

/** The shortcut help: one line per help key, in the table's order, with every key of its actions. */
export function helpLines(mac = MAC): { labelKey: string; keys: string; ids: string[] }[] {
  const lines = new Map<string, { labelKey: string; keys: string[]; ids: string[] }>();
  for (const a of ACTIONS) {
    if (!a.helpKey || !a.keys?.length) continue;
    const line = lines.get(a.helpKey) ?? { labelKey: a.helpKey, keys: [], ids: [] };
    line.keys.push(...a.keys.map((k) => keyText(k, mac)));
    line.ids.push(a.id);
    lines.set(a.helpKey, line);
  }
  return [...lines.values()].map((l) => ({ ...l, keys: l.keys.join(" / ") }));
}

/** The keys React Flow listens to for an action (its deleteKeyCode). */
export const canvasKeys = (id: string) => action(id).keys ?? [];

interface Combo {
  mod: boolean;
  alt: boolean;
  shift: boolean;
  key: string;
}
const parse = (combo: string): Combo => {
  const parts = combo.split("+");
  const key = parts.pop()!;
  return { mod: parts.includes("Mod"), alt: parts.includes("Alt"), shift: parts.includes("Shift"), key };
};

/**
 * Whether a key press is the combination. Letters match the key's character, or its place on the
 * keyboard when the layout gives another character (Ctrl+Я on a Russian layout is Ctrl+Z, and
 * macOS's Option turns L into ¬). Other keys ("?", Escape) match with or without Shift, which "?"
 * takes to type.
 */
export function matches(e: Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">, combo: string): boolean {
  const c = parse(combo);
  if (c.mod !== (e.ctrlKey || e.metaKey) || c.alt !== e.altKey) return false;
  if (/^[A-Z]$/.test(c.key)) {
    if (c.shift !== e.shiftKey) return false;
    const k = e.key.toLowerCase();
    return /^[a-z]$/.test(k) ? k === c.key.toLowerCase() : e.code === `Key${c.key}`;
  }
  return e.key === c.key;
}

/** The action a key press asks for, among those the editor's key handler dispatches. */
export function actionForKey(e: Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">): Action | null {
  for (const a of ACTIONS) if (a.run && !a.keysBy && a.keys?.some((k) => matches(e, k))) return a;
  return null;
}

/**
 * The editor's key handler: the action for the key, if it may act now. Edits keep their hands off
 * a form field with the focus; combinations with Ctrl/Alt do not reach the browser either way.
 */
export function dispatchKey(e: KeyboardEvent, ctx: ActionContext, v: ActionView, typing: boolean): Action | null {
  const a = actionForKey(e);
  if (!a) return null;
  if (typing && !a.whileTyping) return null;
  if (!shown(a, v)) return null;
  if (e.ctrlKey || e.metaKey || e.altKey) e.preventDefault();
  runAction(a, ctx, v, { typing });
  return a;
}
