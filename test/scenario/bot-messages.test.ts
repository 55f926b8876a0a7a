// Executes a generated bot (one process for the whole file): commands and menu, text triggers,
// message formats, keyboards (own, keyboard nodes, layouts), inline presses, media, auto
// transitions, variables, and the token flags catchAllHandlers + protectContent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { showcaseScenario as scenario } from "./fixtures";
import { brief, Chat, inlineData, inlineRows, removeDir, replyRows, startBot, tmpDir, type BotProcess } from "./harness";


let fake: FakeMessenger;
let b: BotProcess;

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-messages-");
  // A bot run on its own reads local media from ./media (the platform sets MEDIA_DIR to the project's folder).
  mkdirSync(join(dir, "media"));
  writeFileSync(join(dir, "media", "hello.txt"), "hello from the media folder\n");
  b = await startBot(fake, scenario, {
    dir,
    generate: {
      flags: { catchAllHandlers: true, protectContent: true },
      mediaCache: { "https://example.com/cached.jpg": "CACHED_FILE_ID" },
    },
  });
});

afterAll(async () => {
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("commands", () => {
  test("the menu is registered with setMyCommands; an empty description falls back to the name", async () => {
    const call = await fake.waitForCall(b.bot.token, (c) => c.method === "setMyCommands");
    expect(call.params.commands).toEqual([
      { command: "start", description: "Begin" },
      { command: "help", description: "help" },
    ]);
  });

  test("/start runs the command trigger once; html, variables, inline layout", async () => {
    const chat = new Chat(b, { first_name: "Ann & Co", username: "ann" });
    const [m] = await chat.say("/start");
    expect(m.method).toBe("sendMessage");
    expect(m.params.text).toBe(`<b>Hello</b>, Ann &amp; Co! Id ${chat.user.id}, Ann &amp; Co. Unknown: []`);
    expect(m.params.parse_mode).toBe("HTML");
    expect(m.params.protect_content).toBe(true);
    expect(inlineRows(m)).toEqual([["Next", "Help"], ["Site"]]);
    expect(m.params.reply_markup.inline_keyboard[1][0].url).toBe("https://example.com/");
    for (const data of [inlineData(m, "Next")!, inlineData(m, "Help")!]) {
      expect(Buffer.byteLength(data)).toBeLessThan(64);
    }
    await chat.quiet(); // no LEGACY START
  });

  test("a legacy command node answers with its own message; legacy markdown flag", async () => {
    const chat = new Chat(b);
    const [m] = await chat.say("/help");
    expect(brief(m)).toEqual({ method: "sendMessage", text: "_Help_ text", parse_mode: "Markdown" });
    expect((await chat.say("ПОМОЩЬ"))[0].params.text).toBe("_Help_ text"); // legacy synonyms
    const [hidden] = await chat.say("/hidden@" + b.bot.username);
    expect(hidden.params.text).toBe("Not in the menu");
  });
});

describe("buttons", () => {
  test("inline goto: answered, next node as a new message with a keyboard node's reply keyboard", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    const [m] = await chat.tap("Next");
    const answers = fake.calls(b.bot.token, "answerCallbackQuery");
    expect(answers.length).toBeGreaterThan(0);
    expect(m.method).toBe("sendMessage");
    expect(m.params.parse_mode).toBe("Markdown");
    expect(m.params.text).toMatch(/^\*Second\* step after Next \(g:\d+:0:0\): https:\/\/example\.com$/);
    expect(m.params.link_preview_options).toEqual({ is_disabled: true });
    expect(replyRows(m)).toEqual([["Photo", "Album"], ["Share phone"]]);
    expect(m.params.reply_markup.one_time_keyboard).toBe(true);
    expect(m.params.reply_markup.resize_keyboard).toBeUndefined();
    expect(m.params.reply_markup.keyboard[1][0].request_contact).toBe(true);
  });

  test("inline command button runs the command", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    const [m] = await chat.tap("Help");
    expect(m.params.text).toBe("_Help_ text");
  });

  test("reply buttons: photo node by URL, album, shared contact", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    await chat.tap("Next");
    const [photo] = await chat.say("Photo");
    expect(photo.method).toBe("sendPhoto");
    expect(photo.params.photo).toBe("https://example.com/cat.jpg");
    expect(photo.params.caption).toBe("A cat");
    const album = await chat.say("Album", 2);
    expect(album.map((c) => c.method)).toEqual(["sendMediaGroup", "sendMessage"]);
    expect(album[0].params.media.map((x: { type: string; media: string }) => [x.type, x.media])).toEqual([
      ["photo", "https://example.com/a.png"],
      ["photo", "https://example.com/b.png"],
    ]);
    expect(album.at(-1)!.params.text).toBe("Two pictures");
    fake.sendContact(b.bot.token, chat.user, "+100200300");
    const [thanks] = await chat.replies();
    expect(thanks.params.text).toBe("Thanks");
  });
});

describe("triggers and flow", () => {
  test("text trigger: exact match is case-insensitive, not a substring", async () => {
    const chat = new Chat(b);
    expect((await chat.say("привет"))[0].params.text).toBe("Trigger: привет");
    expect((await chat.say("HI"))[0].params.text).toBe("Trigger: HI");
    expect((await chat.say("Hi there"))[0].params.text).toStartWith("Sorry"); // the catch-all answers
  });

  test("text trigger: contains; variables are escaped for html", async () => {
    const chat = new Chat(b);
    const [m] = await chat.say("What is the PRICE <now>?");
    expect(m.params.text).toBe("Prices for <i>What is the PRICE &lt;now&gt;?</i>");
    expect(m.params.parse_mode).toBe("HTML");
  });

  test("media nodes and captions, cached file ids, auto transitions", async () => {
    const chat = new Chat(b);
    const sent = await chat.say("media", 6);
    expect(sent.map((c) => [c.method, c.params.caption ?? c.params.text])).toEqual([
      ["sendVideo", "Clip"],
      ["sendAudio", undefined],
      ["sendDocument", "Terms"],
      ["sendPhoto", "Caption from text"],
      ["sendPhoto", "Own caption"],
      ["sendMessage", "Then the text"],
    ]);
    expect(sent[0].params.video).toBe("https://example.com/clip.mp4");
    expect(sent[1].params.audio).toBe("https://example.com/song.mp3");
    expect(sent[2].params.document).toBe("https://example.com/terms.pdf");
    expect(sent[4].params.photo).toBe("CACHED_FILE_ID");
  });

  test("markup the messenger cannot parse is sent again as plain text", async () => {
    const chat = new Chat(b);
    const [m] = await chat.say("broken");
    expect(brief(m)).toEqual({ method: "sendMessage", text: "Broken <b>bold", parse_mode: undefined });
    expect(fake.calls(b.bot.token, "sendMessage").some((c) => c.error?.includes("can't parse entities"))).toBe(true);
  });

  test("a relative media path inside the media folder is uploaded", async () => {
    const chat = new Chat(b);
    const [m] = await chat.say("local file");
    expect(m.method).toBe("sendDocument");
    expect(m.params.document).toMatchObject({ fileName: "hello.txt" });
    expect(m.params.caption).toBe("From disk");
  });

  test("auto transition only when enabled", async () => {
    const chat = new Chat(b);
    const sent = await chat.say("chain", 2);
    expect(sent.map((c) => c.params.text)).toEqual(["One", "Two"]);
    await chat.quiet();
  });

  test("dotted paths read into stored JSON", async () => {
    const chat = new Chat(b);
    const [m] = await chat.say("vars");
    expect(m.params.text).toMatch(/^3 projects, first A, all 2; \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
  });

  test("catchAllHandlers: a polite fallback for what matches nothing", async () => {
    const chat = new Chat(b, { language_code: "ru" });
    const [m] = await chat.say("qwerty");
    expect(m.params.text).toBe("Извините, я не понял это сообщение. Отправьте /start, чтобы начать сначала.");
    const en = new Chat(b, { language_code: "en" });
    expect((await en.say("/unknown"))[0].params.text).toBe("Sorry, I did not understand that. Send /start to begin again.");
  });

  test("every send carries protect_content", () => {
    const sends = fake.sent(b.bot.token).filter((c) => c.method.startsWith("send"));
    expect(sends.length).toBeGreaterThan(10);
    for (const c of sends) expect(c.params.protect_content).toBe(true);
  });
});
