// Preview round trip: the user sends a message in the preview chat (POST /api/preview/{id}/actions)
// and the bot's reply shows in the transcript (long-polled GET …/transcript), over HTTP on loopback.
// Same-run baseline: the production path — the same scenario started as a real bot of a token by
// the platform's manager, polling the test suite's fake messenger, timed from the user's update to
// the bot's sendMessage arriving there.
import { startFakeMessenger } from "../test/support/fake-messenger";
import { api, arg, latency, onCleanup, ratio, runBench, startPlatform, until } from "./lib";

const MESSAGES = arg("messages", 200);
const WARMUP = 10;
const USER = { id: 9101, first_name: "Bench" };
const scenario = {
  sheets: [{ id: "s", name: "S", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "Hello, {first_name}!" } }], edges: [] }],
};

await runBench("preview", async () => {
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const p = await startPlatform({ env: { MESSENGER_API_ROOT: fake.url } });
  const cookie = await p.login(1);
  const project = await api(p.url, "POST", "/api/projects", { cookie, json: { name: "Bench", data: scenario } });

  // --- production: a token's bot through the manager, against the fake messenger ---
  const bot = fake.addBot({ username: "bench_bot" });
  const token = await api(p.url, "POST", `/api/bot/projects/${project.id}/tokens`, { cookie, json: { token: bot.token } });
  await api(p.url, "POST", `/api/bot/tokens/${token.id}/start`, { cookie });
  await until(() => fake.calls(bot.token, "getUpdates").length > 0, "the production bot polling", 15_000);
  const production: number[] = [];
  for (let i = 0; i < MESSAGES + WARMUP; i++) {
    const t0 = performance.now();
    fake.sendText(bot.token, USER, "/start");
    await fake.waitForSent(bot.token, USER.id, 1, 10_000);
    if (i >= WARMUP) production.push(performance.now() - t0);
  }
  await api(p.url, "POST", `/api/bot/tokens/${token.id}/stop`, { cookie });

  // --- preview: the same scenario in a preview session, through the public HTTP API ---
  const t0 = performance.now();
  const session = await api(p.url, "POST", `/api/projects/${project.id}/preview`, { cookie, json: {}, expect: 201 });
  const startMs = performance.now() - t0;
  const preview: number[] = [];
  for (let i = 0; i < MESSAGES + WARMUP; i++) {
    const t1 = performance.now();
    const sent = await api(p.url, "POST", `/api/preview/${session.id}/actions`, { cookie, json: { type: "text", text: "/start" } });
    let version = sent.version;
    for (;;) {
      // as the chat does: long-poll for what changed after the version it has
      const t = await api(p.url, "GET", `/api/preview/${session.id}/transcript?after=${version}&wait=10000&changes=1`, { cookie });
      version = t.version;
      if (t.entries.some((e: any) => e.from === "bot" && e.seq > sent.entry.seq)) break;
    }
    if (i >= WARMUP) preview.push(performance.now() - t1);
  }
  await api(p.url, "DELETE", `/api/preview/${session.id}`, { cookie });

  const prod = latency(production);
  const prev = latency(preview);
  return {
    messages: MESSAGES,
    previewStartMs: Math.round(startMs),
    preview: prev,
    production: prod,
    p50VsProduction: ratio(prev.p50Ms, prod.p50Ms),
  };
});
