// The analytics routes over fixture rollups (docs/analytics.md): a series entry per bucket with the
// empty ones, day buckets taking their own distinct active users, distinct users over a range
// counted once however many days they were active, the ranked tables, the funnel with each node's
// sheet, the range's defaults, clamping and every bad input.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  projectAnalyticsActive,
  projectAnalyticsEdgeReach,
  projectAnalyticsHours,
  projectAnalyticsNodeReach,
  projectAnalyticsTallies,
} from "../../src/db/project-schema";
import { parseHours, parseRange } from "../../src/modules/analytics/service";
import { addToken, botApiEnv, createProject, OWNER, STRANGER, type BotApiEnv } from "./support";

let env: BotApiEnv;
let projectId: number;
let tokenId: number;
let otherToken: number;

const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const dayAgo = (n: number) => new Date(Date.parse(today + "T00:00:00Z") - n * DAY).toISOString().slice(0, 10);
const D2 = dayAgo(2);
const D1 = dayAgo(1);

const node = (id: string) => ({ id, type: "message", position: { x: 0, y: 0 }, data: { messageText: id } });
const scenario = { sheets: [{ id: "main", name: "Main", nodes: [node("hello"), node("menu")], edges: [] }, { id: "shop", name: "Shop", nodes: [node("cart")], edges: [] }] };

const get = (path: string, cookie = env.cookie) => env.call("GET", `/api/bot/tokens/${tokenId}/analytics${path}`, { cookie });

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  env.t.ctx.projects.update(projectId, OWNER, { data: scenario });
  tokenId = (await addToken(env, projectId)).tokenId;
  otherToken = (await addToken(env, projectId)).tokenId;
  const db = env.t.ctx.projectFiles.open(projectId);
  const hour = (h: string, v: [number, number, number, number, number], token = tokenId) =>
    db.insert(projectAnalyticsHours).values({ tokenId: token, hour: h, newUsers: v[0], activeUsers: v[1], messagesIn: v[2], messagesOut: v[3], blocked: v[4] }).run();
  // D2: u1 and u2 new at 10:00, u1 again at 11:00 with u3; D1: u1 and u3 at 09:00.
  hour(D2 + "T10", [2, 2, 5, 6, 0]);
  hour(D2 + "T11", [1, 2, 3, 3, 1]);
  hour(D1 + "T09", [0, 2, 4, 4, 0]);
  hour(D1 + "T09", [9, 9, 9, 9, 9], otherToken);
  // users by their active days: u1 (en) on D2 and D1, u2 (ru) on D2, u3 (no language) on D2 and D1
  const act = (day: string, prevDay: string, language: string) => ({ tokenId, day, prevDay, language, users: 1 });
  db.insert(projectAnalyticsActive).values([act(D2, "", "en"), act(D2, "", "ru"), act(D2, "", ""), act(D1, D2, "en"), act(D1, D2, "")]).run();
  const tally = (kind: "source" | "command" | "button", name: string, count: number, nodeId = "", day = D2) => ({ tokenId, day, kind, name, nodeId, count });
  db.insert(projectAnalyticsTallies)
    .values([tally("source", "promo", 2), tally("source", "ads", 1), tally("command", "start", 3), tally("command", "start", 1, "", D1), tally("button", "Buy", 2, "menu"), tally("button", "Buy", 1, "cart")])
    .run();
  // hello: u1 twice and u2 on D2, u1 again on D1; menu: u1 on D2; gone (no longer in the scenario): u2 on D1
  const nr = (nodeId: string, day: string, prevDay: string, users: number, visits: number) => ({ tokenId, nodeId, day, prevDay, users, visits });
  db.insert(projectAnalyticsNodeReach).values([nr("hello", D2, "", 2, 3), nr("hello", D1, D2, 1, 1), nr("menu", D2, "", 1, 1), nr("gone", D1, "", 1, 1)]).run();
  // hello → menu: u1 on D2 and D1, u2 on D1
  const er = (day: string, prevDay: string) => ({ tokenId, fromNode: "hello", toNode: "menu", day, prevDay, users: 1 });
  db.insert(projectAnalyticsEdgeReach).values([er(D2, ""), er(D1, D2), er(D1, "")]).run();
});
afterAll(() => env.close());

describe("GET /analytics", () => {
  test("default: the last 30 days by day, an entry per day, totals and ranked tables", async () => {
    const r = await get("");
    expect(r.status).toBe(200);
    expect(r.body.range).toEqual({ from: dayAgo(29), to: today, clamped: false, bucket: "day" });
    expect(r.body.series.length).toBe(30);
    expect(r.body.series[0]).toEqual({ at: dayAgo(29) + "T00:00:00.000Z", newUsers: 0, activeUsers: 0, messagesIn: 0, messagesOut: 0, blocked: 0 });
    expect(r.body.series[27]).toEqual({ at: D2 + "T00:00:00.000Z", newUsers: 3, activeUsers: 3, messagesIn: 8, messagesOut: 9, blocked: 1 });
    expect(r.body.series[28]).toEqual({ at: D1 + "T00:00:00.000Z", newUsers: 0, activeUsers: 2, messagesIn: 4, messagesOut: 4, blocked: 0 });
    expect(r.body.totals).toEqual({ users: 3, activeUsers: 3, newUsers: 3, messagesIn: 12, messagesOut: 13, blocked: 1 });
    expect(r.body.sources).toEqual([{ source: "promo", users: 2 }, { source: "ads", users: 1 }]);
    expect(r.body.languages).toEqual([{ language: "", users: 1 }, { language: "en", users: 1 }, { language: "ru", users: 1 }]);
    expect(r.body.commands).toEqual([{ command: "start", count: 4 }]);
    expect(r.body.buttons).toEqual([{ text: "Buy", nodeId: "menu", count: 2 }, { text: "Buy", nodeId: "cart", count: 1 }]);
  });

  test("a range that starts after a user's first day counts them once; one day apart", async () => {
    const r = await get(`?from=${D1}&to=${D1}`);
    expect(r.body.totals).toMatchObject({ users: 3, activeUsers: 2, newUsers: 0, messagesIn: 4 });
    expect(r.body.languages).toEqual([{ language: "", users: 1 }, { language: "en", users: 1 }]);
    expect(r.body.sources).toEqual([]);
    expect(r.body.commands).toEqual([{ command: "start", count: 1 }]);
    const before = await get(`?from=${dayAgo(5)}&to=${dayAgo(3)}`);
    expect(before.body.totals).toEqual({ users: 0, activeUsers: 0, newUsers: 0, messagesIn: 0, messagesOut: 0, blocked: 0 });
    expect(before.body.series.length).toBe(3);
  });

  test("by hour: 24 entries a day, each hour its own", async () => {
    const r = await get(`?from=${D2}&to=${D2}&bucket=hour`);
    expect(r.status).toBe(200);
    expect(r.body.series.length).toBe(24);
    expect(r.body.series[10]).toEqual({ at: D2 + "T10:00:00.000Z", newUsers: 2, activeUsers: 2, messagesIn: 5, messagesOut: 6, blocked: 0 });
    expect(r.body.series[11]).toMatchObject({ at: D2 + "T11:00:00.000Z", activeUsers: 2, blocked: 1 });
    expect(r.body.series.filter((p: { messagesIn: number }) => p.messagesIn > 0).length).toBe(2);
    expect(r.body.totals.activeUsers).toBe(3);
  });

  test("huge ranges are cut to their most recent days and say so", async () => {
    const byDay = await get(`?from=2000-01-01&to=${today}`);
    expect(byDay.status).toBe(200);
    expect(byDay.body.range).toEqual({ from: dayAgo(365), to: today, clamped: true, bucket: "day" });
    expect(byDay.body.series.length).toBe(366);
    const byHour = await get(`?from=${dayAgo(40)}&bucket=hour`);
    expect(byHour.body.range).toMatchObject({ from: dayAgo(30), to: today, clamped: true });
    expect(byHour.body.series.length).toBe(31 * 24);
  });

  test("bad input is 400 with the parameter named", async () => {
    const tomorrow2 = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
    const cases: [string, RegExp][] = [
      ["?from=2026-13-01", /from must be a date/],
      ["?from=2026-02-30", /from must be a date/],
      ["?to=yesterday", /to must be a date/],
      ["?from=2026-1-1", /from must be a date/],
      ["?from=1999-12-31", /from must lie between/],
      [`?to=${tomorrow2}`, /to must lie between/],
      [`?from=${D1}&to=${D2}`, /to must not be before from/],
      ["?bucket=week", /bucket must be one of hour, day/],
      ["?from=%27%3B+DROP+TABLE+x", /from must be a date/],
    ];
    for (const [q, message] of cases) {
      const r = await get(q);
      expect([q, r.status, r.body.error]).toEqual([q, 400, "VALIDATION_FAILED"]);
      expect(r.body.message).toMatch(message);
    }
    expect((await get("/nodes?from=2026-00-10")).status).toBe(400);
  });

  test("hours=24 is a true rolling 24 hours by hour; the per-day figures say which days they cover", async () => {
    const rolling = (await addToken(env, projectId)).tokenId;
    const db = env.t.ctx.projectFiles.open(projectId);
    const HOUR = 3_600_000;
    const hourAgo = (n: number) => new Date(Math.floor(Date.now() / HOUR) * HOUR - n * HOUR).toISOString();
    // the current hour, 23 hours ago (the window's first), 24 hours ago (just outside it)
    for (const [n, v] of [[0, 1], [23, 10], [24, 100]] as const) {
      db.insert(projectAnalyticsHours).values({ tokenId: rolling, hour: hourAgo(n).slice(0, 13), newUsers: v, activeUsers: v, messagesIn: v, messagesOut: v, blocked: 0 }).run();
    }
    const r = await env.call("GET", `/api/bot/tokens/${rolling}/analytics?hours=24`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    // the hour may turn between the seeding and the answer: then the window moved by one
    const shift = r.body.range.since === hourAgo(23) ? 0 : 1;
    expect(r.body.range).toEqual({
      from: hourAgo(23 - shift).slice(0, 10), to: hourAgo(-shift).slice(0, 10), clamped: false, bucket: "hour", hours: 24,
      since: hourAgo(23 - shift), until: hourAgo(-1 - shift),
    });
    expect(r.body.series.length).toBe(24);
    expect(r.body.series[0].at).toBe(hourAgo(23 - shift));
    expect(r.body.series.at(-1).at).toBe(hourAgo(-shift));
    if (shift === 0) expect(r.body.totals).toMatchObject({ users: 111, newUsers: 11, messagesIn: 11, messagesOut: 11 });
    const nodes = await env.call("GET", `/api/bot/tokens/${rolling}/analytics/nodes?hours=24`, { cookie: env.cookie });
    expect(nodes.body.range).toMatchObject({ from: r.body.range.from, to: r.body.range.to, hours: 24 });
    for (const [q, message] of [
      ["hours=0", /hours must be a whole number from 1 to 744/],
      ["hours=745", /hours must be a whole number/],
      ["hours=2.5", /hours must be a whole number/],
      ["hours=abc", /hours must be a whole number/],
      [`hours=24&from=${D1}`, /hours replaces from and to/],
      ["hours=24&bucket=day", /hours goes with bucket=hour/],
    ] as const) {
      const bad = await env.call("GET", `/api/bot/tokens/${rolling}/analytics?${q}`, { cookie: env.cookie });
      expect([q, bad.status, bad.body.error]).toEqual([q, 400, "VALIDATION_FAILED"]);
      expect(bad.body.message).toMatch(message);
    }
  });

  test("another user's token is 404; an unknown token is 404", async () => {
    const { loginAs } = await import("../support/app");
    const stranger = await loginAs(env.t, STRANGER);
    expect((await get("", stranger)).status).toBe(404);
    expect((await env.call("GET", "/api/bot/tokens/999999/analytics", { cookie: env.cookie })).status).toBe(404);
  });
});

describe("GET /analytics/nodes", () => {
  test("distinct users and visits per node with its sheet, users per transition", async () => {
    const r = await get("/nodes");
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([
      { nodeId: "hello", sheetId: "main", users: 2, visits: 4 },
      { nodeId: "gone", sheetId: null, users: 1, visits: 1 },
      { nodeId: "menu", sheetId: "main", users: 1, visits: 1 },
    ]);
    expect(r.body.edges).toEqual([{ from: "hello", to: "menu", users: 2 }]);
    expect(r.body.range).toEqual({ from: dayAgo(29), to: today, clamped: false });
    const d1 = await get(`/nodes?from=${D1}&to=${D1}`);
    expect(d1.body.items).toEqual([{ nodeId: "gone", sheetId: null, users: 1, visits: 1 }, { nodeId: "hello", sheetId: "main", users: 1, visits: 1 }]);
    expect(d1.body.edges).toEqual([{ from: "hello", to: "menu", users: 2 }]);
  });

  test("a token whose project file has no rows yet answers empty", async () => {
    const r = await env.call("GET", `/api/bot/tokens/${otherToken}/analytics/nodes`, { cookie: env.cookie });
    expect(r.body).toMatchObject({ items: [], edges: [] });
  });
});

describe("one snapshot per answer", () => {
  /**
   * Runs `request` while a bot's commit lands between two of its reads: another connection commits
   * `write` just before the first statement whose SQL holds `marker` is prepared. That connection
   * does not wait for locks, so a read that took one (an IMMEDIATE transaction) fails the request.
   */
  async function commitBetweenReads(marker: string, write: string, request: () => Promise<{ status: number; body: any }>) {
    const conn = env.t.ctx.projectFiles.open(projectId).$client;
    const prepare = conn.prepare;
    let committed = false;
    conn.prepare = function (this: Database, sql: string, ...rest: unknown[]) {
      if (!committed && sql.includes(marker)) {
        const bot = new Database(env.t.ctx.projectFiles.pathOf(projectId));
        try {
          bot.exec("PRAGMA busy_timeout = 0");
          bot.exec(write);
          committed = true;
        } finally {
          bot.close();
        }
      }
      return (prepare as (...a: unknown[]) => ReturnType<Database["prepare"]>).call(this, sql, ...rest);
    } as Database["prepare"];
    try {
      const r = await request();
      expect(committed).toBe(true);
      return r;
    } finally {
      conn.prepare = prepare;
    }
  }

  test("the summary: users up to the end agree with the new users of the series, though a commit fell between the reads", async () => {
    const r = await commitBetweenReads(
      'coalesce(sum("new_users"), 0) from "analytics_hours"',
      `INSERT INTO analytics_hours (token_id, hour, new_users, active_users, messages_in, messages_out, blocked) VALUES (${tokenId}, '${D1}T10', 1, 1, 1, 1, 0)`,
      () => get(""),
    );
    expect(r.status).toBe(200);
    expect(r.body.totals).toMatchObject({ users: 3, newUsers: 3, messagesIn: 12 });
    // the commit happened: the next answer has it, in every figure
    expect((await get("")).body.totals).toMatchObject({ users: 4, newUsers: 4, messagesIn: 13 });
    env.t.ctx.projectFiles.open(projectId).$client.exec(`DELETE FROM analytics_hours WHERE token_id = ${tokenId} AND hour = '${D1}T10'`);
  });

  test("the funnel: no transition from a node it does not list, though a commit fell between the reads", async () => {
    const walk =
      `INSERT INTO analytics_node_reach (token_id, node_id, day, prev_day, users, visits) VALUES (${tokenId}, 'late', '${D1}', '', 1, 1); ` +
      `INSERT INTO analytics_edge_reach (token_id, from_node, to_node, day, prev_day, users) VALUES (${tokenId}, 'late', 'menu', '${D1}', '', 1);`;
    const r = await commitBetweenReads('"analytics_edge_reach"', `BEGIN; ${walk} COMMIT;`, () => get("/nodes"));
    expect(r.status).toBe(200);
    expect(r.body.edges).toEqual([{ from: "hello", to: "menu", users: 2 }]);
    expect(r.body.items.map((i: { nodeId: string }) => i.nodeId)).toEqual(["hello", "gone", "menu"]);
    const after = (await get("/nodes")).body;
    expect(after.edges).toContainEqual({ from: "late", to: "menu", users: 1 });
    expect(after.items.map((i: { nodeId: string }) => i.nodeId)).toContain("late");
    env.t.ctx.projectFiles.open(projectId).$client.exec(`DELETE FROM analytics_node_reach WHERE node_id = 'late'; DELETE FROM analytics_edge_reach WHERE from_node = 'late';`);
  });
});

describe("parseRange", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  test("defaults, inclusive ends, clamping", () => {
    expect(parseRange(undefined, undefined, 366, now)).toEqual({ from: "2026-02-09", to: "2026-03-10", clamped: false });
    expect(parseRange("2026-03-10", "2026-03-10", 1, now)).toEqual({ from: "2026-03-10", to: "2026-03-10", clamped: false });
    expect(parseRange("2026-03-09", "2026-03-10", 1, now)).toEqual({ from: "2026-03-10", to: "2026-03-10", clamped: true });
    expect(parseRange(undefined, "2026-03-11", 366, now).to).toBe("2026-03-11");
    expect(() => parseRange(undefined, "2026-03-12", 366, now)).toThrow(/to must lie between/);
    expect(() => parseRange("2024-02-30", undefined, 366, now)).toThrow(/from must be a date/);
    expect(parseRange("2024-02-29", "2024-03-01", 366, now)).toEqual({ from: "2024-02-29", to: "2024-03-01", clamped: false });
  });
  test("a rolling window ends with the current hour and names the days it touches", () => {
    expect(parseHours("24", {}, Date.parse("2026-03-10T12:34:00Z"))).toEqual({
      from: "2026-03-09", to: "2026-03-10", clamped: false, hours: 24, since: "2026-03-09T13:00:00.000Z", until: "2026-03-10T13:00:00.000Z",
    });
    expect(parseHours("1", {}, Date.parse("2026-03-10T00:00:00Z"))).toMatchObject({ from: "2026-03-10", to: "2026-03-10", since: "2026-03-10T00:00:00.000Z" });
    expect(parseHours(undefined, {})).toBeUndefined();
  });
});
