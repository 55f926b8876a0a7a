// The editor's one actions table (web/src/editor/actions.ts, docs/architecture.md "The editor's
// actions"): every key is in the shortcut help, no key does two things, every toolbar id is an
// action, every label exists in English and Russian, keys match on other keyboard layouts, and the
// period in the address reads bad values as the default (web/src/pages/project/analytics/address.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import i18next from "i18next";
import { ACTIONS, TOOLBAR, action, actionForKey, helpLines, keyText, matches } from "../../web/src/editor/actions";
import { registerEditorStrings } from "../../web/src/editor/i18n";
import { overlayFromAddress, withOverlay } from "../../web/src/editor/funnel-address";
import { registerAnalyticsStrings } from "../../web/src/pages/project/analytics/i18n";
import { bucketFromAddress, periodFromAddress, withBucket, withPeriod } from "../../web/src/pages/project/analytics/address";
import { DEFAULT_PERIOD } from "../../web/src/pages/project/analytics/range";

const press = (key: string, o: { ctrl?: boolean; meta?: boolean; alt?: boolean; shift?: boolean; code?: string } = {}) => ({
  key,
  code: o.code ?? (/^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : ""),
  ctrlKey: !!o.ctrl,
  metaKey: !!o.meta,
  altKey: !!o.alt,
  shiftKey: !!o.shift,
});

describe("the editor's actions table", () => {
  beforeAll(async () => {
    await i18next.init({ lng: "en", resources: {} });
    registerEditorStrings();
    registerAnalyticsStrings();
  });

  test("ids are unique and every toolbar id is an action that runs", () => {
    const ids = ACTIONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of TOOLBAR.flat()) expect(action(id).run).toBeFunction();
    expect(() => action("nope")).toThrow();
  });

  test("every action with keys has a line in the shortcut help, and the help lists nothing else", () => {
    const inHelp = new Set(helpLines(false).flatMap((l) => l.ids));
    const keyed = ACTIONS.filter((a) => a.keys?.length).map((a) => a.id);
    expect(keyed.filter((id) => !inHelp.has(id))).toEqual([]);
    expect([...inHelp].filter((id) => !keyed.includes(id))).toEqual([]);
    // actions sharing a help line are one line with both keys
    const copyPaste = helpLines(false).find((l) => l.labelKey === "editor.keys.copyPaste")!;
    expect(copyPaste).toMatchObject({ keys: "Ctrl+C / Ctrl+V", ids: ["copy", "paste"] });
    expect(helpLines(false).find((l) => l.ids.includes("redo"))!.keys).toBe("Ctrl+Shift+Z / Ctrl+Y");
  });

  test("no key combination belongs to two actions", () => {
    const seen = new Map<string, string>();
    for (const a of ACTIONS)
      for (const k of a.keys ?? []) {
        expect(seen.get(k.toLowerCase()) ?? a.id).toBe(a.id);
        seen.set(k.toLowerCase(), a.id);
      }
  });

  test("every label and help line exists in English and Russian", () => {
    const keys = ACTIONS.flatMap((a) => [a.labelKey, a.activeLabelKey, a.helpKey].filter((k): k is string => !!k));
    for (const lng of ["en", "ru"]) expect(keys.filter((k) => !i18next.exists(k, { lng }))).toEqual([]);
  });

  test("keys read as people know them, Ctrl elsewhere and ⌘ on macOS", () => {
    expect(keyText("Mod+Shift+Z", false)).toBe("Ctrl+Shift+Z");
    expect(keyText("Mod+Shift+Z", true)).toBe("⇧⌘Z");
    expect(keyText("Alt+L", true)).toBe("⌥L");
    expect(keyText("Escape", false)).toBe("Esc");
    expect(keyText("?", true)).toBe("?");
    expect(keyText("Shift+drag", false)).toBe("Shift+drag");
  });

  test("a key press finds its action: modifiers exact, Cmd for Ctrl, letters by place on other layouts", () => {
    const id = (e: ReturnType<typeof press>) => actionForKey(e)?.id ?? null;
    expect(id(press("z", { ctrl: true }))).toBe("undo");
    expect(id(press("z", { meta: true }))).toBe("undo");
    expect(id(press("Z", { ctrl: true, shift: true }))).toBe("redo");
    expect(id(press("y", { ctrl: true }))).toBe("redo");
    expect(id(press("z"))).toBe(null);
    expect(id(press("z", { alt: true }))).toBe(null);
    // a Russian layout: Ctrl+Я is the key where Z is; macOS's Option+L types ¬
    expect(id(press("я", { ctrl: true, code: "KeyZ" }))).toBe("undo");
    expect(id(press("¬", { alt: true, code: "KeyL" }))).toBe("layout");
    expect(id(press("ф", { alt: true, code: "KeyA" }))).toBe("analytics");
    // "?" takes Shift to type; Escape closes with or without it
    expect(id(press("?", { shift: true, code: "Slash" }))).toBe("help");
    expect(id(press("Escape", { shift: true }))).toBe("escape");
    // keys someone else listens to are not the key handler's: React Flow deletes, the clipboard events copy
    expect(id(press("Delete"))).toBe(null);
    expect(id(press("c", { ctrl: true }))).toBe(null);
    expect(matches(press("Delete"), "Delete")).toBe(true);
  });
});

describe("the analytics period in the address", () => {
  const q = (s: string) => new URLSearchParams(s);
  const now = Date.parse("2026-06-15T12:00:00Z");

  test("a preset, custom dates and a bucket read back as written", () => {
    expect(periodFromAddress(q("range=7d"), now)).toEqual({ preset: "7d", from: "", to: "" });
    const custom = { preset: "custom" as const, from: "2026-03-05", to: "2026-03-09" };
    const written = withPeriod(q("token=3&node=menu"), custom);
    expect(written.toString()).toBe("token=3&node=menu&range=custom&from=2026-03-05&to=2026-03-09");
    expect(periodFromAddress(written, now)).toEqual(custom);
    expect(bucketFromAddress(withBucket(written, "hour"))).toBe("hour");
    expect(withBucket(q("bucket=hour"), null).toString()).toBe("");
    // the default period writes nothing: a plain link stays plain
    expect(withPeriod(q("range=7d&from=2026-01-01"), DEFAULT_PERIOD).toString()).toBe("");
  });

  test("bad values read as the default, never as an error", () => {
    for (const s of ["range=999d", "range=", "range=custom", "range=custom&from=2026-03-05", "range=custom&from=2026-13-45&to=2026-13-46", "range=custom&from=2026-03-09&to=2026-03-05", "range=custom&from=2027-01-01&to=2027-01-02", "range=custom&from=<script>&to=x", "range=7d7d", "range=__proto__"])
      expect(periodFromAddress(q(s), now)).toEqual(DEFAULT_PERIOD);
    for (const s of ["bucket=week", "bucket=", "bucket=HOUR", ""]) expect(bucketFromAddress(q(s))).toBe(null);
  });

  test("the editor's overlay: on with its bot and period, off takes its keys out and keeps the bot", () => {
    expect(overlayFromAddress(q("token=3&range=7d"))).toBe(null);
    expect(overlayFromAddress(q("funnel=1&token=3&range=7d"))).toEqual({ tokenId: 3, period: { preset: "7d", from: "", to: "" }, figures: null });
    for (const token of ["abc", "-3", "1.5", "", "99999999999999999999"]) expect(overlayFromAddress(q(`funnel=1&token=${token}&range=bogus`))).toEqual({ tokenId: null, period: DEFAULT_PERIOD, figures: null });
    expect(withOverlay(q("node=a"), { tokenId: 3, period: { preset: "24h", from: "", to: "" } }).toString()).toBe("node=a&range=24h&funnel=1&token=3");
    expect(withOverlay(q("node=a&range=24h&funnel=1&token=3"), null).toString()).toBe("node=a&token=3");
  });
});
