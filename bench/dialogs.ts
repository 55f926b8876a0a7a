// The message store and the Dialogs (docs/dialogs.md), each figure next to a same-run baseline:
//  1. update → reply with recording on vs messageRetentionDays 0: one fleet of --bots polling bots
//     in shared runners (this process is the platform, the fake messenger runs here too), half of
//     them recording, half not; --active users each write to a bot of either half in turn, --rate
//     times a second, for half of --seconds; then the halves swap (the same bots restarted with the
//     other retention) for the other half, so runner placement weighs on both sides alike;
//     p50/p99 of each side and their ratio (target ≤ 1.1);
//  2. memory: RSS of the runners with the fleet recording nothing, then with half of it recording
//     (the same bots started again); what recording adds per recording bot, and the fleet's RSS per
//     bot (target: recording adds ≤ 0.5 MB a bot);
//  3. a token with --chats chats and one chat of --messages messages: server time (the service
//     call, and the HTTP round trip on loopback) per page of the chat list (first, middle, last
//     page, a filter, a search by first name, by last name and by full name) and of the messages
//     (newest, deep in the past) — target p99 ≤ 20 ms;
//     baseline: the same pages of a token with 100 chats and a chat of 1,000 messages.
// Prints ONE JSON line.
//
//   bun bench/dialogs.ts [--bots 200] [--active 40] [--rate 4] [--seconds 10] [--chats 10000] [--messages 100000]
import { loadavg } from "node:os";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { startFakeMessenger, type FakeBot, type RecordedCall } from "../test/support/fake-messenger";
import { DialogsService } from "../src/modules/dialogs/service";
import { api, arg, latency, pool, onCleanup, ratio, round, runBench, startPlatform, treeRssMb, until } from "./lib";

const N = Math.max(2, arg("bots", 200));
const ACTIVE = Math.max(2, Math.min(arg("active", 40), N));
const RATE = arg("rate", 4);
const SECONDS = arg("seconds", 10);
const CHATS = arg("chats", 10_000);
const MESSAGES = arg("messages", 100_000);
const PER_PROJECT = 20;
const OWNER = 1;
const TARGETS = { replyP99Ratio: 1.1, addedPerBotMB: 0.5, pageP99Ms: 20 };

interface Member {
  projectId: number;
  tokenId: number;
  bot: FakeBot;
  records: boolean;
}


await runBench("dialogs", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_ISOLATION: "runner" } });
  const cookie = await p.login(OWNER);

  // --- the fleet ---
  const projects: number[] = [];
  for (let i = 0; i < Math.ceil(N / PER_PROJECT); i++) projects.push((await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Dialogs ${i}`, data: greeterScenario } })).id);
  const fleet: Member[] = [];
  await pool(Array.from({ length: N }, (_, i) => i), 8, async (i) => {
    const bot = fake.addBot({ username: `dialogs${i}_bot` });
    const token = await api(p.url, "POST", `/api/bot/projects/${projects[Math.floor(i / PER_PROJECT)]}/tokens`, { cookie, json: { token: bot.token } });
    fleet.push({ projectId: projects[Math.floor(i / PER_PROJECT)]!, tokenId: token.id, bot, records: i % 2 === 0 });
  });
  const retention = (m: Member, days: number) => api(p.url, "PATCH", `/api/bot/tokens/${m.tokenId}`, { cookie, json: { messageRetentionDays: days } });
  const startAll = async () => {
    fake.clear();
    await pool(fleet, 16, (m) => api(p.url, "POST", `/api/bot/tokens/${m.tokenId}/start`, { cookie }));
    await Promise.all(fleet.map((m) => fake.waitForCall(m.bot.token, (c: RecordedCall) => c.method === "getUpdates", 120_000)));
    await Bun.sleep(2000); // let the runners settle before reading memory
  };
  const stopAll = () => pool(fleet, 16, (m) => api(p.url, "POST", `/api/bot/tokens/${m.tokenId}/stop`, { cookie }));
  // 2a. nobody records
  await pool(fleet, 16, (m) => retention(m, 0));
  await startAll();
  // this process (the platform and the fake messenger) and its runners
  const rssNone = treeRssMb(process.pid);
  await stopAll();
  // 2b. half records (the same bots)
  await pool(fleet.filter((m) => m.records), 16, (m) => retention(m, 30));
  await startAll();
  const rssHalf = treeRssMb(process.pid);

  // --- 1. update → reply, both halves interleaved; then the halves swap (the same bots, restarted
  // with the other retention), so where a bot sits in the runners weighs on both sides alike ---
  const samples: { on: number[]; off: number[] } = { on: [], off: [] };
  let nextUser = 9_000_000;
  const talk = async (seconds: number) => {
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: ACTIVE }, async (_, a) => {
        // the same bots talk in both windows; only which of them records changes
        const m = fleet[a % fleet.length]!;
        const user = { id: nextUser++, first_name: `U${a}` };
        while (performance.now() < deadline) {
          const t0 = performance.now();
          fake.sendText(m.bot.token, user, "/start");
          await fake.waitForSent(m.bot.token, user.id, 1, 10_000);
          (m.records ? samples.on : samples.off).push(performance.now() - t0);
          if (RATE > 0) await Bun.sleep(Math.max(0, 1000 / RATE - (performance.now() - t0)));
        }
      }),
    );
  };
  await talk(SECONDS / 2);
  await stopAll();
  for (const m of fleet) m.records = !m.records;
  await pool(fleet, 16, (m) => retention(m, m.records ? 30 : 0));
  await startAll();
  await talk(SECONDS / 2);
  const recording = fleet.filter((m) => m.records);
  // every recorded reply reached the store
  const check = fleet.find((m) => m.records)!;
  await until(() => (p.ctx.projectFiles.existing(check.projectId)?.$client.query("SELECT count(*) AS n FROM bot_messages WHERE token_id = ? AND direction = 'out'").get(check.tokenId) as { n: number } | undefined)?.n, "recorded replies", 5000);
  await stopAll();
  const on = latency(samples.on);
  const off = latency(samples.off);

  // --- 3. pages of a big token, and of a small one (baseline) ---
  const service = new DialogsService(p.ctx);
  const seed = (m: Member, chats: number, messages: number) => {
    const db = p.ctx.projectFiles.open(m.projectId);
    const base = Date.parse("2026-01-01T00:00:00Z");
    db.$client.transaction(() => {
      const chat = db.$client.prepare("INSERT INTO bot_chats (token_id, chat_id, kind, user_id, first_name, username, last_message_at, last_message_text, unread) VALUES (?, ?, 'private', ?, ?, ?, ?, 'hi', ?)");
      for (let i = 0; i < chats; i++) chat.run(m.tokenId, String(1_000_000 + i), String(1_000_000 + i), `Name${i}`, `user${i}`, new Date(base + i * 1000).toISOString(), i % 7);
      // each chat's person, with a last name (kept with the user, not the chat; the search reads it there)
      const user = db.$client.prepare("INSERT INTO bot_users (token_id, user_id, first_name, last_name, username, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
      for (let i = 0; i < chats; i++) user.run(m.tokenId, String(1_000_000 + i), `Name${i}`, `Фамилия${i}`, `user${i}`, new Date(base).toISOString(), new Date(base + i * 1000).toISOString());
      const msg = db.$client.prepare("INSERT INTO bot_messages (token_id, chat_id, direction, sent_by, kind, text, node_id, messenger_message_id, created_at) VALUES (?, '1000000', ?, ?, 'text', ?, ?, ?, ?)");
      for (let i = 0; i < messages; i++) msg.run(m.tokenId, i % 2 ? "out" : "in", i % 2 ? "bot" : "user", `message ${i}`, i % 2 ? "start" : null, i + 1, new Date(base + i * 100).toISOString());
    })();
    // as SQLite's automatic checkpoints leave a bot's file: reads do not wade through a 100,000-row WAL
    db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  };
  const pages = async (m: Member, chats: number, rounds = 60) => {
    const svc: number[] = [];
    const http: number[] = [];
    const byCall: Record<string, number[]> = {};
    const newest = service.messages(m.tokenId, OWNER, "1000000", undefined, 1).items[0]!.id;
    const mid = newest - Math.floor((chats === CHATS ? MESSAGES : 1000) / 2);
    const calls: [() => unknown, string][] = [
      [() => service.chats(m.tokenId, OWNER, { search: "", filter: "all" }, 1, 50), `/api/bot/tokens/${m.tokenId}/chats`],
      [() => service.chats(m.tokenId, OWNER, { search: "", filter: "all" }, Math.max(1, Math.floor(chats / 100)), 50), `/api/bot/tokens/${m.tokenId}/chats?page=${Math.max(1, Math.floor(chats / 100))}`],
      [() => service.chats(m.tokenId, OWNER, { search: "", filter: "all" }, Math.max(1, Math.ceil(chats / 50)), 50), `/api/bot/tokens/${m.tokenId}/chats?page=${Math.max(1, Math.ceil(chats / 50))}`],
      [() => service.chats(m.tokenId, OWNER, { search: "", filter: "unread" }, 1, 50), `/api/bot/tokens/${m.tokenId}/chats?filter=unread`],
      [() => service.chats(m.tokenId, OWNER, { search: "name12", filter: "all" }, 1, 50), `/api/bot/tokens/${m.tokenId}/chats?search=name12`],
      // a last name and a full name "first last" (Cyrillic: the GLOB form of the search, its slower one)
      [() => service.chats(m.tokenId, OWNER, { search: "фамилия12", filter: "all" }, 1, 50), `/api/bot/tokens/${m.tokenId}/chats?search=${encodeURIComponent("фамилия12")}`],
      [() => service.chats(m.tokenId, OWNER, { search: "Name12 Фамилия12", filter: "all" }, 1, 50), `/api/bot/tokens/${m.tokenId}/chats?search=${encodeURIComponent("Name12 Фамилия12")}`],
      [() => service.messages(m.tokenId, OWNER, "1000000", undefined, 50), `/api/bot/tokens/${m.tokenId}/chats/1000000/messages`],
      [() => service.messages(m.tokenId, OWNER, "1000000", Math.max(1, mid), 50), `/api/bot/tokens/${m.tokenId}/chats/1000000/messages?before=${Math.max(1, mid)}`],
    ];
    for (const [call] of calls) call(); // warm: statements prepared, pages cached
    for (let r = 0; r < rounds; r++) {
      for (const [call, path] of calls) {
        const t0 = performance.now();
        call();
        const ms = performance.now() - t0;
        svc.push(ms);
        (byCall[decodeURIComponent(path.replace(/^\/api\/bot\/tokens\/\d+/, ""))] ??= []).push(ms);
        const t1 = performance.now();
        await api(p.url, "GET", path, { cookie });
        http.push(performance.now() - t1);
      }
    }
    return { service: latency(svc), http: latency(http), serviceByPage: Object.fromEntries(Object.entries(byCall).map(([k, v]) => [k, { p50Ms: latency(v).p50Ms, p99Ms: latency(v).p99Ms }])), loadAverage1m: round(loadavg()[0], 2) };
  };
  const big = fleet[0]!;
  const small = fleet[1]!;
  const seedT0 = performance.now();
  seed(big, CHATS, MESSAGES);
  const seedS = round((performance.now() - seedT0) / 1000, 1);
  seed(small, 100, 1000);
  const bigPages = await pages(big, CHATS);
  const smallPages = await pages(small, 100);

  const addedPerBotMB = round((rssHalf.totalMB - rssNone.totalMB) / recording.length, 3);
  return {
    bots: N,
    recordingBots: recording.length,
    activeUsers: ACTIVE,
    rate: RATE,
    seconds: SECONDS,
    updateToReply: { recordingOn: on, retention0: off, p50Ratio: ratio(on.p50Ms, off.p50Ms), p99Ratio: ratio(on.p99Ms, off.p99Ms), target: TARGETS.replyP99Ratio },
    rss: {
      noneRecordingMB: rssNone.totalMB,
      halfRecordingMB: rssHalf.totalMB,
      processes: rssHalf.processes,
      perBotMB: round(rssHalf.totalMB / N, 3),
      addedPerRecordingBotMB: addedPerBotMB,
      target: TARGETS.addedPerBotMB,
      note: "RSS of this process (platform and fake messenger) and its runners",
    },
    pages: { chats: CHATS, messages: MESSAGES, seedSeconds: seedS, big: bigPages, baseline100Chats1000Messages: smallPages, target: TARGETS.pageP99Ms, p99RatioToBaseline: ratio(bigPages.service.p99Ms, smallPages.service.p99Ms) },
  };
}, { timeoutMs: 15 * 60_000 });
