// Durable waits in a generated program on its own (docs/nodes/messaging.md, "Waiting"): with
// DATABASE_PATH a delay survives a kill -9 of the program and fires once when it runs again; 10,000
// waits due at the same second fire without silencing the bot for everyone else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

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

const pending = (dbPath: string) => {
  const d = new Database(dbPath, { readonly: true });
  try {
    return d.query<{ n: number }, []>("SELECT count(*) AS n FROM bot_waits").get()!.n;
  } finally {
    d.close();
  }
};

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
    await until(() => pending(dbPath) === 1, "the wait stored");
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
    expect(pending(dbPath)).toBe(0);
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
    expect(pending(dbPath)).toBe(0);
  }, 90_000);
});
