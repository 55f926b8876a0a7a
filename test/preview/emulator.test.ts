// The preview emulator on its own: Bot API calls over HTTP as a bot makes them, and what the
// preview chat's transcript makes of them (edits, deletions, pins, typing, notices, media groups),
// Telegram's error shapes, and the bounds.
import { expect, test } from "bun:test";
import { Upload } from "../../src/emulator/bot-api/params";
import type { EmulatorSession } from "../../src/emulator/session";
import { emulatorsOf } from "./support";
import { until } from "../support/process";

const USER = { id: 42, first_name: "Ann" };
const emulator = emulatorsOf({ token: "8100:preview-token", id: 8100, username: "pv_bot", firstName: "Pv" });

async function call(e: EmulatorSession, method: string, params: Record<string, unknown> = {}, token = e.bot.token) {
  const r = await fetch(`${e.url}/bot${token}/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
  return { status: r.status, body: (await r.json()) as any };
}

test("messages, edits, deletions, pins, typing and notices reach the transcript; the node is recorded and stripped", async () => {
  const e = emulator();
  e.text(USER, USER.id, "/start");
  const sent = await call(e, "sendMessage", { chat_id: USER.id, text: "<b>Hi</b> Ann", parse_mode: "HTML", botloom_node: "n1", reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: "g:1" }]] } });
  expect(sent.status).toBe(200);
  expect(sent.body.result.text).toBe("Hi Ann");
  expect(JSON.stringify(sent.body.result)).not.toContain("botloom_node");
  const id = sent.body.result.message_id;
  let entries = e.transcript.list(USER.id);
  expect(entries.map((x) => [x.from, x.text])).toEqual([["user", "/start"], ["bot", "Hi Ann"]]);
  expect(entries[1]).toMatchObject({ node: "n1", source: { text: "<b>Hi</b> Ann", parseMode: "HTML" }, edits: 0, deleted: false });

  const before = e.transcript.version;
  expect((await call(e, "editMessageText", { chat_id: USER.id, message_id: id, text: "Bye", botloom_node: "n2" })).status).toBe(200);
  // readers that keep the chat ask for what changed since a version: the edited entry only
  expect(e.transcript.list(USER.id, before).map((x) => x.text)).toEqual(["Bye"]);
  expect((await call(e, "pinChatMessage", { chat_id: USER.id, message_id: id })).status).toBe(200);
  expect((await call(e, "sendChatAction", { chat_id: USER.id, action: "typing" })).status).toBe(200);
  expect(e.transcript.isTyping(USER.id)).toBe(true);
  entries = e.transcript.list(USER.id);
  expect(entries[1]).toMatchObject({ text: "Bye", edits: 1, pinned: true, node: "n2" });
  expect(entries[1]!.source).toBeUndefined();
  expect(entries[1]!.replyMarkup).toBeUndefined(); // an edit without reply_markup drops the inline keyboard, as on Telegram
  expect((await call(e, "deleteMessage", { chat_id: USER.id, message_id: id })).status).toBe(200);
  expect(e.transcript.list(USER.id)[1]!.deleted).toBe(true);

  const group = await call(e, "sendMediaGroup", { chat_id: USER.id, media: [{ type: "photo", media: "https://example.org/a.png" }, { type: "photo", media: "https://example.org/b.png" }] });
  expect(group.status).toBe(200);
  const media = e.transcript.list(USER.id).filter((x) => x.media);
  expect(media.map((x) => x.media!.url)).toEqual(["https://example.org/a.png", "https://example.org/b.png"]);
  expect(new Set(media.map((x) => x.mediaGroupId)).size).toBe(1);
});

test("a button press becomes a callback_query; the answer's text is a notice in that chat", async () => {
  const e = emulator();
  const sent = await call(e, "sendMessage", { chat_id: USER.id, text: "Pick", reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "a" }]] } });
  expect(() => e.press(USER, USER.id, sent.body.result.message_id, "forged")).toThrow("no button");
  expect(() => e.press(USER, USER.id, 999, "a")).toThrow("message not found");
  e.press(USER, USER.id, sent.body.result.message_id, "a");
  const updates = await call(e, "getUpdates", { timeout: 0 });
  const q = updates.body.result.at(-1).callback_query;
  expect(q).toMatchObject({ data: "a", from: { id: USER.id } });
  expect((await call(e, "answerCallbackQuery", { callback_query_id: q.id, text: "Done" })).status).toBe(200);
  expect(e.transcript.list(USER.id).at(-1)).toMatchObject({ kind: "notice", text: "Done" });
  expect((await call(e, "answerCallbackQuery", { callback_query_id: "nope" })).body).toEqual({ ok: false, error_code: 400, description: "Bad Request: query is too old and response timeout expired or query ID is invalid" });
});

test("Telegram's error shapes: wrong token 401, unknown method 404, bad parameters 400", async () => {
  const e = emulator();
  expect(await call(e, "getMe", {}, "1:wrong")).toEqual({ status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } });
  expect((await call(e, "noSuchMethod")).body).toEqual({ ok: false, error_code: 404, description: "Not Found: method not found" });
  expect((await call(e, "sendMessage", { chat_id: USER.id, text: "" })).body.description).toBe("Bad Request: message text is empty");
  expect((await call(e, "sendMessage", { chat_id: USER.id, text: "<b>open", parse_mode: "HTML" })).body.description).toStartWith("Bad Request: can't parse entities");
  expect((await call(e, "banChatMember", { chat_id: USER.id, user_id: 7 })).status).toBe(400); // not in a private chat
  expect((await call(e, "getMe")).body.result).toMatchObject({ id: 8100, is_bot: true, username: "pv_bot" });
});

test("bounded: old entries are forgotten by the transcript and the emulator; uploads beyond the budget are refused", async () => {
  const e = emulator({ maxEntries: 3, maxFileBytes: 1000 });
  const first = await call(e, "sendMessage", { chat_id: USER.id, text: "m0" });
  for (let i = 1; i < 5; i++) await call(e, "sendMessage", { chat_id: USER.id, text: `m${i}` });
  expect(e.transcript.list().map((x) => x.text)).toEqual(["m2", "m3", "m4"]);
  expect((await call(e, "editMessageText", { chat_id: USER.id, message_id: first.body.result.message_id, text: "x" })).body.description).toBe("Bad Request: message to edit not found");

  const form = new FormData();
  form.set("chat_id", String(USER.id));
  form.set("document", new File([new Uint8Array(2000)], "big.bin"));
  const r = await fetch(`${e.url}/bot${e.bot.token}/sendDocument`, { method: "POST", body: form });
  expect(r.status).toBe(413);
  expect(((await r.json()) as any).ok).toBe(false);
});

test("a long poll is answered as soon as the user writes, and ends when the session stops", async () => {
  const e = emulator();
  const poll = call(e, "getUpdates", { timeout: 20 });
  await until(() => e.state.updates.polling, "the long poll held");
  e.text(USER, USER.id, "hello");
  expect((await poll).body.result[0].message.text).toBe("hello");
  const held = call(e, "getUpdates", { timeout: 20, offset: (await poll).body.result[0].update_id + 1 });
  await until(() => e.state.updates.polling, "the second long poll held");
  await e.stop();
  expect((await held).status).toBe(401);
});

test("a photo the user sends can be fetched by the bot: getFile, then the file download", async () => {
  const e = emulator();
  const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
  e.photo(USER, USER.id, new Upload("cat.png", "image/png", bytes), "my cat");
  const update = (await call(e, "getUpdates", { timeout: 0 })).body.result[0];
  const largest = update.message.photo.at(-1);
  expect(update.message.caption).toBe("my cat");
  const file = await call(e, "getFile", { file_id: largest.file_id });
  expect(file.body.result.file_size).toBe(bytes.length);
  const download = await fetch(`${e.url}/file/bot${e.bot.token}/${file.body.result.file_path}`);
  expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  expect((await fetch(`${e.url}/file/bot1:other/${file.body.result.file_path}`)).status).toBe(404);
  expect((await call(e, "getFile", { file_id: "nope" })).body.description).toBe("Bad Request: invalid file_id");
});
