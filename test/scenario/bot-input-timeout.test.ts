// An input's timeout (the reference's inputTimeout; docs/nodes/messaging.md "Waiting"): no answer
// within N seconds → the question expires and the flow goes to inputTimeoutTarget; an answer in time
// cancels it, so does asking the question again; the timeout is a durable wait, so it fires once
// after the program is killed with SIGKILL and started again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const scenario = (seconds: number) =>
  doc(
    node("cmd-ask", "command_trigger", { command: "/ask", autoTransitionTo: "ask" }),
    node("ask", "input", { inputPrompt: "Your name?", inputVariable: "name", inputTargetNodeId: "thanks", inputTimeout: seconds, inputTimeoutTarget: "late" }),
    node("thanks", "message", { messageText: "Thanks, {name}" }),
    node("late", "message", { messageText: "Too late, {first_name}" }),
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

const texts = (calls: { params: Record<string, any> }[]) => calls.map((c) => c.params.text);

const pending = (dbPath: string) => {
  const d = new Database(dbPath, { readonly: true });
  try {
    return d.query<{ n: number }, []>("SELECT count(*) AS n FROM bot_waits").get()!.n;
  } finally {
    d.close();
  }
};

describe("input timeout", () => {
  test("no answer in time: the timeout exit; an answer in time or a new asking cancels the old timeout", async () => {
    const dir = tmpDir("scenario-input-timeout-");
    dirs.push(dir);
    const b = await startBot(fake, scenario(1), { dir, generate: { enableLogging: true }, env: { DATABASE_PATH: join(dir, "project.db") } });
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
    expect(b.output()).toContain("input ask: no answer in time; on to late");
  }, 30_000);

  test("the timeout survives a SIGKILL of the program and fires once after the restart", async () => {
    const dir = tmpDir("scenario-input-timeout-kill-");
    dirs.push(dir);
    const dbPath = join(dir, "project.db");
    const env = { DATABASE_PATH: dbPath };
    const first = await startBot(fake, scenario(2), { dir, env });
    bots.push(first);
    const cid = { id: 9_200_001, first_name: "Cid" };
    fake.sendText(first.bot.token, cid, "/ask");
    expect((await fake.waitForSent(first.bot.token, cid.id, 1, 10_000))[0]!.params.text).toBe("Your name?");
    await until(() => pending(dbPath) === 1, "the timeout stored");
    const due = Date.now() + 2000;
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    await until(() => Date.now() > due, "the timeout to fall due", 10_000);

    const second = await startBot(fake, scenario(2), { dir, env, bot: first.bot });
    bots.push(second);
    expect((await fake.waitForSent(first.bot.token, cid.id, 1, 10_000))[0]!.params.text).toBe("Too late, Cid");
    const dan = { id: 9_200_002, first_name: "Dan" };
    fake.sendText(first.bot.token, dan, "/ping");
    await fake.waitForSent(first.bot.token, dan.id, 1, 10_000);
    expect(fake.sent(first.bot.token, cid.id).map((c) => c.params.text)).toEqual(["Your name?", "Too late, Cid"]);
    expect(pending(dbPath)).toBe(0);
  }, 40_000);
});
