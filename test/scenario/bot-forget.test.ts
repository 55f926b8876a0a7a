// The platform's forget command (DELETE …/users/{id}, docs/dialogs.md "People"): a real bot process
// whose turn is still running when the user is deleted saves its state first, and forget removes
// it after, in the chat's queue; a delay pending in the chat is dropped and never fires.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, eventually, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
let dir: string;
let db: Database;
let slow: ReturnType<typeof Bun.serve>;
/** the held request of /slow: arrived, and released by the test */
let arrived = Promise.withResolvers<void>();
let release = Promise.withResolvers<void>();
/** the held request of /bg's background branch */
const heldArrived = Promise.withResolvers<void>();
const heldRelease = Promise.withResolvers<void>();

const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });

beforeAll(async () => {
  slow = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (new URL(req.url).pathname === "/held") {
        heldArrived.resolve();
        await heldRelease.promise;
        return Response.json({ ok: true });
      }
      arrived.resolve();
      await release.promise;
      return Response.json({ ok: true });
    },
  });
  fake = await startFakeMessenger();
  dir = tmpDir("forget-");
  const scenario = doc(
    cmd("start", "hello"),
    node("hello", "message", { messageText: "Hi {start_param}/{referrer_id}" }),
    cmd("slow", "fetch"),
    node("fetch", "http_request", { httpRequestUrl: `http://127.0.0.1:${slow.port}/slow`, httpRequestMethod: "GET", httpRequestStatusVariable: "st", httpRequestTimeout: 20, autoTransitionTo: "fetched" }),
    node("fetched", "message", { messageText: "fetched {st}" }),
    cmd("later", "pause"),
    node("pause", "delay", { delaySeconds: 2, autoTransitionTo: "ring" }),
    node("ring", "message", { messageText: "ring" }),
    // parallel_split without awaitAll: its branch goes on after the update ended
    cmd("bg", "split"),
    node("split", "parallel_split", { awaitAll: false, parallelBranches: [{ id: "b1", label: "fetch", target: "bg-fetch" }], autoTransitionTo: "bg-started" }),
    node("bg-started", "message", { messageText: "started" }),
    node("bg-fetch", "http_request", { httpRequestUrl: `http://127.0.0.1:${slow.port}/held`, httpRequestMethod: "GET", httpRequestStatusVariable: "bg_status", httpRequestTimeout: 20, autoTransitionTo: "bg-done" }),
    node("bg-done", "message", { messageText: "bg done {bg_status}" }),
    cmd("ping", "pong"),
    node("pong", "message", { messageText: "pong" }),
  );
  // the egress policy refuses loopback unless the operator allows it (docs/security.md)
  const env = { DATABASE_PATH: join(dir, "project.db"), TOKEN_ID: "9", BOTLOOM_SUPERVISED: "1", BOTLOOM_EGRESS_ALLOW: "127.0.0.1" };
  b = await startBot(fake, scenario, { dir, env, stdin: "pipe" });
  db = new Database(join(dir, "project.db"));
  db.exec("PRAGMA busy_timeout = 5000");
});

afterAll(async () => {
  release.resolve();
  heldRelease.resolve();
  db?.close();
  await b?.stop();
  await fake?.stop();
  slow?.stop(true);
  removeDir(dir);
});

const tell = (command: object) => {
  const stdin = b.proc.stdin as import("bun").FileSink;
  stdin.write(JSON.stringify(command) + "\n");
  stdin.flush();
};
/** What the platform's DELETE removes of a user (bot-users/queries.ts deletePerson, the rows a bot writes). */
const deleteOnPlatform = (userId: number) => {
  for (const [table, column] of [["bot_state", "chat_id"], ["bot_waits", "chat_id"], ["bot_users", "user_id"], ["bot_people", "user_id"]]) {
    db.query(`DELETE FROM ${table} WHERE ${column} = ?`).run(String(userId));
  }
};
const stateOf = (chatId: number) => db.query("SELECT variables FROM bot_state WHERE chat_id = ?").get(String(chatId)) as { variables: string } | null;

test("a turn still running when its user is deleted saves its state first; forget removes it after", async () => {
  const chat = new Chat(b);
  expect((await chat.say("/start ref_7"))[0]!.params.text).toBe("Hi ref_7/7");
  await eventually(() => expect(stateOf(chat.user.id)?.variables).toContain("ref_7"));
  // /slow holds its turn open at the http request
  fake.sendText(b.bot.token, chat.user, "/slow");
  await arrived.promise;
  deleteOnPlatform(chat.user.id);
  tell({ op: "forget", chatId: String(chat.user.id) });
  // the turn ends and saves the state it held: forget, queued behind it, removes it again
  release.resolve();
  expect((await chat.replies(1))[0]!.params.text).toBe("fetched 200");
  await b.waitForOutput(new RegExp(`chat ${chat.user.id}: its user was deleted on the platform; forgotten`));
  expect(stateOf(chat.user.id)).toBeNull();
  expect((await chat.say("/start"))[0]!.params.text).not.toContain("7");
}, 30_000);

test("a delay pending in a forgotten chat never fires", async () => {
  const chat = new Chat(b);
  await chat.say("/later", 0);
  await eventually(() => expect((db.query("SELECT count(*) AS n FROM bot_waits WHERE chat_id = ?").get(String(chat.user.id)) as { n: number }).n).toBe(1));
  tell({ op: "forget", chatId: String(chat.user.id) });
  await b.waitForOutput(new RegExp(`chat ${chat.user.id}: its user was deleted on the platform; forgotten`));
  expect((db.query("SELECT count(*) AS n FROM bot_waits WHERE chat_id = ?").get(String(chat.user.id)) as { n: number }).n).toBe(0);
  // the delay was 2 s: a ring would come within 4 s
  await chat.quiet(4000);
}, 30_000);

test("a parallel_split branch still running in the background when its user is forgotten does not write the chat's state back", async () => {
  const chat = new Chat(b);
  expect((await chat.say("/bg"))[0]!.params.text).toBe("started");
  await heldArrived.promise;
  await eventually(() => expect(stateOf(chat.user.id)).not.toBeNull());
  deleteOnPlatform(chat.user.id);
  tell({ op: "forget", chatId: String(chat.user.id) });
  await b.waitForOutput(new RegExp(`chat ${chat.user.id}: its user was deleted on the platform; forgotten`));
  expect(stateOf(chat.user.id)).toBeNull();
  heldRelease.resolve();
  expect((await chat.replies(1))[0]!.params.text).toBe("bg done 200");
  // the branch's end saves right after its last send; another chat's whole turn comes after that
  expect((await new Chat(b).say("/ping"))[0]!.params.text).toBe("pong");
  expect(stateOf(chat.user.id)).toBeNull();
}, 30_000);
