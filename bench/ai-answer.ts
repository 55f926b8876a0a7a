// The ai_answer node's own cost (docs/nodes/ai.md): a generated bot with the message store on
// answers `/ask` through a local fake LLM (test/support/fake-llm.ts) with 5 turns of memory read
// from its file. Measured: update → answer at the fake messenger, p50/p99, one user after another.
// Same-run baselines: `/ping` → a plain message through the same bot, and the fake LLM's own round
// trip (a direct POST), so what the node adds is the difference.
// `bun bench/ai-answer.ts [--asks 200]`
import { join } from "node:path";
import { doc, node, removeDir, startBot, tmpDir } from "../test/scenario/harness";
import { startFakeLlm } from "../test/support/fake-llm";
import { startFakeMessenger } from "../test/support/fake-messenger";
import { arg, latency, onCleanup, ratio, runBench } from "./lib";

const ASKS = arg("asks", 200);

await runBench("ai-answer", async () => {
  const llm = startFakeLlm();
  onCleanup(() => llm.stop());
  const fake = await startFakeMessenger();
  onCleanup(() => fake.stop());
  const dir = tmpDir("bench-ai-");
  onCleanup(() => removeDir(dir));
  const scenario = doc(
    node("cmd-ask", "command_trigger", { command: "/ask", autoTransitionTo: "ai" }),
    node("ai", "ai_answer", { aiBaseUrl: llm.url, aiModel: "echo", aiApiKeyEnv: "LLM_KEY", aiSystemPrompt: "Be brief, {first_name}.", aiMemoryTurns: 5 }),
    node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
    node("pong", "message", { messageText: "pong" }),
  );
  const b = await startBot(fake, scenario, {
    dir,
    env: { DATABASE_PATH: join(dir, "project.db"), BOTLOOM_ENV_KEYS: "LLM_KEY", BOTLOOM_SECRET_KEYS: "LLM_KEY", LLM_KEY: "sk-bench", BOTLOOM_EGRESS_ALLOW: `127.0.0.1:${llm.port}` },
  });
  onCleanup(() => b.stop());
  const roundTrip = async (userId: number, text: string) => {
    const t0 = performance.now();
    fake.sendText(b.bot.token, { id: userId, first_name: "U" }, text);
    await fake.waitForSent(b.bot.token, userId, 1, 30_000);
    return performance.now() - t0;
  };
  const ask: number[] = [];
  const ping: number[] = [];
  const direct: number[] = [];
  // each user asks several times, so the memory query reads real turns
  for (let i = 0; i < ASKS; i++) {
    const user = 20_000_000 + (i % 20);
    ping.push(await roundTrip(user, "/ping"));
    ask.push(await roundTrip(user, "/ask"));
    const t0 = performance.now();
    await (await fetch(llm.url + "/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "echo", messages: [{ role: "user", content: "hi" }] }) })).json();
    direct.push(performance.now() - t0);
  }
  const a = latency(ask);
  const p = latency(ping);
  const d = latency(direct);
  return {
    asks: ASKS,
    ai: { p50Ms: a.p50Ms, p99Ms: a.p99Ms },
    ping: { p50Ms: p.p50Ms, p99Ms: p.p99Ms },
    llmDirect: { p50Ms: d.p50Ms, p99Ms: d.p99Ms },
    p50VsPing: ratio(a.p50Ms, p.p50Ms),
    p99VsPing: ratio(a.p99Ms, p.p99Ms),
  };
});
