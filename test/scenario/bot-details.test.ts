// Executes a generated bot for the docs/scenario.md promises the other bot tests do not reach: the
// legacy start node, built-in variables, exact reply-button matching, complete / location /
// reply command buttons, buttons on a media node, a "" branch target, regular expressions with
// quantifiers, AND/OR conditional messages, video and document input, an input node behind a reply
// keyboard, photo input nodes, and userDatabaseEnabled = 0 with a database. No token flags.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { detailsScenario as scenario } from "./fixtures";
import { brief, Chat, eventually, inlineRows, removeDir, replyRows, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv, type PlatformDb } from "./platform-db";

let fake: FakeMessenger;
let b: BotProcess;
let pdb: PlatformDb;

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-details-");
  pdb = createPlatformDb(dir);
  b = await startBot(fake, scenario, { dir, generate: { userDatabaseEnabled: false }, env: dbEnv(pdb) });
});

afterAll(async () => {
  await b?.stop();
  pdb?.close();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("legacy start node, built-ins, reply buttons", () => {
  test("a start node without `command` answers /start; last_name, username, user_name; formatMode none", async () => {
    const chat = new Chat(b, { first_name: "", last_name: "Anderson", username: "neo" });
    const [m] = await chat.say("/start");
    expect(brief(m)).toEqual({ method: "sendMessage", text: "Start Anderson|neo|neo", parse_mode: undefined });
    expect(m.params.protect_content).toBeUndefined();
    expect(replyRows(m)).toEqual([["Go on"], ["Finish"], ["Where am I"], ["Help me"]]);
    expect(m.params.reply_markup.keyboard[2][0].request_location).toBe(true);
    const plain = new Chat(b, { first_name: "Ann" });
    expect((await plain.say("/start"))[0].params.text).toBe("Start ||Ann");
  });

  test("reply buttons match the text exactly; a pressed button of a collecting node stores its text", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    expect((await chat.say("go on"))[0].params.text).toBe("Typed go on"); // not the button: the typed answer
    await chat.say("/start");
    expect((await chat.say("Go on"))[0].params.text).toBe("Went on (Go on) via Go on");
    await chat.say("/start");
    expect((await chat.say("Finish"))[0].params.text).toBe("Finished (Finish)"); // action complete
    await chat.say("/start");
    expect((await chat.say("Help me"))[0].params.text).toBe("Help here"); // action command
  });

  test("a location button answers with latitude,longitude", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    fake.sendUserMessage(b.bot.token, chat.user, { location: { latitude: 55.75, longitude: 37.61 } });
    expect((await chat.replies())[0].params.text).toBe("At 55.75,37.61");
  });

  test("a media node carries its buttons", async () => {
    const chat = new Chat(b);
    const [m] = await chat.say("pic");
    expect(m.method).toBe("sendPhoto");
    expect(m.params.caption).toBe("Pic");
    expect(inlineRows(m)).toEqual([["More"]]);
  });

  test("no command asks for the menu: setMyCommands is not called", () => {
    expect(fake.calls(b.bot.token, "setMyCommands")).toEqual([]);
  });
});

describe("conditions", () => {
  const cases: [string, string | null][] = [
    ["cond stop", null], // a branch target of "" stops, although "else" would match
    ["cond 123", "three"],
    ["cond 5", "else"],
    ["cond 1234", "else"], // {3} is a quantifier, not a variable
    ["cond 12X", "two-x"], // contains with \d: a case-insensitive regular expression
    ["cond 1x", "else"],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${expected ?? "nothing"}`, async () => {
      const chat = new Chat(b);
      if (expected === null) {
        await chat.say(input, 0);
        await chat.quiet();
      } else {
        expect((await chat.say(input))[0].params.text).toBe(`= ${expected}`);
      }
    });
  }

  test("conditional messages over several variables: AND and OR", async () => {
    const chat = new Chat(b);
    expect((await chat.say("show"))[0].params.text).toBe("none");
    expect((await chat.say("set a"))[0].params.text).toBe("one of them");
    expect((await chat.say("set b"))[0].params.text).toBe("both");
    expect((await new Chat(b).say("set b"))[0].params.text).toBe("one of them");
  });
});

describe("input", () => {
  test("document and video input store file ids in their variables; text is not an answer there", async () => {
    const chat = new Chat(b);
    await chat.say("/files");
    await chat.say("hello", 0);
    await chat.quiet();
    const doc = fake.sendDocument(b.bot.token, chat.user, { fileName: "cv.pdf" });
    const docId = doc.message.document.file_id;
    expect((await chat.replies())[0].params.text).toBe(`doc=${docId} clip=`);
    await chat.say("/files");
    const video = { file_id: "BAACvideo1", file_unique_id: "video1", width: 640, height: 360, duration: 3 };
    fake.sendUserMessage(b.bot.token, chat.user, { video });
    expect((await chat.replies())[0].params.text).toBe(`doc=${docId} clip=BAACvideo1`);
  });

  test("an input node waits silently; a reply button pressed meanwhile wins", async () => {
    const chat = new Chat(b);
    const [q] = await chat.say("/ask");
    expect(q.params.text).toBe("Question?");
    expect((await chat.say("Skip it"))[0].params.text).toBe("Skipped []");
    await chat.say("/ask");
    expect((await chat.say("hello"))[0].params.text).toBe("Answer hello");
  });

  test("an input node of type photo takes a photo, not text", async () => {
    const chat = new Chat(b);
    await chat.say("/snap", 0);
    await chat.say("words", 0);
    await chat.quiet();
    const update = fake.sendPhoto(b.bot.token, chat.user);
    expect((await chat.replies())[0].params.text).toBe(`Snap ${update.message.photo.at(-1).file_id}`);
  });
});

test("userDatabaseEnabled = 0: no bot_users rows, while chat state still persists", async () => {
  const chat = new Chat(b);
  await chat.say("/start");
  await chat.say("Go on");
  await eventually(() => {
    const [state] = pdb.query<{ variables: string }>("SELECT variables FROM bot_state WHERE chat_id = ?", String(chat.user.id));
    expect(JSON.parse(state.variables)).toEqual({ choice: "Go on" });
  });
  expect(pdb.query("SELECT * FROM bot_users")).toEqual([]);
});
