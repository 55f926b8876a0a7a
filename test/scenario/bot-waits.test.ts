// Durable waits in a generated program on its own (docs/nodes/messaging.md, "Waiting"): with
// DATABASE_PATH a delay survives a kill -9 of the program and fires once when it runs again; 10,000
// waits due at the same second fire without silencing the bot for everyone else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { inputTimeoutScenario } from "./fixtures-input-timeout";
import { Chat, doc, node, pendingWaits, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const scenario = doc(
  node("cmd-remind", "command_trigger", { command: "/remind", autoTransitionTo: "set" }),
  node("set", "message", { messageText: "Reminder set", enableAutoTransition: true, autoTransitionTo: "pause" }),
  node("pause", "delay", { delaySeconds: 2, autoTransitionTo: "ring" }),
  node("ring", "message", { messageText: "Reminder for {first_name}!" }),
  node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
  node("pong", "message", { messageText: "pong" }),
);

let fake: FakeMessenger;
const bots: BotProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeMessenger();
});

afterAll(async () => {
  for (const b of bots) await b.stop();
  await fake.stop();
  for (const d of dirs) removeDir(d);
});

describe("durable waits in a program on its own", () => {
  test("a delay running when the program is killed fires once after it starts again", async () => {
    const dir = tmpDir("scenario-waits-");
    dirs.push(dir);
    const dbPath = join(dir, "project.db");
    const env = { DATABASE_PATH: dbPath };
    const first = await startBot(fake, scenario, { dir, env });
    bots.push(first);
    const ann = { id: 9_100_001, first_name: "Ann" };
    fake.sendText(first.bot.token, ann, "/remind");
    expect((await fake.waitForSent(first.bot.token, ann.id, 1, 10_000))[0]!.params.text).toBe("Reminder set");
    await until(() => pendingWaits(dbPath) === 1, "the wait stored");
    await fake.waitForConfirmed(first.bot.token);
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    expect(fake.sent(first.bot.token, ann.id).length).toBe(1);

    const second = await startBot(fake, scenario, { dir, env, bot: first.bot });
    bots.push(second);
    const [ring] = await fake.waitForSent(first.bot.token, ann.id, 1, 10_000);
    expect(ring!.params.text).toBe("Reminder for Ann!"); // the user the wait began with, rebuilt
    const bob = { id: 9_100_002, first_name: "Bob" };
    fake.sendText(first.bot.token, bob, "/ping");
    await fake.waitForSent(first.bot.token, bob.id, 1, 10_000);
    expect(fake.sent(first.bot.token, ann.id).map((c) => c.params.text)).toEqual(["Reminder set", "Reminder for Ann!"]);
    expect(pendingWaits(dbPath)).toBe(0);
  }, 40_000);

  test("a wait taken when due but queued behind its chat's long turn is kept by a stop, and fires after the next start", async () => {
    const dir = tmpDir("scenario-waits-stop-");
    dirs.push(dir);
    const dbPath = join(dir, "project.db");
    // /slow holds the chat's queue past the stop's 2 s for turns to end: a request that is never answered
    const hanging = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    const slow = doc(
      ...scenario.sheets[0]!.nodes,
      node("cmd-slow", "command_trigger", { command: "/slow", autoTransitionTo: "call" }),
      node("call", "http_request", { httpRequestUrl: `http://127.0.0.1:${hanging.port}/never`, httpRequestTimeout: 60, httpRequestResponseVariable: "r", autoTransitionTo: "pong" }),
    );
    const env = { DATABASE_PATH: dbPath, BOTLOOM_EGRESS_ALLOW: "127.0.0.1" };
    try {
      const first = await startBot(fake, slow, { dir, env });
      bots.push(first);
      const ann = { id: 9_100_011, first_name: "Ann" };
      fake.sendText(first.bot.token, ann, "/remind");
      expect((await fake.waitForSent(first.bot.token, ann.id, 1, 10_000))[0]!.params.text).toBe("Reminder set");
      await until(() => pendingWaits(dbPath) === 1, "the wait stored");
      fake.sendText(first.bot.token, ann, "/slow");
      // due after 2 s: taken out of the file while /slow still holds Ann's chat
      await until(() => pendingWaits(dbPath) === 0, "the wait taken", 10_000);
      await fake.waitForConfirmed(first.bot.token);
      expect(await first.stop()).toBe(0);
      expect(first.output()).toContain("waits: 1 not started yet, kept for the next start");
      expect(fake.sent(first.bot.token, ann.id).map((c) => c.params.text)).toEqual(["Reminder set"]);
      expect(pendingWaits(dbPath)).toBe(1);

      const second = await startBot(fake, slow, { dir, env, bot: first.bot });
      bots.push(second);
      const [ring] = await fake.waitForSent(first.bot.token, ann.id, 1, 10_000);
      expect(ring!.params.text).toBe("Reminder for Ann!");
      await until(() => pendingWaits(dbPath) === 0, "the wait gone once it ran");
    } finally {
      hanging.stop(true);
    }
  }, 40_000);

  test("bad input: 10,000 waits due at the same second fire once each, and the bot answers others meanwhile", async () => {
    const dir = tmpDir("scenario-waits-many-");
    dirs.push(dir);
    const dbPath = join(dir, "project.db");
    const COUNT = 10_000;
    const d = new Database(dbPath, { create: true });
    for (const ddl of PROJECT_DB_DDL) d.exec(ddl);
    const due = Date.now();
    const add = d.prepare("INSERT INTO bot_waits (token_id, chat_id, node, due_at, turn) VALUES (0, ?, 'ring', ?, ?)");
    d.transaction(() => {
      for (let i = 0; i < COUNT; i++) {
        const id = 9_200_000 + i;
        add.run(String(id), due, JSON.stringify({ from: { id, is_bot: false, first_name: "U" + i } }));
      }
    })();
    d.close();
    const bot = fake.addBot({ username: "many_waits_bot" });
    const cid = { id: 9_300_001, first_name: "Cid" };
    const isRing = (c: { method: string; params: Record<string, any> }) => c.method === "sendMessage" && String(c.params.text).startsWith("Reminder for U");
    const b = await startBot(fake, scenario, { dir, bot, env: { DATABASE_PATH: dbPath } });
    bots.push(b);
    // Cid writes once the reminders are going out.
    await fake.waitForCall(bot.token, isRing, 30_000);
    fake.sendText(bot.token, cid, "/ping");
    await fake.waitForSent(bot.token, cid.id, 1, 30_000);
    const log = fake.calls(bot.token);
    const pongAt = log.findIndex((c) => c.method === "sendMessage" && c.params.text === "pong");
    const ringsBefore = log.slice(0, pongAt).filter(isRing).length;
    // The answer to Cid came while the reminders were still going out, not after all of them.
    expect(ringsBefore).toBeLessThan(COUNT / 5);
    await until(() => fake.calls(bot.token).filter(isRing).length >= COUNT || undefined, "every reminder", 60_000).catch((err) => {
      console.error(fake.calls(bot.token).filter(isRing).length, b.output().slice(-3000));
      throw err;
    });
    const chats = fake.calls(bot.token).filter(isRing).map((c) => String(c.params.chat_id));
    expect(chats.length).toBe(COUNT);
    expect(new Set(chats).size).toBe(COUNT);
    expect(pendingWaits(dbPath)).toBe(0);
  }, 90_000);
});

// An input's timeout (the reference's inputTimeout) is a durable wait too: no answer within N seconds →
// the question expires and the flow goes to inputTimeoutTarget; an answer in time cancels it, so does
// asking the question again; it fires once after the program is killed with SIGKILL and started again.
const scenarioOf = inputTimeoutScenario;
const texts = (calls: { params: Record<string, any> }[]) => calls.map((c) => c.params.text);

describe("input timeout", () => {
  test("no answer in time: the timeout exit; an answer in time or a new asking cancels the old timeout", async () => {
    const dir = tmpDir("scenario-input-timeout-");
    dirs.push(dir);
    const b = await startBot(fake, scenarioOf(1), { dir, generate: { enableLogging: true }, env: { DATABASE_PATH: join(dir, "project.db") } });
    bots.push(b);
    const chat = new Chat(b, { first_name: "Ann" });
    expect(texts(await chat.say("/ask"))).toEqual(["Your name?"]);
    expect(texts(await chat.replies(1, 5000))).toEqual(["Too late, Ann"]);
    // the question expired: the text is no answer to it now
    expect(texts(await chat.say("/ping"))).toEqual(["pong"]);

    // asked again and answered in time: no "Too late" follows (watched for a bounded window)
    expect(texts(await chat.say("/ask"))).toEqual(["Your name?"]);
    expect(texts(await chat.say("Zed"))).toEqual(["Thanks, Zed"]);
    // asked twice: only the newest asking may expire, once
    const other = new Chat(b, { first_name: "Bob" });
    expect(texts(await other.say("/ask"))).toEqual(["Your name?"]);
    expect(texts(await other.say("/ask"))).toEqual(["Your name?"]);
    expect(texts(await other.replies(1, 5000))).toEqual(["Too late, Bob"]);
    await chat.quiet(1500);
    await other.quiet(500);
    await b.waitForOutput("input ask: no answer in time; on to late");
  }, 30_000);

  test("an answered or asked-again question keeps no timeout: a user asking 30 times leaves one pending wait, an answer none", async () => {
    const dir = tmpDir("scenario-input-timeout-rows-");
    dirs.push(dir);
    const dbPath = join(dir, "project.db");
    const b = await startBot(fake, scenarioOf(3600), { dir, env: { DATABASE_PATH: dbPath } });
    bots.push(b);
    const chat = new Chat(b, { first_name: "Eve" });
    for (let i = 0; i < 30; i++) expect(texts(await chat.say("/ask"))).toEqual(["Your name?"]);
    // the newest asking's wait is stored just after its question is sent
    await until(() => pendingWaits(dbPath) >= 1, "the newest timeout stored");
    expect(pendingWaits(dbPath)).toBe(1);
    expect(texts(await chat.say("Eve"))).toEqual(["Thanks, Eve"]);
    expect(pendingWaits(dbPath)).toBe(0);
  }, 30_000);

  test("the timeout survives a SIGKILL of the program and fires once after the restart", async () => {
    const dir = tmpDir("scenario-input-timeout-kill-");
    dirs.push(dir);
    const dbPath = join(dir, "project.db");
    const env = { DATABASE_PATH: dbPath };
    const first = await startBot(fake, scenarioOf(2), { dir, env });
    bots.push(first);
    const cid = { id: 9_200_001, first_name: "Cid" };
    fake.sendText(first.bot.token, cid, "/ask");
    expect((await fake.waitForSent(first.bot.token, cid.id, 1, 10_000))[0]!.params.text).toBe("Your name?");
    await until(() => pendingWaits(dbPath) === 1, "the timeout stored");
    await fake.waitForConfirmed(first.bot.token);
    const due = Date.now() + 2000;
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    await until(() => Date.now() > due, "the timeout to fall due", 10_000);

    const second = await startBot(fake, scenarioOf(2), { dir, env, bot: first.bot });
    bots.push(second);
    expect((await fake.waitForSent(first.bot.token, cid.id, 1, 10_000))[0]!.params.text).toBe("Too late, Cid");
    const dan = { id: 9_200_002, first_name: "Dan" };
    fake.sendText(first.bot.token, dan, "/ping");
    await fake.waitForSent(first.bot.token, dan.id, 1, 10_000);
    expect(fake.sent(first.bot.token, cid.id).map((c) => c.params.text)).toEqual(["Your name?", "Too late, Cid"]);
    expect(pendingWaits(dbPath)).toBe(0);
  }, 40_000);
});
