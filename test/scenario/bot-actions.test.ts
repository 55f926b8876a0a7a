// Executes a generated bot: the messaging action nodes (sticker, voice, animation, location,
// contact, media albums, edit_message, answer_callback_query, delete_message in every mode,
// forward_message) against the fake messenger, and bad data that fails one action only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { actionsScenario as scenario } from "./fixtures-messaging";
import { Chat, eventually, inlineRows, removeDir, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
const ADMIN_ID = 4_100_001;

beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario, { env: { ADMIN_IDS: String(ADMIN_ID) }, generate: { enableLogging: !!process.env.DEBUG_BOT } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

const calls = (method: string) => fake.calls(b.bot.token, method).filter((c) => !c.error);

describe("sending", () => {
  test("sticker, voice with caption, animation then the next node", async () => {
    const chat = new Chat(b, { first_name: "Ann" });
    const [sticker] = await chat.say("/sticker");
    expect(sticker.method).toBe("sendSticker");
    expect(sticker.params.sticker).toBe("CAACAgIAAxkBAAIBsticker");
    const [voice] = await chat.say("/voice");
    expect(voice.method).toBe("sendVoice");
    expect(voice.params).toMatchObject({ voice: "https://example.com/hello.ogg", caption: "Hi Ann" });
    const [gif, after] = await chat.say("/gif", 2);
    expect(gif.method).toBe("sendAnimation");
    expect(after.params.text).toBe("after gif");
  });

  test("location: a venue with title and address, a plain point from numeric strings; contact", async () => {
    const chat = new Chat(b);
    const [venue] = await chat.say("/where");
    expect(venue.method).toBe("sendVenue");
    expect(venue.params).toMatchObject({ latitude: 55.75, longitude: 37.61, title: "Red Square", address: "Moscow" });
    const [point] = await chat.say("/point");
    expect(point.method).toBe("sendLocation");
    expect(point.params).toMatchObject({ latitude: 59.93, longitude: 30.31 });
    const [card] = await chat.say("/card");
    expect(card.method).toBe("sendContact");
    expect(card.params).toMatchObject({ phone_number: "+7 900 000-00-00", first_name: "Shop", last_name: "Desk" });
  });

  test("media: attachedMedia goes as one album, then the text", async () => {
    const chat = new Chat(b);
    const [album, text] = await chat.say("/album", 2);
    expect(album.method).toBe("sendMediaGroup");
    expect(album.params.media.map((m: { media: string }) => m.media)).toEqual(["https://example.com/1.jpg", "https://example.com/2.jpg", "https://example.com/3.jpg"]);
    expect(text.params.text).toBe("Three photos");
  });
});

describe("editing and answering presses", () => {
  test("edit_message changes the text and keyboard of the message holding the pressed button", async () => {
    const chat = new Chat(b);
    const [menu] = await chat.say("/menu");
    const [edit] = await chat.tap("Edit me");
    expect(edit.method).toBe("editMessageText");
    expect(edit.params.message_id).toBe(menu.messageId);
    expect(edit.params.text).toBe("Edited after Edit me");
    expect(inlineRows(edit)).toEqual([["Back"]]);
    // a button of the edited keyboard works
    expect((await chat.tap("Back"))[0].params.text).toBe("Menu");
  });

  test("edit_message removes the keyboard only", async () => {
    const chat = new Chat(b);
    await chat.say("/menu");
    const [strip] = await chat.tap("Strip");
    expect(strip.method).toBe("editMessageReplyMarkup");
    expect(strip.params.reply_markup).toEqual({ inline_keyboard: [] });
  });

  test("edit_message rewrites a message by the id saveMessageIdTo stored; a second identical edit is not an error", async () => {
    const chat = new Chat(b);
    const [menu] = await chat.say("/menu");
    await chat.say("/sticker"); // the bot's latest message is now another one
    const [edit] = await chat.say("/editstored");
    expect(edit.method).toBe("editMessageText");
    expect(edit.params).toMatchObject({ message_id: menu.messageId, text: "Rewritten" });
    const before = fake.calls(b.bot.token, "editMessageText").length;
    await chat.say("/editstored", 0);
    const again = await fake.waitForCall(b.bot.token, (c) => c.method === "editMessageText" && fake.calls(b.bot.token, "editMessageText").indexOf(c) >= before);
    expect(again.error).toMatch(/message is not modified/);
    await chat.quiet(200);
    expect(b.output()).not.toMatch(/node a-edit-stored \(edit\) failed/);
  });

  test("answer_callback_query answers the press itself (text, alert) exactly once", async () => {
    const chat = new Chat(b, { first_name: "Eve" });
    await chat.say("/menu");
    const before = calls("answerCallbackQuery").length;
    expect((await chat.tap("Alert"))[0].params.text).toBe("after alert");
    const answers = await eventually(() => {
      const list = fake.calls(b.bot.token, "answerCallbackQuery").slice(before);
      expect(list.length).toBe(1);
      return list;
    });
    expect(answers[0].error).toBeUndefined();
    expect(answers[0].params).toMatchObject({ text: "Careful, Eve!", show_alert: true });
  });
});

describe("delete_message", () => {
  test("the triggering message, then the bot's last message", async () => {
    const chat = new Chat(b);
    const [del, deleted] = await chat.say("/del", 2);
    expect(del.method).toBe("deleteMessage");
    expect(del.params.message_id).toBe(1); // the user's /del
    expect(deleted.params.text).toBe("deleted");
    const [last] = await chat.say("/dellast");
    expect(last.method).toBe("deleteMessage");
    expect(last.params.message_id).toBe(deleted.messageId);
  });

  test("last N (from a variable), a stored id, and bulk lists in batches of 100", async () => {
    const chat = new Chat(b);
    await chat.say("/sticker"); // ids 1 (user) and 2 (bot)
    const [one] = await chat.say("/delone"); // id 3
    expect(one.params).toMatchObject({ message_id: 1 });
    const [purge] = await chat.say("/purge"); // id 4, and the 3 before it
    expect(purge.method).toBe("deleteMessages");
    expect(purge.params.message_ids).toEqual([4, 3, 2, 1]);
    const [first, second] = await chat.say("/bulk", 2);
    expect(first.params.message_ids.length).toBe(100);
    expect(second.params.message_ids.length).toBe(50);
    expect(second.params.message_ids.at(-1)).toBe(150);
  });

  test("bad data (an empty chat id) logs one line for this user and the flow goes on", async () => {
    const chat = new Chat(b);
    expect((await chat.say("/badchat"))[0].params.text).toBe("still here");
    await b.waitForOutput(/chat \d+: node a-badchat \(delete\) failed: the chat id "\{nothing\}" is empty/, 3000);
    const other = new Chat(b);
    expect((await other.say("/gif", 2))[1].params.text).toBe("after gif");
  });
});

describe("forward_message", () => {
  test("to several recipients (a chat id and every admin), or copied without the author", async () => {
    const chat = new Chat(b);
    fake.sendText(b.bot.token, chat.user, "/fwd");
    const fwd = await eventually(() => {
      const list = calls("forwardMessage").filter((c) => c.params.from_chat_id === chat.user.id);
      expect(list.length).toBe(2);
      return list;
    });
    expect(fwd.map((c) => c.params.chat_id).sort()).toEqual([777001, ADMIN_ID].sort());
    expect(fwd[0].params.message_id).toBe(1);
    fake.sendText(b.bot.token, chat.user, "/copy");
    const copy = await fake.waitForCall(b.bot.token, (c) => c.method === "copyMessage" && c.params.from_chat_id === chat.user.id);
    expect(copy.params).toMatchObject({ chat_id: 777002, message_id: 2 });
  });
});
