// The webhook intake path (messenger → POST /api/webhook/{projectId}/{tokenId} on the compiled
// binary → forwarded to the bot on 127.0.0.1:9000+tokenId, in its runner) against posting the same update
// straight to the bot, in the same run: p50/p99 and throughput from a second process
// (bench/loadgen.ts). The update is a text the scenario does not answer, so the figures are the
// transport and the bot's own update handling, not the fake messenger. Prints ONE JSON line.
//
//   bun bench/webhook.ts [--seconds 5] [--connections 50]
//   BOT_ISOLATION=process bun bench/webhook.ts   (the bot as a process of its own)
import { join } from "node:path";
import { webhookSecret } from "../src/bots/program";
import { greeterScenario } from "../test/bots/scenario-fixture";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { BENCH_SESSION_SECRET, api, arg, brief, onCleanup, raiseTokenIds, ratio, runBench, runLoad, startBinaryPlatform } from "./lib";

const SECONDS = arg("seconds", 5);
const CONNECTIONS = arg("connections", 50);

await runBench("webhook", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startBinaryPlatform({ env: { MESSENGER_API_ROOT: fake.url, ...(process.env.BOT_ISOLATION ? { BOT_ISOLATION: process.env.BOT_ISOLATION } : {}) }, webhooks: true });
  raiseTokenIds(join(p.dir, "data", "botloom.db"), 1);
  const cookie = await p.login(1);
  const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: "Hook", data: greeterScenario } });
  const bot = fake.addBot({ username: "bench_hook_bot" });
  const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } });
  await api(p.url, "PATCH", `/api/bot/tokens/${token.id}`, { cookie, json: { launchMode: "webhook" } });
  await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
  onCleanup(() => fetch(`${p.url}/api/bot/tokens/${token.id}/stop`, { method: "POST", headers: { cookie } }));

  const secret = webhookSecret(BENCH_SESSION_SECRET, project.id, token.id);
  const update = { update_id: 1, message: { message_id: 1, date: 1_700_000_000, chat: { id: 777, type: "private" }, from: { id: 777, is_bot: false, first_name: "Load" }, text: "ping" } };
  const headers = { "x-telegram-bot-api-secret-token": secret, "content-type": "application/json" };
  const load = (base: string, path: string) =>
    runLoad({ base, targets: [{ method: "POST", path, headers, body: update, expect: [200] }], connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1 });

  const direct = await load(`http://127.0.0.1:${9000 + token.id}`, "/webhook");
  const intake = await load(p.url, `/api/webhook/${project.id}/${token.id}`);
  if (direct.errors || intake.errors) throw new Error(`errors under load: ${JSON.stringify(direct.errorSamples ?? intake.errorSamples)}`);
  // The intake answers 200 even when forwarding fails: make sure the bot really got the updates.
  const status = await api(p.url, "GET", `/api/bot/tokens/${token.id}/status`, { cookie });
  if (status.status !== "running") throw new Error(`bot is ${status.status} after the run`);
  return {
    connections: CONNECTIONS,
    seconds: SECONDS,
    intake: brief(intake),
    direct: brief(direct),
    rpsVsDirect: ratio(intake.rps, direct.rps),
    p50VsDirect: ratio(intake.p50Ms, direct.p50Ms),
    p99VsDirect: ratio(intake.p99Ms, direct.p99Ms),
  };
});
