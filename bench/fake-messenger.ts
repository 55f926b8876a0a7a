// The measuring rig of bench/fleet.ts on its own: the fake messenger (in this process) with N bots
// long-polling it from --clients processes (N / clients each: one Bun process sends at most 256
// requests at once), each bot a minimal loop (getUpdates, then sendMessage for each message) instead
// of a platform bot. Shows that the fake is not what limits the fleet figures:
//  - time until every bot's first getUpdates reached the fake;
//  - CPU of this process (the fake) and of the clients while the N polls are held (no spinning);
//  - update → reply with --active chats each writing --rate times a second to its own bot (the same
//    load as fleet.ts), and back to back (the fake's ceiling in exchanges per second).
// Prints ONE JSON line.
//
//   bun bench/fake-messenger.ts [--bots 1000] [--clients 4] [--active 50] [--rate 4] [--seconds 5]
import { startFakeMessenger, type FakeBot } from "../test/support/fake-messenger";
import { BUN, arg, latency, onCleanup, round, runBench } from "./lib";
import { cpuMs } from "./proc";

if (process.argv[2] === "--client") {
  // client mode: bun bench/fake-messenger.ts --client <url> <tokens JSON>; ends when stdin closes
  const [url, tokens] = [process.argv[3], JSON.parse(process.argv[4]) as string[]];
  const post = async (token: string, method: string, params: unknown) =>
    (await (await fetch(`${url}/bot${token}/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) })).json()) as { result?: any[] };
  for (const token of tokens) {
    void (async () => {
      let offset = 0;
      for (;;) {
        const r = await post(token, "getUpdates", { offset, timeout: 30 }).catch(() => ({ result: [] }));
        for (const u of r.result ?? []) {
          offset = u.update_id + 1;
          if (u.message) await post(token, "sendMessage", { chat_id: u.message.chat.id, text: "hi" }).catch(() => {});
        }
      }
    })();
  }
  for await (const _ of Bun.stdin.stream());
  process.exit(0);
}

const N = arg("bots", 1000);
const CLIENTS = Math.max(1, arg("clients", 4));
const ACTIVE = Math.min(arg("active", 50), N);
const RATE = arg("rate", 4);
const SECONDS = arg("seconds", 5);

await runBench(
  "fake-messenger",
  async () => {
    const fake = await startFakeMessenger();
    onCleanup(() => fake.stop());
    const bots: FakeBot[] = Array.from({ length: N }, (_, i) => fake.addBot({ username: `rig${i}_bot` }));
    const polled = bots.map((b) => fake.waitForCall(b.token, (c) => c.method === "getUpdates", 60_000));
    const t0 = performance.now();
    const per = Math.ceil(N / CLIENTS);
    const clients = Array.from({ length: CLIENTS }, (_, i) => {
      const tokens = bots.slice(i * per, (i + 1) * per).map((b) => b.token);
      const proc = Bun.spawn([BUN, import.meta.path, "--client", fake.url, JSON.stringify(tokens)], { stdin: "pipe", stdout: "ignore", stderr: "inherit" });
      onCleanup(() => proc.kill("SIGKILL"));
      return proc;
    });
    await Promise.all(polled).catch((e: Error) => {
      throw new Error(`not every bot polled within 60 s: ${e.message.split("\n")[0]}`);
    });
    const allPollingMs = round(performance.now() - t0, 0);

    // idle: every poll held
    await Bun.sleep(1000);
    const clients0 = clients.map((c) => cpuMs(c.pid) ?? 0);
    const self0 = process.cpuUsage();
    const w0 = performance.now();
    await Bun.sleep(3000);
    const wall = performance.now() - w0;
    const self = process.cpuUsage(self0);
    const clientsMs = clients.reduce((s, c, i) => s + (cpuMs(c.pid) ?? clients0[i]) - clients0[i], 0);
    const idleCpu = { fakePct: round(((self.user + self.system) / 1000 / wall) * 100, 1), clientsPct: round((clientsMs / wall) * 100, 1) };

    const exchanges = async (rate: number, seconds: number) => {
      const samples: number[] = [];
      const periodMs = rate > 0 ? 1000 / rate : 0;
      const start = performance.now();
      const end = start + seconds * 1000;
      const step = Math.floor(N / ACTIVE);
      await Promise.all(
        Array.from({ length: ACTIVE }, async (_, i) => {
          const bot = bots[i * step];
          const user = { id: 800_000 + i, first_name: `Rig${i}` };
          await Bun.sleep(Math.random() * periodMs);
          for (let n = 0; performance.now() < end; n++) {
            const sentAt = performance.now();
            fake.sendText(bot.token, user, "/start");
            await fake.waitForSent(bot.token, user.id, 1, 10_000);
            if (n > 0) samples.push(performance.now() - sentAt);
            const pause = sentAt + periodMs - performance.now();
            if (pause > 0) await Bun.sleep(pause);
          }
        }),
      );
      return { ...latency(samples), perS: round((samples.length / (performance.now() - start)) * 1000, 0) };
    };
    const paced = await exchanges(RATE, SECONDS);
    const backToBack = await exchanges(0, SECONDS);
    for (const c of clients) c.stdin.end();

    return { bots: N, clientProcesses: CLIENTS, active: ACTIVE, allPollingMs, idleCpu, updateToReply: { perUserPerS: RATE, paced, backToBack } };
  },
  { timeoutMs: 5 * 60_000 },
);
