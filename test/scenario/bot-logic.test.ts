// Executes a generated bot backed by a platform database: input nodes and collectUserInput
// (validation, retry, media, reply button wins, inline answers), conditions with every operator,
// set_variable modes, delay, adminOnly, conditional messages, bot_users / bot_state, and
// variables surviving a restart. No token flags: unmatched messages get no answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { logicScenario as scenario } from "./fixtures";
import { Chat, eventually, inlineRows, removeDir, replyRows, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";


let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;
const ADMIN_ID = 4_000_001;

async function start() {
  return startBot(fake, scenario, {
    dir: b?.dir,
    bot: b?.bot,
    generate: { userDatabaseEnabled: true },
    env: { ...dbEnv(pdb), ADMIN_IDS: `1, ${ADMIN_ID}` },
  });
}

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-logic-");
  pdb = createPlatformDb(dir);
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: true, enableLogging: !!process.env.DEBUG_BOT }, env: { ...dbEnv(pdb), ADMIN_IDS: `1, ${ADMIN_ID}` } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("input and variables", () => {
  test("set_variable modes, input node with validation and retry, condition on the answer", async () => {
    const chat = new Chat(b, { first_name: "Bob" });
    expect((await chat.say("/start"))[0].params.text).toBe("Hi Bob! Visit 1 (t1). Age?");
    expect((await chat.say("old"))[0].params.text).toBe("Digits please, Bob");
    expect((await chat.say("500"))[0].params.text).toBe("Digits please, Bob");
    expect((await chat.say("15"))[0].params.text).toBe("Teen (15)");
    await chat.say("/start");
    expect((await chat.say("42"))[0].params.text).toBe("Adult (42)");
    expect((await chat.say("/start"))[0].params.text).toBe("Hi Bob! Visit 3 (t1, t2, t3). Age?");
    expect((await chat.say("7"))[0].params.text).toBe("Kid (7)");
  });

  test("collectUserInput: a reply button pressed meanwhile wins; typed text is the answer", async () => {
    const chat = new Chat(b);
    const [ask] = await chat.say("/name");
    expect(replyRows(ask)).toEqual([["Skip"], ["Anonymous"]]);
    expect(ask.params.reply_markup.resize_keyboard).toBe(true);
    expect((await chat.say("Skip"))[0].params.text).toBe("Skipped ()"); // skipDataCollection
    await chat.say("/name");
    expect((await chat.say("Anonymous"))[0].params.text).toBe("Nice to meet you, Anonymous");
    await chat.say("/name");
    const [done] = await chat.say("Carol");
    expect(done.params.text).toBe("Nice to meet you, Carol");
    expect(done.params.reply_markup).toEqual({ remove_keyboard: true });
  });

  test("photo input stores the file id, retries on text, attachedMedia sends it back", async () => {
    const chat = new Chat(b);
    await chat.say("/pic");
    expect((await chat.say("no"))[0].params.text).toBe("A photo, please");
    const update = fake.sendPhoto(b.bot.token, chat.user);
    const [back] = await chat.replies();
    expect(back.method).toBe("sendPhoto");
    expect(back.params.caption).toBe("Your photo");
    expect(back.params.photo).toBe(update.message.photo.at(-1).file_id); // the largest size
  });

  test("inline answer to a collecting message: stored, answered, sent as a new message; hideAfterClick", async () => {
    const chat = new Chat(b);
    const [q] = await chat.say("/color");
    expect(inlineRows(q)).toEqual([["Red"], ["Blue"]]);
    expect((await chat.tap("Red"))[0].params.text).toBe("You picked Red");
    await chat.say("/color");
    const [hide, done] = await chat.tap("Blue", 2);
    expect(hide.method).toBe("editMessageReplyMarkup");
    expect(done.method).toBe("sendMessage");
    expect(done.params.text).toBe("You picked Blue");
  });

  test("inputType any takes media too (the file id)", async () => {
    const chat = new Chat(b);
    await chat.say("/any", 0);
    const update = fake.sendDocument(b.bot.token, chat.user, { fileName: "cv.pdf" });
    expect((await chat.replies())[0].params.text).toBe(`Got ${update.message.document.file_id}`);
    await chat.say("/any", 0);
    expect((await chat.say("plain words"))[0].params.text).toBe("Got plain words");
  });

  test("appendVariable collects a list", async () => {
    const chat = new Chat(b);
    await chat.say("/tags", 0);
    expect((await chat.say("one"))[0].params.text).toBe("Tags: one");
    await chat.say("/tags", 0);
    expect((await chat.say("two"))[0].params.text).toBe("Tags: one, two");
  });

  test("regex_extract: per assignment and legacy node-level pattern with default", async () => {
    const chat = new Chat(b);
    expect((await chat.say("order #42 x3"))[0].params.text).toBe("Order 42, qty 3");
    expect((await chat.say("order #7"))[0].params.text).toBe("Order 7, qty 1");
  });
});

describe("conditions", () => {
  const cases: [string, string][] = [
    ["cmp ", "empty"],
    ["cmp 500", "big"],
    ["cmp -3", "negative"],
    ["cmp 15", "between"],
    ["cmp 7", "not-five"],
    ["cmp 5", "five"],
    ["cmp abc", "not-five"], // not a number: numeric branches do not match
    ["txt alpha", "equals"],
    ["txt re-word", "matches"],
    ["txt call 555 now", "digits"], // contains with \d is a regular expression
    ["txt alphabeta", "contains"], // case-insensitive substring
    ["txt anything", "filled"],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${expected}`, async () => {
      const chat = new Chat(b);
      expect((await chat.say(input))[0].params.text).toBe(`= ${expected}`);
    });
  }
});

describe("flow control", () => {
  test("delay continues later without blocking other users", async () => {
    const a = new Chat(b);
    const other = new Chat(b);
    const [waiting] = await a.say("/wait");
    expect(waiting.params.text).toBe("Waiting");
    expect((await other.say("/name"))[0].params.text).toBe("Your name?");
    // The other user got their answer while the first one's delay was still running.
    expect(fake.sent(b.bot.token, a.user.id).map((c) => c.params.text)).not.toContain("Done waiting");
    const [done] = await a.replies(1, 4000);
    expect(done.params.text).toBe("Done waiting");
    expect(done.at - waiting.at).toBeGreaterThanOrEqual(950); // the messenger's clock: the bot waited
  });

  test("adminOnly answers only ADMIN_IDS", async () => {
    const admin = new Chat(b, { id: ADMIN_ID });
    expect((await admin.say("/admin"))[0].params.text).toBe("Secret for admins");
    const user = new Chat(b);
    await user.say("/admin", 0);
    await user.quiet();
  });

  test("without catchAllHandlers an unmatched message gets no answer", async () => {
    const chat = new Chat(b);
    await chat.say("something random", 0);
    await chat.quiet();
  });

  test("conditional messages: highest priority first; a blank text keeps the node's text", async () => {
    const chat = new Chat(b, { first_name: "Dan" });
    const [none] = await chat.say("/profile");
    expect(none.params.text).toBe("Profile of Dan");
    expect(replyRows(none)).toEqual([["Set name"]]);
    await chat.say("Set name");
    await chat.say("Dan the Man");
    const [named] = await chat.say("/profile");
    expect(named.params.text).toBe("Profile: Dan the Man");
    expect(inlineRows(named)).toEqual([["Edit"]]);
  });
});

test("conditional messages: user_data_equals and user_data_contains", async () => {
  const nicknamed = async (nick?: string) => {
    const chat = new Chat(b);
    if (nick) {
      await chat.say("/name");
      await chat.say(nick);
    }
    return (await chat.say("/vip"))[0].params.text;
  };
  expect(await nicknamed()).toBe("Regular");
  expect(await nicknamed("Boss")).toBe("Welcome, boss");
  expect(await nicknamed("SuperAdmin")).toBe("Hi admin");
  expect(await nicknamed("bossy")).toBe("Regular");
});

describe("database", () => {
  test("bot_users records users with counts and a mirror of their variables; bot_state keeps chats", async () => {
    const chat = new Chat(b, { first_name: "Eve", last_name: "Stone", username: "eve", language_code: "de" });
    await chat.say("/name");
    await chat.say("Evie");
    const row = await eventually(() => {
      const [r] = pdb.query<Record<string, any>>("SELECT * FROM bot_users WHERE user_id = ?", String(chat.user.id));
      expect(JSON.parse(r.variables)).toEqual({ nick: "Evie" });
      return r;
    });
    expect(row).toMatchObject({ token_id: pdb.tokenId, first_name: "Eve", last_name: "Stone", username: "eve", language_code: "de", interaction_count: 2 });
    expect(row.first_seen_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const [state] = pdb.query<{ variables: string; waiting: string | null }>("SELECT variables, waiting FROM bot_state WHERE token_id = ? AND chat_id = ?", pdb.tokenId, String(chat.user.id));
    expect(JSON.parse(state.variables)).toEqual({ nick: "Evie" });
  });

  test("variables and a pending question survive a restart", async () => {
    const chat = new Chat(b, { first_name: "Fay" });
    await chat.say("/start");
    await chat.say("30");
    await chat.say("/name"); // now waiting for the name
    expect(await b.stop()).toBe(0);
    b = await start();
    expect((await chat.say("Fay F."))[0].params.text).toBe("Nice to meet you, Fay F.");
    expect((await chat.say("/start"))[0].params.text).toBe("Hi Fay! Visit 2 (t1, t2). Age?");
  });
});
