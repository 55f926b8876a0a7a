// Inbound webhooks (docs/hooks.md): POST /api/hooks/<id> → the flow's message at the fake user,
// against the messenger's own path in the same run — an update posted to the webhook intake
// (/api/webhook/{projectId}/{tokenId}) → the bot's reply at the fake user. One bot in webhook mode
// (this process is the platform, the fake messenger runs here too); the two kinds alternate, one
// request at a time, each to a user of its own, so both see the same machine. Prints ONE JSON line.
//
//   bun bench/hooks.ts [--requests 200]
//   BOT_ISOLATION=process bun bench/hooks.ts   (the bot as a process of its own)
import { join } from "node:path";
import { webhookSecret } from "../src/bots/program";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { freePort } from "../test/support/process";
import { hookScenario } from "../test/hooks/scenario";
import { BENCH_SESSION_SECRET, api, arg, latency, onCleanup, raiseTokenIds, ratio, runBench, startPlatform } from "./lib";

const REQUESTS = Math.max(10, arg("requests", 200));
const WARMUP = 10;
const ISOLATION = process.env.BOT_ISOLATION === "process" ? "process" : "runner";

await runBench("hooks", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const port = await freePort();
  const p = await startPlatform({ env: { MESSENGER_API_ROOT: fake.url, BOT_ISOLATION: ISOLATION, PORT: String(port), WEBHOOK_BASE_URL: `http://127.0.0.1:${port}` } });
  raiseTokenIds(join(p.dir, "data", "botloom.db"), 1);
  const cookie = await p.login(1);
  const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: "Hooks", data: hookScenario } });
  const bot = fake.addBot({ username: "bench_hooks_bot" });
  const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } });
  await api(p.url, "PATCH", `/api/bot/tokens/${token.id}`, { cookie, json: { launchMode: "webhook" } });
  await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
  onCleanup(() => fetch(`${p.url}/api/bot/tokens/${token.id}/stop`, { method: "POST", headers: { cookie } }));
  // The node's own limit is 60 a minute by default: the bench raises it, as a busy shop would.
  const data = structuredClone(hookScenario);
  const hookNode = data.sheets[0]!.nodes.find((n) => n.id === "paid")!;
  hookNode.data = { ...hookNode.data, rateLimitPerMinute: 6000 };
  await api(p.url, "PUT", `/api/projects/${project.id}`, { cookie, json: { data } });
  const made = await api(p.url, "POST", `/api/projects/${project.id}/hooks/paid/secret`, { cookie, expect: 201 });

  const intakeSecret = webhookSecret(BENCH_SESSION_SECRET, project.id, token.id);
  let updateId = 1;
  let nextUser = 500_000;
  /** One request and the time until the fake user has the bot's message. */
  const timed = async (send: (user: number) => Promise<Response>, expected: (user: number) => string) => {
    const user = nextUser++;
    const t0 = performance.now();
    const res = await send(user);
    if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    const [sent] = await fake.waitForSent(bot.token, user, 1, 15_000);
    const ms = performance.now() - t0;
    if (sent!.params.text !== expected(user)) throw new Error(`unexpected message: ${sent!.params.text}`);
    return ms;
  };
  const viaHook = () =>
    timed(
      (user) => fetch(p.url + made.path, { method: "POST", headers: { "content-type": "application/json", "x-botloom-secret": made.secret }, body: JSON.stringify({ order: "B-1", total: 5, customer: { telegram_id: user } }) }),
      () => "Order B-1 paid: 5, thanks ",
    );
  const viaIntake = () =>
    timed(
      (user) =>
        fetch(`${p.url}/api/webhook/${project.id}/${token.id}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": intakeSecret },
          body: JSON.stringify({ update_id: updateId++, message: { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: user, type: "private" }, from: { id: user, is_bot: false, first_name: "Load" }, text: "/start" } }),
        }),
      () => "hi Load",
    );

  for (let i = 0; i < WARMUP; i++) {
    await viaHook();
    await viaIntake();
  }
  const hook: number[] = [];
  const intake: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    // alternate which goes first, so neither always follows the other
    if (i % 2 === 0) {
      hook.push(await viaHook());
      intake.push(await viaIntake());
    } else {
      intake.push(await viaIntake());
      hook.push(await viaHook());
    }
  }
  const h = latency(hook);
  const m = latency(intake);
  return {
    isolation: ISOLATION,
    requests: REQUESTS,
    hookToMessage: h,
    intakeToReply: m,
    p50VsIntake: ratio(h.p50Ms, m.p50Ms),
    p99VsIntake: ratio(h.p99Ms, m.p99Ms),
  };
});
