// Shared runners (BOT_ISOLATION=runner) at the edges of a bot's life, with real processes on the
// fake messenger behind a proxy that can hold a bot's calls back: a bot stopped while it starts,
// a bot whose stop waits for the messenger, a bot that fails to start. In its own process each of
// these ends with the process; in a runner nothing of the bot may go on — no schedule, no send,
// no polling, no open project database — once the platform says it stopped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { startFakeMessenger, type FakeBot, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { loginAs, type TestApp } from "../support/app";
import { until } from "../support/process";
import { act as actOn, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

let p: RunnerPlatform;
let fake: FakeMessenger;
let t: TestApp;
let alice: string;
const user: FakeUser = { id: 6101, first_name: "Uma" };

/** How long the proxy holds a call back: by token and method (and the call's JSON body). */
let holdFor: (token: string, method: string, body: string) => number = () => 0;
/** Held calls answered so far: what a test waits for instead of sleeping past a hold. */
const heldAnswered: string[] = [];
let proxy: ReturnType<typeof Bun.serve>;

/** Forwards every call to the fake messenger, after holdFor's pause. */
function startProxy() {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0, // long polling holds requests open for up to 30 s
    async fetch(req) {
      const url = new URL(req.url);
      const [, botPart, method] = url.pathname.split("/");
      const body = req.method === "GET" ? undefined : await req.text();
      const ms = holdFor((botPart ?? "").replace(/^bot/, ""), method ?? "", body ?? "");
      if (ms > 0) await Bun.sleep(ms);
      const headers = new Headers(req.headers);
      headers.delete("host");
      headers.delete("content-length");
      const res = await fetch(fake.url + url.pathname + url.search, { method: req.method, headers, body });
      if (ms > 0) heldAnswered.push(method ?? "");
      return new Response(await res.arrayBuffer(), { status: res.status, headers: { "content-type": res.headers.get("content-type") ?? "application/json" } });
    },
  });
}

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const doc = (...nodes: unknown[]) => ({ version: 2, sheets: [{ id: "s", name: "Main", edges: [], nodes }] });

/** /start greets; a schedule says "tick" in the user's chat every second. */
const ticking = doc(
  at("start", "start", { command: "/start", messageText: "hello {first_name}" }),
  at("tick", "schedule_trigger", { rules: [{ mode: "interval", intervalSeconds: 1 }], timezone: "UTC", targetChatId: String(user.id), autoTransitionTo: "tick-text" }),
  at("tick-text", "message", { messageText: "tick" }),
);

/** /start greets; /bc sends "news" to every chat the bot has seen, 25 a second. */
const broadcasting = doc(
  at("start", "start", { command: "/start", messageText: "hello {first_name}" }),
  at("bc-cmd", "command_trigger", { command: "/bc", autoTransitionTo: "bc" }),
  at("bc", "broadcast", { broadcastTargetNode: "news" }),
  // a reply keyboard keeps this broadcast in the bot (docs/campaigns.md#the-broadcast-node): a
  // campaign the server sends does not end with the bot, which is what this file tests
  at("news", "message", { messageText: "news", keyboardType: "reply", buttons: [{ id: "again", text: "Again", action: "goto", target: "start" }] }),
);

const newBot = (name: string, data: unknown) => addBot(p, alice, name, { data });
const act = (b: TestBot, what: "start" | "stop" | "restart") => actOn(p, b, what);

async function logText(b: TestBot) {
  return JSON.stringify((await t.call("GET", `/api/projects/${b.projectId}/logs/all?limit=1000`, { cookie: alice })).body);
}

const sentTexts = (bot: FakeBot, text: string) => fake.sent(bot.token, user.id).filter((c) => c.params.text === text).length;

/** The project database files a process holds open. */
function openProjectFiles(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`)
      .map((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          return "";
        }
      })
      .filter((p) => p.includes("/projects/") && p.endsWith(".db"));
  } catch {
    return [];
  }
}

beforeAll(async () => {
  fake = await startFakeMessenger();
  proxy = startProxy();
  p = await startRunnerPlatform({ fake, env: { MESSENGER_API_ROOT: `http://127.0.0.1:${proxy.port}` }, policy: { stopGraceMs: 5000 } });
  t = p.t;
  alice = await loginAs(t, 401);
});

afterAll(async () => {
  holdFor = () => 0;
  await p.close();
  proxy.stop(true);
  await fake.stop();
});

describe("shared runners: a bot's end is the end of everything it runs", () => {
  test("a bot stopped while it starts leaves nothing behind: started again in the same runner, its log holds only its own run", async () => {
    const b = await newBot("EarlyStop", ticking);
    fake.sendText(b.bot.token, user, "/start"); // the chat exists for the schedule's ticks
    // getMe is held back, so the stop arrives while the bot is still checking its token.
    holdFor = (token, method) => (token === b.bot.token && method === "getMe" ? 1500 : 0);
    expect((await act(b, "start")).status).toBe(200);
    expect((await act(b, "stop")).body.status).toBe("stopped");
    await until(() => heldAnswered.includes("getMe"), "the held getMe answered");
    holdFor = () => 0;
    expect((await act(b, "start")).status).toBe(200);
    await until(() => sentTexts(b.bot, "tick") >= 3, "three ticks of the running bot", 15_000);
    const log = await logText(b);
    // What the stopped start went on to do shows in the running bot's log: its schedule ticking
    // on a closed database, its calls refused as those of a stopped bot.
    expect(log).not.toContain("Database has closed");
    expect(log).not.toContain("the bot was stopped");
    expect(log.split("schedules: tick").length - 1).toBe(1);
    expect((await act(b, "stop")).body.status).toBe("stopped");
  }, 60_000);

  test("a stop that waits for the messenger: nothing is sent once the stop has returned", async () => {
    const b = await newBot("SlowStop", broadcasting);
    expect((await act(b, "start")).status).toBe(200);
    await until(() => fake.calls(b.bot.token, "getUpdates").length > 0, "the bot to poll");
    // 150 chats for the broadcast: about 6 s of sending at 25 a second.
    const users = Array.from({ length: 150 }, (_, i) => ({ id: 8000 + i, first_name: "Reader" }));
    for (const u of users) fake.sendText(b.bot.token, u, "/start");
    await until(() => users.every((u) => fake.sent(b.bot.token, u.id).length > 0), "every reader greeted", 30_000);
    // grammY's stop confirms the update offset with one last getUpdates (no timeout): held 6 s.
    holdFor = (token, method, body) => (token === b.bot.token && method === "getUpdates" && !body.includes('"timeout"') ? 6000 : 0);
    fake.sendText(b.bot.token, users[0]!, "/bc");
    await until(() => fake.sent(b.bot.token).filter((c) => c.params.text === "news").length >= 10, "the broadcast under way", 15_000);
    expect((await act(b, "stop")).body.status).toBe("stopped");
    const atStop = fake.sent(b.bot.token).filter((c) => c.params.text === "news").length;
    await Bun.sleep(4000);
    holdFor = () => 0;
    const after = fake.sent(b.bot.token).filter((c) => c.params.text === "news").length;
    expect({ sentAfterStop: after - atStop, total: after }).toEqual({ sentAfterStop: 0, total: atStop });
    expect(atStop).toBeLessThan(users.length);
  }, 90_000);

  test("a webhook bot that cannot listen fails to start; its schedule never runs on, its project file is closed", async () => {
    const b = await newBot("NoPort", ticking);
    expect((await t.call("PATCH", `/api/bot/tokens/${b.tokenId}`, { cookie: alice, json: { launchMode: "webhook" } })).status).toBe(200);
    fake.sendText(b.bot.token, user, "/start");
    // Something else listens on the bot's port already.
    const squatter = Bun.listen({ hostname: "127.0.0.1", port: 9000 + b.tokenId, socket: { data() {} } });
    try {
      // The start is refused, or the bot crashes until the manager gives up.
      await act(b, "start");
      await until(() => t.ctx.bots.state(b.tokenId).status === "error", "the bot given up", 30_000);
      const runner = (t.ctx.bots as any).host.processes as number[];
      const ticks = sentTexts(b.bot, "tick");
      await Bun.sleep(3000);
      expect(sentTexts(b.bot, "tick")).toBe(ticks);
      expect(ticks).toBe(0);
      for (const pid of runner) expect(openProjectFiles(pid).filter((f) => f.endsWith(`/projects/${b.projectId}.db`))).toEqual([]);
      expect(await logText(b)).toContain("EADDRINUSE");
    } finally {
      squatter.stop(true);
    }
  }, 60_000);

  test("a polling bot whose token the messenger refuses at start gives up and leaves its project file closed", async () => {
    const b = await newBot("Refused", ticking);
    for (let i = 0; i < 3; i++) fake.failNext(b.bot.token, "getMe", { error_code: 401, description: "Unauthorized" });
    expect((await act(b, "start")).status).toBe(200);
    await until(() => t.ctx.bots.state(b.tokenId).status === "error", "the bot given up", 30_000);
    expect(await logText(b)).toContain("the messenger did not accept the token");
    const runner = (t.ctx.bots as any).host.processes as number[];
    expect(runner.length).toBeGreaterThan(0);
    for (const pid of runner) expect(openProjectFiles(pid).filter((f) => f.endsWith(`/projects/${b.projectId}.db`))).toEqual([]);
  }, 60_000);
});
