// The editor's funnel overlay and the Analytics tab's helpers against answers shaped as the
// analytics routes give them (docs/studio.md "Analytics tab"): per-node users and drop-off, per-transition
// shares, periods and their bad dates, CSV cells that must not become formulas.
import { describe, expect, test } from "bun:test";
import { edgeKey, funnelOf, shareTone } from "../../web/src/editor/funnel";
import type { Doc } from "../../web/src/editor/document";
import { atSeconds, defaultBucket, periodQuery } from "../../web/src/pages/project/analytics/range";
import { tableCsv } from "../../web/src/pages/project/analytics/csv";

const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
// /start → menu; menu has two buttons (buy → thanks on another sheet, help); thanks leads nowhere
const doc: Doc = {
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [
        node("start", "command_trigger", { command: "/start", autoTransitionTo: "menu" }),
        node("menu", "message", { messageText: "Menu", keyboardType: "inline", buttons: [{ id: "b1", text: "Buy", action: "goto", target: "thanks" }, { id: "b2", text: "Help", action: "goto", target: "help" }] }),
        node("help", "message", { messageText: "Help" }),
      ],
      edges: [],
    },
    { id: "s2", name: "Shop", nodes: [node("thanks", "message", { messageText: "Thanks" })], edges: [] },
  ],
} as unknown as Doc;

const figures = {
  items: [
    { nodeId: "start", sheetId: "s1", users: 10, visits: 14 },
    { nodeId: "menu", sheetId: "s1", users: 8, visits: 12 },
    { nodeId: "thanks", sheetId: "s2", users: 3, visits: 3 },
    { nodeId: "help", sheetId: "s1", users: 1, visits: 1 },
    { nodeId: "gone", sheetId: "s1", users: 5, visits: 5 },
  ],
  edges: [
    { from: "start", to: "menu", users: 8 },
    { from: "menu", to: "thanks", users: 3 },
    { from: "menu", to: "help", users: 1 },
  ],
};

describe("funnel overlay", () => {
  const f = funnelOf(figures, doc);

  test("a node's users, visits and the share who went no further", () => {
    expect(f.nodes.get("start")).toEqual({ users: 10, visits: 14, onward: 8, drop: 0.2 });
    expect(f.nodes.get("menu")).toEqual({ users: 8, visits: 12, onward: 4, drop: 0.5 });
  });

  test("a node that leads nowhere has no drop-off; a node nobody reached shows 0", () => {
    expect(f.nodes.get("thanks")).toEqual({ users: 3, visits: 3, onward: 0, drop: null });
    const unreached = funnelOf({ items: [], edges: [] }, doc);
    expect(unreached.nodes.get("menu")).toEqual({ users: 0, visits: 0, onward: 0, drop: null });
    expect(unreached.edges.get(edgeKey("menu", "help"))).toEqual({ users: 0, share: null });
    expect(unreached.nodes.has("start")).toBe(false);
  });

  test("a trigger the answer does not count carries no figures, nor do its links", () => {
    const g = funnelOf({ items: figures.items.filter((i) => i.nodeId !== "start"), edges: figures.edges.filter((e) => e.from !== "start") }, doc);
    expect(g.nodes.has("start")).toBe(false);
    expect(g.edges.has(edgeKey("start", "menu"))).toBe(false);
    expect(g.nodes.get("menu")).toEqual({ users: 8, visits: 12, onward: 4, drop: 0.5 });
  });

  test("figures of nodes deleted since are left out", () => {
    expect(f.nodes.has("gone")).toBe(false);
  });

  test("a transition's share of its source's users, across sheets too", () => {
    expect(f.edges.get(edgeKey("start", "menu"))).toEqual({ users: 8, share: 0.8 });
    expect(f.edges.get(edgeKey("menu", "thanks"))).toEqual({ users: 3, share: 0.375 });
    expect(shareTone(0.8)).toBe("ok");
    expect(shareTone(0.375)).toBe("warn");
    expect(shareTone(0.125)).toBe("danger");
    expect(shareTone(null)).toBe("none");
  });

  test("a drawn transition nobody took is 0; more followers than users never exceed 100%", () => {
    const g = funnelOf({ items: [{ nodeId: "menu", sheetId: "s1", users: 2, visits: 9 }], edges: [{ from: "menu", to: "thanks", users: 2 }, { from: "menu", to: "help", users: 2 }] }, doc);
    expect(g.nodes.get("menu")).toEqual({ users: 2, visits: 9, onward: 2, drop: 0 });
    const h = funnelOf({ items: [{ nodeId: "menu", sheetId: "s1", users: 4, visits: 4 }], edges: [] }, doc);
    expect(h.edges.get(edgeKey("menu", "help"))).toEqual({ users: 0, share: 0 });
    expect(h.nodes.get("menu")!.drop).toBe(1);
  });
});

describe("analytics period", () => {
  const now = Date.parse("2026-03-10T15:00:00Z");

  test("presets end today (UTC) and cover whole days", () => {
    expect(periodQuery({ preset: "24h", from: "", to: "" }, now)).toEqual({ hours: "24" });
    expect(periodQuery({ preset: "7d", from: "", to: "" }, now)).toEqual({ from: "2026-03-04", to: "2026-03-10" });
    expect(periodQuery({ preset: "90d", from: "", to: "" }, now)).toEqual({ from: "2025-12-11", to: "2026-03-10" });
  });

  test("custom dates: bad ones are named, good ones pass as they are", () => {
    expect(periodQuery({ preset: "custom", from: "2026-03-01", to: "2026-03-05" }, now)).toEqual({ from: "2026-03-01", to: "2026-03-05" });
    expect(periodQuery({ preset: "custom", from: "", to: "2026-03-05" }, now)).toEqual({ problem: "analytics.problem.missing" });
    expect(periodQuery({ preset: "custom", from: "2026-02-30x", to: "2026-03-05" }, now)).toEqual({ problem: "analytics.problem.missing" });
    expect(periodQuery({ preset: "custom", from: "2026-03-05", to: "2026-03-01" }, now)).toEqual({ problem: "analytics.problem.order" });
    expect(periodQuery({ preset: "custom", from: "2026-04-01", to: "2026-04-02" }, now)).toEqual({ problem: "analytics.problem.future" });
  });

  test("hours for a day, days otherwise; a bucket's time in any of the shapes a server writes", () => {
    expect(defaultBucket({ preset: "24h", from: "", to: "" })).toBe("hour");
    expect(defaultBucket({ preset: "custom", from: "2026-03-01", to: "2026-03-01" })).toBe("hour");
    expect(defaultBucket({ preset: "30d", from: "", to: "" })).toBe("day");
    const t = Date.parse("2026-03-01T05:00:00Z") / 1000;
    expect(atSeconds("2026-03-01 05:00:00")).toBe(t);
    expect(atSeconds("2026-03-01T05:00:00Z")).toBe(t);
    expect(atSeconds("2026-03-01")).toBe(t - 5 * 3600);
  });
});

describe("analytics CSV", () => {
  test("formula-looking cells get a leading quote; quotes, commas and newlines are quoted", () => {
    const csv = tableCsv(["Source", "Users"], [["=cmd|' /C calc'!A0", 3], ["+1", 1], ["-2", 2], ["@SUM(A1)", 4], ['say "hi", then\nbye', 5], ["ref_42", 6]]);
    expect(csv.split("\r\n")).toEqual(["Source,Users", "'=cmd|' /C calc'!A0,3", "'+1,1", "'-2,2", "'@SUM(A1),4", '"say ""hi"", then\nbye",5', "ref_42,6", ""]);
  });
});
