// The message store of a generated bot (docs/dialogs.md): both sides of a conversation with the
// node that sent each bot message and its buttons, presses, the person's deep-link source and
// counts, a takeover that silences one chat only, resume through the stdin command channel,
// blocked users marked and cleared, retention 0 storing no message, the live-event line.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { CHAT_EVENT_MARK } from "../../src/bots/runner/protocol";
import { PROJECT_DB_DDL } from "../../src/db/project-schema";
import { readFileSync } from "node:fs";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, eventually, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const scenario = doc(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", { messageText: "Hi {start_param}/{referrer_id}", keyboardType: "inline", buttons: [{ id: "b1", text: "Go", action: "goto", target: "done" }] }),
  node("done", "message", { messageText: "Done" }),
  node("cmd-buy", "command_trigger", { command: "/buy", autoTransitionTo: "buy" }),
  node("buy", "invoice", { title: "Gold bar", description: "One bar of gold", amount: 5, payload: "gold" }),
  node("cmd-album", "command_trigger", { command: "/album", autoTransitionTo: "album" }),
  node("album", "message", { messageText: "Two pictures", attachedMedia: ["https://example.com/a.png", "https://example.com/b.png"] }),
);

type Row = Record<string, any>;

let fake: FakeMessenger;
let b: BotProcess;
let dir: string;
let db: Database;

const messages = (chatId: number): Row[] => db.query("SELECT * FROM bot_messages WHERE chat_id = ? ORDER BY id").all(String(chatId)) as Row[];
const person = (userId: number): Row | null => db.query("SELECT * FROM bot_people WHERE user_id = ?").get(String(userId)) as Row | null;

beforeAll(async () => {
  fake = await startFakeMessenger();
  dir = tmpDir("message-store-");
  const env = { DATABASE_PATH: join(dir, "project.db"), TOKEN_ID: "7", BOTLOOM_SUPERVISED: "1", BOTLOOM_EVENTS: "1" };
  b = await startBot(fake, scenario, { dir, env, stdin: "pipe" });
  db = new Database(join(dir, "project.db"));
  db.exec("PRAGMA busy_timeout = 5000");
});

afterAll(async () => {
  db?.close();
  await b?.stop();
  await fake?.stop();
  removeDir(dir);
});

describe("message store", () => {
  test("the runtime file and the platform agree on the live-event mark", () => {
    const source = readFileSync(join(import.meta.dir, "../../src/scenario/codegen/runtime/record.ts"), "utf8");
    const mark = /export const EVENT_MARK = (".*?");/.exec(source)?.[1];
    expect(JSON.parse(mark ?? "null")).toBe(CHAT_EVENT_MARK);
  });

  test("a user writes with a ref_42 deep link, presses a button, the bot answers: both sides recorded", async () => {
    const chat = new Chat(b, { first_name: "Eve", username: "eve", is_premium: true } as never);
    const [hi] = await chat.say("/start ref_42");
    expect(hi.params.text).toBe("Hi ref_42/42");
    const [done] = await chat.tap("Go");
    expect(done.params.text).toBe("Done");
    await chat.photo(0, "look at this");
    const rows = await eventually(() => {
      const r = messages(chat.user.id);
      expect(r.length).toBe(5);
      return r;
    });
    expect(rows.map((r) => [r.direction, r.sent_by, r.kind, r.text, r.node_id])).toEqual([
      ["in", "user", "text", "/start ref_42", null],
      ["out", "bot", "text", "Hi ref_42/42", "hello"],
      ["in", "user", "callback", "Go", null],
      ["out", "bot", "text", "Done", "done"],
      ["in", "user", "photo", "look at this", null],
    ]);
    expect(JSON.parse(rows[1].buttons)[0][0].text).toBe("Go");
    expect(rows[2].callback_data).toBe(JSON.parse(rows[1].buttons)[0][0].data);
    expect(rows[1].token_id).toBe(7);
    const p = person(chat.user.id)!;
    expect([p.source, p.referrer_id, p.is_premium, p.messages_in, p.messages_out, p.blocked]).toEqual(["ref_42", "42", 1, 3, 2, 0]);
    const c = db.query("SELECT * FROM bot_chats WHERE chat_id = ?").get(String(chat.user.id)) as Row;
    expect([c.kind, c.first_name, c.username, c.unread, c.last_message_text]).toEqual(["private", "Eve", "eve", 3, "look at this"]);
    // a second start with another parameter keeps the first source
    await chat.say("/start other");
    await eventually(() => expect(person(chat.user.id)!.messages_in).toBe(4));
    expect(person(chat.user.id)!.source).toBe("ref_42");
    await b.waitForOutput(new RegExp(CHAT_EVENT_MARK + "\\[\\[\"" + chat.user.id + "\","));
  });

  test("a private chat's @username is the user's as it is now: removed, it is gone from the chat's record too", async () => {
    const chat = new Chat(b, { first_name: "Boris", username: "boris" });
    const row = () => db.query("SELECT first_name, username FROM bot_chats WHERE chat_id = ?").get(String(chat.user.id)) as Row | null;
    await chat.say("/start");
    await eventually(() => expect(row()).toEqual({ first_name: "Boris", username: "boris" }));
    // the same person writes again without a username (and with another first name)
    await new Chat(b, { id: chat.user.id, first_name: "Borya" }).say("/start");
    await eventually(() => expect(row()).toEqual({ first_name: "Borya", username: null }));
  });

  test("takeover silences that chat only (still recorded, last seen updated); resume runs the node", async () => {
    const held = new Chat(b);
    const other = new Chat(b);
    await held.say("/start");
    const seenBefore = await eventually(() => person(held.user.id)!.last_seen_at as string);
    await eventually(() => expect(db.query("UPDATE bot_chats SET takeover = 1 WHERE chat_id = ?").run(String(held.user.id)).changes).toBe(1));
    await held.say("/start", 0);
    await other.say("/start");
    await held.quiet(300);
    await eventually(() => expect(messages(held.user.id).filter((m) => m.direction === "in").length).toBe(2));
    expect(person(held.user.id)!.last_seen_at >= seenBefore).toBe(true);
    db.query("UPDATE bot_chats SET takeover = 0 WHERE chat_id = ?").run(String(held.user.id));
    (b.proc.stdin as import("bun").FileSink).write(JSON.stringify({ op: "resume", chatId: String(held.user.id), nodeId: "done" }) + "\n");
    (b.proc.stdin as import("bun").FileSink).flush();
    const [resumed] = await held.replies(1);
    expect(resumed.params.text).toBe("Done");
  });

  test("a user deleted on the platform is forgotten by the running bot too (the forget command)", async () => {
    const kept = new Chat(b);
    const forgotten = new Chat(b);
    for (const c of [kept, forgotten]) expect((await c.say("/start ref_7"))[0]!.params.text).toBe("Hi ref_7/7");
    // the bot's records of them are written (in batches) before the platform deletes them
    for (const c of [kept, forgotten]) await eventually(() => expect(person(c.user.id)?.source).toBe("ref_7"));
    // the platform deletes both users' rows (DELETE …/users/{id}), and tells the bot of the second only
    for (const c of [kept, forgotten]) for (const table of ["bot_state", "bot_users", "bot_people"]) db.query(`DELETE FROM ${table} WHERE ${table === "bot_state" ? "chat_id" : "user_id"} = ?`).run(String(c.user.id));
    (b.proc.stdin as import("bun").FileSink).write(JSON.stringify({ op: "forget", chatId: String(forgotten.user.id) }) + "\n");
    (b.proc.stdin as import("bun").FileSink).flush();
    await b.waitForOutput(new RegExp(`chat ${forgotten.user.id}: its user was deleted on the platform; forgotten`));
    // without the command, what the process held comes back; with it, nothing does
    expect((await forgotten.say("/start"))[0]!.params.text).not.toContain("7");
    expect((await kept.say("/start"))[0]!.params.text).toContain("/7");
  });

  test("a blocked user is marked when a send fails, and cleared when they write again", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    fake.setBlocked(chat.user.id, true);
    fake.failNext(b.bot.token, "sendMessage", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
    await chat.say("/start", 0);
    await eventually(() => expect(person(chat.user.id)!.blocked).toBe(1));
    expect(person(chat.user.id)!.blocked_at).toBeString();
    fake.setBlocked(chat.user.id, false);
    await chat.say("/start");
    await eventually(() => expect(person(chat.user.id)!.blocked).toBe(0));
  });

  test("an invoice the bot sends is its message in the chat: stored with its title, counted out", async () => {
    const chat = new Chat(b);
    const [invoice] = await chat.say("/buy");
    expect(invoice.method).toBe("sendInvoice");
    const out = await eventually(() => {
      const r = messages(chat.user.id).filter((m) => m.direction === "out");
      expect(r.length).toBe(1);
      return r[0]!;
    });
    expect([out.kind, out.text, out.node_id, out.messenger_message_id]).toEqual(["invoice", "Gold bar", "buy", invoice.messageId]);
    await eventually(() => expect(person(chat.user.id)!.messages_out).toBe(1));
  });

  test("an album the bot sends is stored as its pictures, each a photo as a user's would be", async () => {
    const chat = new Chat(b);
    const sent = await chat.say("/album", 2);
    expect(sent.map((c) => c.method)).toEqual(["sendMediaGroup", "sendMessage"]);
    const out = await eventually(() => {
      const r = messages(chat.user.id).filter((m) => m.direction === "out");
      expect(r.length).toBe(3);
      return r;
    });
    // was "mediaGroup" twice: the Dialogs showed that word instead of the pictures
    expect(out.map((m) => [m.kind, m.node_id])).toEqual([["photo", "album"], ["photo", "album"], ["text", "album"]]);
  });

  test("a blocked user is marked on any send the messenger refuses with 403, an invoice too", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    fake.setBlocked(chat.user.id, true);
    fake.failNext(b.bot.token, "sendInvoice", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
    await chat.say("/buy", 0);
    await eventually(() => expect(person(chat.user.id)!.blocked).toBe(1));
  });

  test("my_chat_member: kicked marks the user blocked, member clears it", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    const member = (status: string) => ({
      my_chat_member: {
        chat: { id: chat.user.id, type: "private", first_name: "Ann" },
        from: { id: chat.user.id, is_bot: false, first_name: "Ann" },
        date: 0,
        old_chat_member: { status: status === "kicked" ? "member" : "kicked", user: { id: 1, is_bot: true, first_name: "bot" } },
        new_chat_member: { status, user: { id: 1, is_bot: true, first_name: "bot" }, ...(status === "kicked" ? { until_date: 0 } : {}) },
      },
    });
    fake.pushUpdate(b.bot.token, member("kicked"));
    await eventually(() => expect(person(chat.user.id)!.blocked).toBe(1));
    fake.pushUpdate(b.bot.token, member("member"));
    await eventually(() => expect(person(chat.user.id)!.blocked).toBe(0));
  });

  test("edits and deletions of the bot's messages are recorded", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    const out = await eventually(() => {
      const r = messages(chat.user.id).find((m) => m.direction === "out");
      expect(r).toBeDefined();
      return r!;
    });
    fake.sendUserMessage(b.bot.token, chat.user, { text: "typo" });
    await eventually(() => expect(messages(chat.user.id).some((m) => m.text === "typo")).toBe(true));
    const typo = messages(chat.user.id).find((m) => m.text === "typo")!;
    fake.pushUpdate(b.bot.token, { edited_message: { message_id: typo.messenger_message_id, date: 0, chat: { id: chat.user.id, type: "private", first_name: "Ann" }, from: { id: chat.user.id, is_bot: false, first_name: "Ann" }, text: "fixed" } });
    await eventually(() => {
      const r = messages(chat.user.id).find((m) => m.id === typo.id)!;
      expect([r.text, typeof r.edited_at]).toEqual(["fixed", "string"]);
    });
    expect(out.deleted_at).toBeNull();
  });
});

describe("retention", () => {
  test("messages older than messageRetentionDays are pruned by the bot with their details (newer ones stay)", { timeout: 20_000 }, async () => {
    const dirR = tmpDir("message-store-prune-");
    const path = join(dirR, "p.db");
    const seed = new Database(path, { create: true });
    for (const ddl of PROJECT_DB_DDL) seed.exec(ddl);
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 3_600_000).toISOString();
    const add = seed.query("INSERT INTO bot_messages (token_id, chat_id, direction, sent_by, kind, text, created_at) VALUES (?, '1', 'in', 'user', 'text', ?, ?)");
    const look = seed.query("INSERT INTO bot_message_details (id, token_id, format) SELECT id, token_id, 'html' FROM bot_messages");
    seed.transaction(() => {
      for (let i = 0; i < 2500; i++) add.run(9, `old ${i}`, old);
      add.run(9, "recent", recent);
      add.run(10, "another token's", old);
      look.run();
    })();
    seed.close();
    const bR = await startBot(fake, scenario, { dir: dirR, env: { DATABASE_PATH: path, TOKEN_ID: "9", BOTLOOM_MESSAGE_RETENTION_DAYS: "2" } });
    const d = new Database(path);
    try {
      await eventually(() => expect((d.query("SELECT count(*) AS n FROM bot_messages WHERE token_id = 9").get() as Row).n).toBe(1), 8000);
      expect((d.query("SELECT text FROM bot_messages WHERE token_id = 9").get() as Row).text).toBe("recent");
      expect((d.query("SELECT count(*) AS n FROM bot_messages WHERE token_id = 10").get() as Row).n).toBe(1);
      // the formatting of the pruned messages goes with them (2,500 over two chunks)
      await eventually(() => expect((d.query("SELECT count(*) AS n FROM bot_message_details WHERE token_id = 9").get() as Row).n).toBe(1), 8000);
      expect((d.query("SELECT count(*) AS n FROM bot_message_details WHERE token_id = 10").get() as Row).n).toBe(1);
    } finally {
      d.close();
      await bR.stop();
      removeDir(dirR);
    }
  });

  test("no message is stored, the person still is", async () => {
    const dir0 = tmpDir("message-store-0-");
    const b0 = await startBot(fake, scenario, { dir: dir0, env: { DATABASE_PATH: join(dir0, "p.db"), TOKEN_ID: "8", BOTLOOM_MESSAGE_RETENTION_DAYS: "0" } });
    try {
      const chat = new Chat(b0);
      await chat.say("/start");
      const d = new Database(join(dir0, "p.db"));
      try {
        await eventually(() => expect((d.query("SELECT messages_in FROM bot_people").get() as Row | null)?.messages_in).toBe(1));
        expect((d.query("SELECT count(*) AS n FROM bot_messages").get() as Row).n).toBe(0);
        expect((d.query("SELECT count(*) AS n FROM bot_chats").get() as Row).n).toBe(0);
      } finally {
        d.close();
      }
      expect(b0.output()).not.toContain(CHAT_EVENT_MARK);
    } finally {
      await b0.stop();
      removeDir(dir0);
    }
  });
});
