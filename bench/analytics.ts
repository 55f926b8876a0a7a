// The analytics (docs/analytics.md), each figure next to a same-run baseline:
//  1. GET /analytics over 90 days by day, and /analytics/nodes, of a token whose project file holds
//     --messages recorded messages of --users users with the rollups such traffic leaves (seeded
//     with SQL in the shape the bot writes: a row per user and active day, per node, user and day,
//     per transition, user and day; counters per hour): server time (the service call) and the HTTP
//     round trip on loopback. Baseline: the same calls over a token of 100 users and ~1,000
//     messages. Target: ≤ 50 ms server time.
//  2. update → reply with counting on vs off: two platforms in this process, one with
//     BOT_ANALYTICS=on and one with off, --bots bots each in shared runners, --active chats writing
//     to bots of both in turn (/start, then a button, which walks three nodes and two transitions),
//     --rate times a second for --seconds; halfway the platforms swap roles. p50/p99 of each side
//     and their ratio (target ≤ 1.05), for returning users (a chat is one user, a new one every
//     fifth conversation) and for the worst case (a new user every conversation).
// Prints ONE JSON line.
//
//   bun bench/analytics.ts [--users 10000] [--messages 100000] [--bots 10] [--active 20] [--rate 4] [--seconds 10]
//   full size: bun bench/analytics.ts --users 100000 --messages 1000000
import { loadavg } from "node:os";
import { AnalyticsService } from "../src/modules/analytics/service";
import { startFakeMessenger, type FakeBot, type FakeMessenger, type RecordedCall } from "../test/support/fake-messenger";
import { api, arg, latency, onCleanup, pool, ratio, round, runBench, startPlatform, type Platform } from "./lib";

const USERS = arg("users", 10_000);
const MESSAGES = arg("messages", 100_000);
const BOTS = Math.max(1, arg("bots", 10));
const ACTIVE = Math.max(2, arg("active", 20));
const RATE = arg("rate", 4);
const SECONDS = arg("seconds", 10);
const DAYS = 90;
const OWNER = 1;
const TARGETS = { serverMs: 50, replyRatio: 1.05 };

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
/** /start shows a button; pressing it walks three nodes (message → set → message). */
const scenario = {
  version: 2,
  sheets: [{
    id: "main", name: "Main", edges: [], nodes: [
      at("start", "start", { command: "/start", messageText: "Hello", keyboardType: "inline", buttons: [{ id: "go", text: "Go", action: "goto", target: "menu" }] }),
      at("menu", "message", { messageText: "Menu", autoTransitionTo: "mark" }),
      at("mark", "set_variable", { assignments: [{ variable: "seen", value: "1" }], autoTransitionTo: "done" }),
      at("done", "message", { messageText: "Done" }),
    ],
  }],
};

/**
 * Rollups and messages of `users` users over the DAYS days up to yesterday: user i first comes on
 * day (i·7919 mod DAYS) and again every 7 days, up to 4 times, each time at hour i mod 24, by
 * source src(i mod 50), with two or three messages in and two out, visiting start, menu and one of
 * ten nodes. `messages` rows of bot_messages sit beside them, as a recording bot leaves them.
 */
function seed(p: Platform, projectId: number, tokenId: number, users: number, messages: number) {
  const db = p.ctx.projectFiles.open(projectId).$client;
  const first = new Date(Date.now() - DAYS * 86_400_000).toISOString().slice(0, 10);
  db.exec("PRAGMA journal_mode = WAL");
  db.transaction(() => {
    db.exec("CREATE TEMP TABLE ud AS WITH RECURSIVE u(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM u WHERE i < " + users + "), j(k) AS (VALUES (0), (1), (2), (3)) " +
      "SELECT i, k, (i * 7919) % " + DAYS + " + 7 * k AS d FROM u, j WHERE k <= i % 4 AND (i * 7919) % " + DAYS + " + 7 * k < " + DAYS);
    const day = (offset: string) => `date('${first}', '+' || (${offset}) || ' days')`;
    const prev = `CASE WHEN k = 0 THEN '' ELSE ${day("d - 7")} END`;
    const hour = `${day("d")} || 'T' || printf('%02d', i % 24)`;
    const language = "CASE i % 3 WHEN 0 THEN 'en' WHEN 1 THEN 'ru' ELSE '' END";
    db.query(`INSERT INTO analytics_user_days (token_id, user_id, day, prev_day, last_hour, active_hours) SELECT ?, 'u' || i, ${day("d")}, nullif(${prev}, ''), ${hour}, 1 FROM ud`).run(tokenId);
    db.query(`INSERT INTO analytics_active (token_id, day, prev_day, language, users) SELECT ?, ${day("d")}, ${prev}, ${language}, count(*) FROM ud GROUP BY 2, 3, 4`).run(tokenId);
    db.query(`INSERT INTO analytics_hours (token_id, hour, new_users, active_users, messages_in, messages_out, blocked) SELECT ?, ${hour}, sum(k = 0), count(*), sum(2 + i % 2), 2 * count(*), sum(i % 97 = 0) FROM ud GROUP BY 2`).run(tokenId);
    db.query(`INSERT INTO analytics_tallies (token_id, day, kind, name, node_id, count) SELECT ?, ${day("d")}, 'source', 'src' || (i % 50), '', count(*) FROM ud WHERE k = 0 GROUP BY 2, 4`).run(tokenId);
    db.query(`INSERT INTO analytics_tallies (token_id, day, kind, name, node_id, count) SELECT ?, ${day("d")}, 'command', 'start', '', count(*) FROM ud GROUP BY 2`).run(tokenId);
    db.query(`INSERT INTO analytics_tallies (token_id, day, kind, name, node_id, count) SELECT ?, ${day("d")}, 'button', 'Go', 'start', count(*) FROM ud GROUP BY 2`).run(tokenId);
    for (const node of ["'start'", "'menu'", "'n' || (i % 10)"]) {
      db.query(`INSERT INTO analytics_node_days (token_id, node_id, user_id, day, prev_day) SELECT ?, ${node}, 'u' || i, ${day("d")}, nullif(${prev}, '') FROM ud`).run(tokenId);
      db.query(`INSERT INTO analytics_node_reach (token_id, day, node_id, prev_day, users, visits) SELECT ?, ${day("d")}, ${node}, ${prev}, count(*), sum(1 + i % 2) FROM ud GROUP BY 2, 3, 4`).run(tokenId);
    }
    for (const [from, to] of [["'start'", "'menu'"], ["'menu'", "'n' || (i % 10)"]]) {
      db.query(`INSERT INTO analytics_edge_days (token_id, from_node, to_node, user_id, day, prev_day) SELECT ?, ${from}, ${to}, 'u' || i, ${day("d")}, nullif(${prev}, '') FROM ud`).run(tokenId);
      db.query(`INSERT INTO analytics_edge_reach (token_id, day, from_node, to_node, prev_day, users) SELECT ?, ${day("d")}, ${from}, ${to}, ${prev}, count(*) FROM ud GROUP BY 2, 3, 4, 5`).run(tokenId);
    }
    db.query(`INSERT INTO bot_messages (token_id, chat_id, direction, sent_by, kind, text, created_at) WITH RECURSIVE m(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM m WHERE n < ${messages}) ` +
      `SELECT ?, 'u' || (n % ${users} + 1), CASE n % 2 WHEN 0 THEN 'in' ELSE 'out' END, CASE n % 2 WHEN 0 THEN 'user' ELSE 'bot' END, 'text', 'message ' || n, ${day(`n % ${DAYS}`)} || 'T12:00:00.000Z' FROM m`).run(tokenId);
    db.exec("DROP TABLE ud");
  })();
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.exec("ANALYZE");
  const rows = (t: string) => (db.query(`SELECT count(*) AS n FROM ${t} WHERE token_id = ?`).get(tokenId) as { n: number }).n;
  return {
    messages: rows("bot_messages"),
    userDays: rows("analytics_user_days"),
    active: rows("analytics_active"),
    nodeReach: rows("analytics_node_reach"),
    edgeReach: rows("analytics_edge_reach"),
    hours: rows("analytics_hours"),
  };
}

async function endpoint(p: Platform, cookie: string, tokenId: number, rounds = 40) {
  const service = new AnalyticsService(p.ctx);
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const q = { from, bucket: "day" as const };
  const figures = await service.figures(tokenId, OWNER, q);
  await service.nodes(tokenId, OWNER, { from });
  const svc: number[] = [];
  const nodes: number[] = [];
  const http: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    await service.figures(tokenId, OWNER, q);
    svc.push(performance.now() - t0);
    t0 = performance.now();
    await service.nodes(tokenId, OWNER, { from });
    nodes.push(performance.now() - t0);
    t0 = performance.now();
    await api(p.url, "GET", `/api/bot/tokens/${tokenId}/analytics?from=${from}&bucket=day`, { cookie });
    http.push(performance.now() - t0);
  }
  return { figures: latency(svc), nodes: latency(nodes), http: latency(http), totals: figures.totals, seriesLength: figures.series.length, loadAverage1m: round(loadavg()[0], 2) };
}

interface Side {
  p: Platform;
  cookie: string;
  bots: { tokenId: number; bot: FakeBot }[];
}

async function fleet(fake: FakeMessenger, counting: boolean): Promise<Side> {
  const p = await startPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_ISOLATION: "runner", BOT_ANALYTICS: counting ? "on" : "off" } });
  const cookie = await p.login(OWNER);
  const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: counting ? "Counting" : "Not counting", data: scenario } });
  const bots: Side["bots"] = [];
  for (let i = 0; i < BOTS; i++) {
    const bot = fake.addBot({ username: `analytics_${counting ? "on" : "off"}${i}_bot` });
    bots.push({ tokenId: (await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } })).id, bot });
  }
  await pool(bots, 8, (b) => api(p.url, "POST", `/api/bot/tokens/${b.tokenId}/start`, { cookie }));
  await Promise.all(bots.map((b) => fake.waitForCall(b.bot.token, (c: RecordedCall) => c.method === "getUpdates", 120_000)));
  return { p, cookie, bots };
}

await runBench("analytics", async () => {
  // --- 1. the endpoint over a big project and a small one ---
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const on = await fleet(fake, true);
  const mkToken = async (name: string) => {
    const project = await api(on.p.url, "POST", "/api/projects", { cookie: on.cookie, json: { name, data: scenario } });
    const token = await api(on.p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie: on.cookie, json: { token: fake.addBot({ username: `${name.toLowerCase()}_bot` }).token } });
    return { projectId: project.id as number, tokenId: token.id as number };
  };
  const big = await mkToken("Big");
  const small = await mkToken("Small");
  const t0 = performance.now();
  const bigRows = seed(on.p, big.projectId, big.tokenId, USERS, MESSAGES);
  const seedSeconds = round((performance.now() - t0) / 1000, 1);
  const smallRows = seed(on.p, small.projectId, small.tokenId, 100, 1000);
  const bigFigures = await endpoint(on.p, on.cookie, big.tokenId);
  const smallFigures = await endpoint(on.p, on.cookie, small.tokenId);

  // --- 2. update → reply, counting on and off, interleaved ---
  // Each platform has its own runner; halfway the two swap roles (the switch is read when a bot
  // starts), so neither runner's share of the loaded box decides the ratio.
  const off = await fleet(fake, false);
  await Bun.sleep(2000); // let the runners settle
  const mixed: { on: number[]; off: number[] } = { on: [], off: [] };
  const fresh: { on: number[]; off: number[] } = { on: [], off: [] };
  let nextUser = 9_000_000;
  const measure = async (counting: Side, quiet: Side, seconds: number, samples: { on: number[]; off: number[] }, newEvery: number) => {
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: ACTIVE }, async (_, a) => {
        const side = a % 2 === 0 ? counting : quiet;
        const b = side.bots[Math.floor(a / 2) % side.bots.length]!;
        const list = side === counting ? samples.on : samples.off;
        let user = { id: nextUser++, first_name: `U${a}`, language_code: "en" };
        for (let n = 1; performance.now() < deadline; n++) {
          if (n % newEvery === 0) user = { id: nextUser++, first_name: `U${a}`, language_code: "en" };
          let t = performance.now();
          fake.sendText(b.bot.token, user, "/start src" + (a % 5));
          const [hello] = await fake.waitForSent(b.bot.token, user.id, 1, 10_000);
          list.push(performance.now() - t);
          t = performance.now();
          fake.pressButton(b.bot.token, user, hello!.params.reply_markup.inline_keyboard[0][0].callback_data, hello!.messageId);
          await fake.waitForSent(b.bot.token, user.id, 2, 10_000);
          list.push(performance.now() - t);
          if (RATE > 0) await Bun.sleep(Math.max(0, 1000 / RATE - (performance.now() - t)));
        }
      }),
    );
  };
  await measure(on, off, SECONDS / 4, mixed, 5);
  await measure(on, off, SECONDS / 4, fresh, 1);
  // the counting side really counted what it answered
  const counted = (await api(on.p.url, "GET", `/api/bot/tokens/${on.bots[0]!.tokenId}/analytics`, { cookie: on.cookie })).totals;
  on.p.ctx.config.bots.analytics = false;
  off.p.ctx.config.bots.analytics = true;
  for (const side of [on, off]) {
    for (const b of side.bots) fake.clear(b.bot.token);
    await pool(side.bots, 8, (b) => api(side.p.url, "POST", `/api/bot/tokens/${b.tokenId}/restart`, { cookie: side.cookie }));
    await Promise.all(side.bots.map((b) => fake.waitForCall(b.bot.token, (c: RecordedCall) => c.method === "getUpdates", 120_000)));
  }
  await Bun.sleep(2000);
  await measure(off, on, SECONDS / 4, mixed, 5);
  await measure(off, on, SECONDS / 4, fresh, 1);
  const replyOn = latency(mixed.on);
  const replyOff = latency(mixed.off);
  const freshOn = latency(fresh.on);
  const freshOff = latency(fresh.off);

  return {
    endpoint: {
      users: USERS,
      messages: MESSAGES,
      days: DAYS,
      seedSeconds,
      rows: bigRows,
      big: bigFigures,
      baseline: { rows: smallRows, ...smallFigures },
      serverP50RatioToBaseline: ratio(bigFigures.figures.p50Ms, smallFigures.figures.p50Ms),
      target: TARGETS.serverMs,
    },
    updateToReply: {
      bots: BOTS,
      activeUsers: ACTIVE,
      rate: RATE,
      seconds: SECONDS,
      countingOn: replyOn,
      countingOff: replyOff,
      p50Ratio: ratio(replyOn.p50Ms, replyOff.p50Ms),
      p99Ratio: ratio(replyOn.p99Ms, replyOff.p99Ms),
      target: TARGETS.replyRatio,
      everyUpdateANewUser: { countingOn: freshOn, countingOff: freshOff, p50Ratio: ratio(freshOn.p50Ms, freshOff.p50Ms), p99Ratio: ratio(freshOn.p99Ms, freshOff.p99Ms) },
      countedByOneBot: counted,
      loadAverage1m: round(loadavg()[0], 2),
    },
  };
}, { timeoutMs: 15 * 60_000 });
