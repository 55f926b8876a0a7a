// `npm run test:load`: 200 concurrent clients for LOAD_SECONDS (default 60) on a mix of reads and
// writes against the compiled binary, with 25 bots running and users talking to them meanwhile.
// Passes only with 0 errors (every answer 2xx, every bot reply on time) and the server healthy
// afterwards; prints p50/p99 overall and per endpoint, and ONE JSON line at the end.
//
//   LOAD_SECONDS=60 LOAD_CLIENTS=200 LOAD_BOTS=25 bun test/load/load.ts
import { join } from "node:path";
import { greeterScenario } from "../bots/scenario-fixture";
import { startFakeMessenger } from "../support/fake-messenger";
import { api, brief, cleanup, latency, onCleanup, raiseTokenIds, runLoad, startBinaryPlatform, type LoadTarget } from "../../bench/lib";
import { benchScenario } from "../../bench/scenarios";

const num = (name: string, def: number) => {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
};
const SECONDS = num("LOAD_SECONDS", 60);
const CLIENTS = num("LOAD_CLIENTS", 200);
const BOTS = num("LOAD_BOTS", 25);
const EXTRA_PROJECTS = 4; // per user, beside the bot's project: lists have some weight
const MANAGER = 999_001;

const hardStop = setTimeout(() => {
  console.error(`load test: over its bound (${SECONDS + 240} s), giving up`);
  void cleanup().then(() => process.exit(1));
}, (SECONDS + 240) * 1000);

let failed = false;
try {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, LOG_LEVEL: "warn" } });
  raiseTokenIds(join(p.dir, "data", "botloom.db"), BOTS);

  // One user per bot: a project with the bot's token, a few more projects, a session.
  const users: { uid: number; cookie: string; pid: number; tid: number; token: string }[] = [];
  for (let i = 0; i < BOTS; i++) {
    const uid = 500_000 + i;
    const cookie = await p.login(uid);
    const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Bot project ${i}`, data: greeterScenario } });
    for (let k = 0; k < EXTRA_PROJECTS; k++) await api(p.url, "POST", "/api/projects", { cookie, json: { name: `Project ${i}.${k}`, data: benchScenario(50, `u${i}p${k}n`) } });
    const bot = fake.addBot({ username: `load${i}_bot` });
    const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } });
    await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
    users.push({ uid, cookie, pid: project.id, tid: token.id, token: bot.token });
  }
  // the bot-manager client's PAT, issued by the admin
  const pat = await fetch(`${p.url}/admin/api/pats`, { method: "POST", headers: { cookie: p.admin, "content-type": "application/json" }, body: JSON.stringify({ name: "load", userId: MANAGER, scopes: ["bot_manager"] }) });
  if (pat.status !== 201) throw new Error(`PAT: ${pat.status} ${await pat.text()}`);
  const managerPat = (await pat.json()).token as string;
  for (const u of users) {
    const deadline = Date.now() + 30_000;
    while (fake.calls(u.token, "getUpdates").length === 0) {
      if (Date.now() > deadline) throw new Error(`bot of user ${u.uid} does not poll`);
      await Bun.sleep(50);
    }
  }
  console.error(`load test: ${BOTS} bots polling; ${CLIENTS} clients for ${SECONDS} s`);

  const json = { "content-type": "application/json" };
  const targets: LoadTarget[] = [
    { name: "GET /api/projects/list", path: "/api/projects/list", weight: 25 },
    { name: "GET /api/projects/{id}", path: "/api/projects/{pid}", weight: 10 },
    { name: "PUT /api/projects/{id}", method: "PUT", path: "/api/projects/{pid}", headers: json, body: { name: "Bot project {uid} ({n})" }, weight: 10 },
    { name: "POST /api/projects", method: "POST", path: "/api/projects", headers: json, body: { name: "Load {n}" }, weight: 4 },
    { name: "GET /api/bot/projects (PAT)", path: "/api/bot/projects?messenger_id={uid}", headers: { authorization: `Bearer ${managerPat}` }, weight: 15 },
    { name: "GET /api/bot/tokens/{id}/status", path: "/api/bot/tokens/{tid}/status", weight: 10 },
    { name: "GET /api/bot/tokens/{id}/users", path: "/api/bot/tokens/{tid}/users", weight: 5 },
    { name: "POST /api/bot/tokens/{id}/env", method: "POST", path: "/api/bot/tokens/{tid}/env", headers: json, body: { key: "K_{n}", value: "v{n}" }, weight: 4 },
    { name: "GET /api/bot/tokens/{id}/env", path: "/api/bot/tokens/{tid}/env", weight: 5 },
    { name: "GET /api/templates", path: "/api/templates", weight: 5 },
    { name: "GET /api/projects/{id}/logs/all", path: "/api/projects/{pid}/logs/all?limit=50", weight: 4 },
    { name: "GET /api/health", path: "/api/health", weight: 3 },
  ];
  const clients = users.map((u) => ({ headers: { cookie: u.cookie }, vars: { uid: String(u.uid), pid: String(u.pid), tid: String(u.tid) } }));

  // Meanwhile users talk to the bots: one message at a time per bot, every reply awaited.
  let talking = true;
  const replies: number[] = [];
  let missedReplies = 0;
  const talkers = users.map(async (u, i) => {
    const from = { id: 700_000 + i, first_name: `Talker${i}` };
    while (talking) {
      const t0 = performance.now();
      fake.sendText(u.token, from, "/start");
      try {
        await fake.waitForSent(u.token, from.id, 1, 15_000);
        replies.push(performance.now() - t0);
      } catch {
        missedReplies++;
      }
      await Bun.sleep(200);
    }
  });

  const load = await runLoad({ base: p.url, targets, connections: CLIENTS, seconds: SECONDS, warmupSeconds: 2, clients, timeoutMs: 30_000 });
  talking = false;
  await Promise.all(talkers);

  const health = await fetch(`${p.url}/api/health`);
  const running = await Promise.all(users.map(async (u) => (await api(p.url, "GET", `/api/bot/tokens/${u.tid}/status`, { cookie: u.cookie })).status));
  const stillRunning = running.filter((s) => s === "running").length;

  for (const t of load.targets ?? []) console.error(`  ${t.name.padEnd(34)} ${String(t.requests).padStart(7)} req  p50 ${t.p50Ms.toFixed(1).padStart(6)} ms  p99 ${t.p99Ms.toFixed(1).padStart(7)} ms  errors ${t.errors}`);
  const botReply = latency(replies);
  console.error(`  overall: ${load.rps} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, errors ${load.errors}; bot replies ${botReply.n} (p99 ${botReply.p99Ms} ms), missed ${missedReplies}; bots running ${stillRunning}/${BOTS}`);
  failed = load.errors > 0 || missedReplies > 0 || health.status !== 200 || stillRunning !== BOTS;
  if (failed) console.error(`server log (tail):\n${p.server.output().split("\n").slice(-40).join("\n")}`);
  console.log(
    JSON.stringify({
      load: "mixed",
      seconds: SECONDS,
      clients: CLIENTS,
      bots: BOTS,
      ok: !failed,
      ...brief(load),
      statusCounts: load.statusCounts,
      perEndpoint: Object.fromEntries((load.targets ?? []).map((t) => [t.name, { requests: t.requests, p50Ms: t.p50Ms, p99Ms: t.p99Ms, errors: t.errors }])),
      botReplies: { ...botReply, missed: missedReplies },
      botsRunningAfter: stillRunning,
      ...(load.errorSamples ? { errorSamples: load.errorSamples } : {}),
    }),
  );
} catch (e) {
  failed = true;
  console.error("load test failed:", e instanceof Error ? (e.stack ?? e.message) : e);
} finally {
  clearTimeout(hardStop);
  await cleanup();
}
process.exit(failed ? 1 : 0);
