import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Bot, InlineKeyboard, InputFile, webhookCallback } from "grammy";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "./fake-messenger";
import { PNG_BYTES } from "../../src/emulator/bot-api/files";

let fake: FakeMessenger;
const alice: FakeUser = { id: 111, first_name: "Alice", username: "alice", language_code: "en" };
const bob: FakeUser = { id: 222, first_name: "Bob" };
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  fake = await startFakeMessenger({ webhookRetryDelaysMs: [20, 20] });
});

afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
  await fake.stop();
});

/** The platform's own way of calling: plain fetch with a JSON body. */
async function call(token: string, method: string, params: Record<string, unknown> = {}) {
  const res = await fetch(`${fake.url}/bot${token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("basics", () => {
  test("getMe answers for a known token and 401 for an unknown or removed one", async () => {
    const bot = fake.addBot({ username: "basics_bot", firstName: "Basics" });
    expect(bot.token).toMatch(/^\d+:[A-Za-z0-9_-]{35}$/);
    expect(Number(bot.token.split(":")[0])).toBe(bot.id);
    const me = await call(bot.token, "getMe");
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ id: bot.id, is_bot: true, first_name: "Basics", username: "basics_bot" });
    expect((await call(bot.token, "GETME")).status).toBe(200); // Telegram ignores method case

    const bad = await call("123:nope", "getMe");
    expect(bad).toEqual({ status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } });

    expect(await call(bot.token, "noSuchMethod")).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: "Not Found: method not found" },
    });
    fake.removeBot(bot.token);
    expect((await call(bot.token, "getMe")).status).toBe(401);
  });

  test("sendMessage validates like Telegram and returns a realistic Message", async () => {
    const { token } = fake.addBot();
    fake.sendText(token, alice, "hi"); // message_id 1 in Alice's chat
    expect((await call(token, "sendMessage", { text: "x" })).body.description).toBe("Bad Request: chat_id is empty");
    expect((await call(token, "sendMessage", { chat_id: alice.id, text: "  " })).body.description).toBe("Bad Request: message text is empty");
    expect((await call(token, "sendMessage", { chat_id: alice.id, text: "x", parse_mode: "BBCode" })).body).toEqual({
      ok: false, error_code: 400, description: "Bad Request: unsupported parse_mode",
    });
    const html = await call(token, "sendMessage", { chat_id: alice.id, text: "a<br>b", parse_mode: "HTML" });
    expect(html.body.description).toStartWith("Bad Request: can't parse entities: Unsupported start tag \"br\"");
    const v2 = await call(token, "sendMessage", { chat_id: alice.id, text: "Price: 5.00", parse_mode: "MarkdownV2" });
    expect(v2.body.description).toContain("Character '.' is reserved");
    const longData = await call(token, "sendMessage", {
      chat_id: alice.id, text: "x", reply_markup: { inline_keyboard: [[{ text: "b", callback_data: "x".repeat(65) }]] },
    });
    expect(longData.body.description).toBe("Bad Request: BUTTON_DATA_INVALID");

    const ok = await call(token, "sendMessage", {
      chat_id: alice.id,
      text: "<b>Hello</b> &amp; welcome",
      parse_mode: "HTML",
      reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: "go" }]] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({
      message_id: 2,
      from: { is_bot: true },
      chat: { id: alice.id, type: "private", first_name: "Alice", username: "alice" },
      text: "Hello & welcome",
      reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: "go" }]] },
    });
    expect(typeof ok.body.result.date).toBe("number");
    // failed sends are in calls() with their error, but not in sent()
    expect(fake.calls(token, "sendMessage").filter((c) => c.error)).toHaveLength(6);
    expect(fake.sent(token, alice.id)).toHaveLength(1);
    expect(fake.sent(token, alice.id)[0]!.messageId).toBe(2);
  });

  test("form-urlencoded and query-string params are coerced; reply_markup is parsed", async () => {
    const { token } = fake.addBot();
    const form = new URLSearchParams({
      chat_id: String(bob.id),
      text: "007",
      disable_notification: "true",
      reply_markup: JSON.stringify({ keyboard: [[{ text: "Yes" }, "No"]], resize_keyboard: true }),
    });
    const res = await fetch(`${fake.url}/bot${token}/sendMessage`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    const byQuery = await fetch(`${fake.url}/bot${token}/sendMessage?chat_id=${bob.id}&text=q`);
    expect(byQuery.status).toBe(200);
    const [first, second] = fake.sent(token, bob.id);
    expect(first!.params).toEqual({
      chat_id: bob.id,
      text: "007",
      disable_notification: true,
      reply_markup: { keyboard: [[{ text: "Yes" }, "No"]], resize_keyboard: true },
    });
    expect(second!.params).toEqual({ chat_id: bob.id, text: "q" });
  });

  test("setMyCommands rejects empty descriptions and stores valid ones", async () => {
    const { token } = fake.addBot();
    const empty = await call(token, "setMyCommands", { commands: [{ command: "start", description: "" }] });
    expect(empty).toEqual({ status: 400, body: { ok: false, error_code: 400, description: "Bad Request: command description must be non-empty" } });
    const upper = await call(token, "setMyCommands", { commands: [{ command: "Start", description: "x" }] });
    expect(upper.body.description).toBe("Bad Request: BOT_COMMAND_INVALID");
    const commands = [{ command: "start", description: "Begin" }, { command: "help", description: "Help" }];
    expect((await call(token, "setMyCommands", { commands })).body).toEqual({ ok: true, result: true });
    expect((await call(token, "getMyCommands")).body.result).toEqual(commands);
    await call(token, "deleteMyCommands");
    expect((await call(token, "getMyCommands")).body.result).toEqual([]);
  });

  test("edits, no-op edits, deletes and the waitForSent queue", async () => {
    const { token } = fake.addBot();
    const chat_id = alice.id;
    const m1 = (await call(token, "sendMessage", { chat_id, text: "one" })).body.result;
    await call(token, "sendMessage", { chat_id, text: "two" });
    const firstTwo = await fake.waitForSent(token, chat_id, 2);
    expect(firstTwo.map((c) => c.params.text)).toEqual(["one", "two"]);

    const same = await call(token, "editMessageText", { chat_id, message_id: m1.message_id, text: "one" });
    expect(same.body.description).toStartWith("Bad Request: message is not modified");
    const edited = await call(token, "editMessageText", {
      chat_id, message_id: m1.message_id, text: "uno", reply_markup: { inline_keyboard: [[{ text: "u", url: "https://example.com" }]] },
    });
    expect(edited.body.result).toMatchObject({ message_id: m1.message_id, text: "uno" });
    expect(typeof edited.body.result.edit_date).toBe("number");
    expect((await call(token, "deleteMessage", { chat_id, message_id: m1.message_id })).body.result).toBe(true);
    expect((await call(token, "deleteMessage", { chat_id, message_id: m1.message_id })).body.description).toBe(
      "Bad Request: message to delete not found",
    );
    const next = await fake.waitForSent(token, chat_id, 2);
    expect(next.map((c) => [c.method, c.messageId])).toEqual([["editMessageText", m1.message_id], ["deleteMessage", m1.message_id]]);
  });

  test("chat info, chat actions, copy/forward, media groups, locations", async () => {
    const { token, id } = fake.addBot();
    const user = fake.sendText(token, alice, "keep this");
    expect((await call(token, "getChat", { chat_id: alice.id })).body.result).toMatchObject({ id: alice.id, type: "private", first_name: "Alice" });
    expect((await call(token, "getChatMember", { chat_id: alice.id, user_id: alice.id })).body.result).toMatchObject({
      status: "member", user: { id: alice.id, first_name: "Alice" },
    });
    expect((await call(token, "getChatMember", { chat_id: alice.id, user_id: id })).body.result.user.is_bot).toBe(true);
    expect((await call(token, "sendChatAction", { chat_id: alice.id, action: "typing" })).body.result).toBe(true);
    expect((await call(token, "sendChatAction", { chat_id: alice.id, action: "dancing" })).status).toBe(400);

    const copy = await call(token, "copyMessage", { chat_id: bob.id, from_chat_id: alice.id, message_id: user.message.message_id });
    expect(copy.body.result).toEqual({ message_id: 1 });
    const fwd = await call(token, "forwardMessage", { chat_id: bob.id, from_chat_id: alice.id, message_id: user.message.message_id });
    expect(fwd.body.result).toMatchObject({ message_id: 2, text: "keep this", forward_origin: { type: "user", sender_user: { id: alice.id } } });
    expect((await call(token, "copyMessage", { chat_id: bob.id, from_chat_id: alice.id, message_id: 99 })).body.description).toBe(
      "Bad Request: message to copy not found",
    );
    const group = await call(token, "sendMediaGroup", {
      chat_id: bob.id,
      media: [{ type: "photo", media: "https://example.com/a.png", caption: "A" }, { type: "document", media: "https://example.com/b.pdf" }],
    });
    expect(group.body.result.map((m: any) => m.message_id)).toEqual([3, 4]);
    expect(group.body.result[0].media_group_id).toBe(group.body.result[1].media_group_id);
    expect(group.body.result[1].document.file_name).toBe("b.pdf");
    const loc = await call(token, "sendLocation", { chat_id: bob.id, latitude: 52.5, longitude: 13.4 });
    expect(loc.body.result.location).toEqual({ latitude: 52.5, longitude: 13.4 });
    expect(fake.sent(token, bob.id).map((c) => c.method)).toEqual(["copyMessage", "forwardMessage", "sendMediaGroup", "sendLocation"]);
    expect(fake.sent(token).some((c) => c.method === "sendChatAction")).toBe(false);
  });

  test("waitForCall and waitForSent fail with a list of recent calls", async () => {
    const { token } = fake.addBot();
    await call(token, "sendMessage", { chat_id: bob.id, text: "only this", parse_mode: "nope" });
    const err = await fake.waitForSent(token, bob.id, 1, 50).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain("expected 1 new send-call(s) to chat 222");
    expect((err as Error).message).toContain("sendMessage");
    expect((err as Error).message).toContain("unsupported parse_mode");
    await expect(fake.waitForCall(token, (c) => c.method === "getChat", 30)).rejects.toThrow("no matching call");
  });

  test("a call wakes only its own token's waiters; sends are kept per chat and forgotten by clear", async () => {
    const a = fake.addBot();
    const b = fake.addBot();
    await call(a.token, "getMyCommands"); // a recorded call the predicate below must look at and refuse
    let probes = 0;
    const waiting = fake.waitForCall(a.token, (c) => (probes++, c.method === "getMe"), 5000);
    const queued = fake.waitForSent(a.token, alice.id, 1, 5000);
    const before = probes;
    for (let i = 0; i < 20; i++) await call(b.token, "sendMessage", { chat_id: alice.id, text: `b${i}` });
    expect(probes).toBe(before); // another bot's calls never run this bot's predicates
    await call(a.token, "sendMessage", { chat_id: bob.id, text: "to bob" });
    await call(a.token, "sendMessage", { chat_id: alice.id, text: "to alice" });
    expect((await queued).map((c) => c.params.text)).toEqual(["to alice"]);
    await call(a.token, "getMe");
    expect((await waiting).method).toBe("getMe");
    expect(fake.sent(a.token).map((c) => c.params.text)).toEqual(["to bob", "to alice"]);
    expect(fake.sent(b.token, alice.id)).toHaveLength(20);

    fake.clear(a.token);
    expect(fake.sent(a.token)).toEqual([]);
    expect(fake.calls(a.token)).toEqual([]);
    expect(fake.sent(b.token, alice.id)).toHaveLength(20);
    await call(a.token, "sendMessage", { chat_id: alice.id, text: "after clear" });
    expect((await fake.waitForSent(a.token, alice.id, 1, 1000)).map((c) => c.params.text)).toEqual(["after clear"]);
  });

  test("failNext injects an error once", async () => {
    const { token } = fake.addBot();
    fake.failNext(token, "sendMessage", { error_code: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
    const first = await call(token, "sendMessage", { chat_id: bob.id, text: "a" });
    expect(first).toEqual({
      status: 429,
      body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } },
    });
    expect((await call(token, "sendMessage", { chat_id: bob.id, text: "a" })).status).toBe(200);
  });
});

describe("long polling", () => {
  test("getUpdates returns queued updates until confirmed by offset", async () => {
    const { token } = fake.addBot();
    const u1 = fake.sendText(token, alice, "/start ref42");
    expect(u1.message.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);
    fake.sendText(token, alice, "hello");
    const all = (await call(token, "getUpdates")).body.result;
    expect(all.map((u: any) => u.message.text)).toEqual(["/start ref42", "hello"]);
    expect(all[1].update_id).toBe(all[0].update_id + 1);
    expect(all[1].message.message_id).toBe(all[0].message.message_id + 1);
    const rest = (await call(token, "getUpdates", { offset: all[0].update_id + 1 })).body.result;
    expect(rest.map((u: any) => u.message.text)).toEqual(["hello"]);
  });

  test("a held getUpdates is answered when an update arrives", async () => {
    const { token } = fake.addBot();
    const held = call(token, "getUpdates", { timeout: 5 });
    await fake.waitForCall(token, (c) => c.method === "getUpdates");
    fake.sendText(token, bob, "ping");
    const res = await held;
    // a poll held to its 5 s timeout would answer [] (bench/stops.ts times the answer)
    expect(res.body.result[0].message.text).toBe("ping");
  });

  test("a newer getUpdates terminates the held one with 409", async () => {
    const { token } = fake.addBot();
    const older = call(token, "getUpdates", { timeout: 5 });
    await fake.waitForCall(token, (c) => c.method === "getUpdates");
    const newer = await call(token, "getUpdates", { timeout: 0 });
    expect(newer.body).toEqual({ ok: true, result: [] });
    expect(await older).toEqual({
      status: 409,
      body: { ok: false, error_code: 409, description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" },
    });
  });

  test("a real grammY bot: /start, inline keyboard, button press, answerCallbackQuery", async () => {
    const { token } = fake.addBot({ username: "grammy_test_bot" });
    const bot = new Bot(token, { client: { apiRoot: fake.url } });
    bot.command("start", (ctx) =>
      ctx.reply(`Hi ${ctx.from?.first_name}, ref=${ctx.match}`, { reply_markup: new InlineKeyboard().text("Yes", "answer:yes").text("No", "answer:no") }),
    );
    bot.callbackQuery(/^answer:(.+)$/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: "noted" });
      await ctx.reply(`You said ${ctx.match[1]}`);
    });
    bot.catch((e) => console.error("grammY bot error", e));
    const running = new Promise<void>((onStart) => void bot.start({ timeout: 2, onStart: () => onStart() }));
    cleanups.push(() => bot.isRunning() && bot.stop());
    await running;
    expect(fake.calls(token, "getMe")).toHaveLength(1);

    fake.sendText(token, alice, "/start abc");
    const [reply] = await fake.waitForSent(token, alice.id);
    expect(reply!.method).toBe("sendMessage");
    expect(reply!.params.text).toBe("Hi Alice, ref=abc");
    expect(reply!.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: "Yes", callback_data: "answer:yes" }, { text: "No", callback_data: "answer:no" }]],
    });

    const press = fake.pressButton(token, alice, "answer:yes");
    expect(press.callback_query.message.message_id).toBe(reply!.messageId);
    const answered = await fake.waitForCall(token, (c) => c.method === "answerCallbackQuery");
    expect(answered.params).toEqual({ callback_query_id: press.callback_query.id, text: "noted" });
    expect(answered.error).toBeUndefined();
    const [second] = await fake.waitForSent(token, alice.id);
    expect(second!.params.text).toBe("You said yes");

    await bot.stop();
    expect(bot.isRunning()).toBe(false);
  });

  test("grammY uploads an InputFile as multipart; the record shows {fileName, size}", async () => {
    const { token } = fake.addBot();
    const bot = new Bot(token, { client: { apiRoot: fake.url } });
    const bytes = Buffer.from("not really a jpeg but bytes all the same");
    const msg = await bot.api.sendPhoto(bob.id, new InputFile(bytes, "cat.jpg"), {
      caption: "a cat",
      reply_markup: new InlineKeyboard().text("Pet", "pet"),
    });
    expect(msg.photo!.length).toBeGreaterThan(1);
    expect(msg.caption).toBe("a cat");
    const [sent] = fake.sent(token, bob.id);
    expect(sent!.params).toEqual({
      chat_id: bob.id,
      photo: { fileName: "cat.jpg", size: bytes.length },
      caption: "a cat",
      reply_markup: { inline_keyboard: [[{ text: "Pet", callback_data: "pet" }]] },
    });
    // the uploaded bytes come back through getFile + download
    const file = await bot.api.getFile(msg.photo!.at(-1)!.file_id);
    const body = await fetch(`${fake.url}/file/bot${token}/${file.file_path}`);
    expect(Buffer.from(await body.arrayBuffer()).toString()).toBe(bytes.toString());
    // media by URL or file_id is recorded as the string
    await bot.api.sendDocument(bob.id, "https://example.com/report.pdf");
    expect(fake.sent(token, bob.id)[1]!.params.document).toBe("https://example.com/report.pdf");
  });
});

describe("webhooks", () => {
  test("updates are POSTed in order with the secret header; getUpdates gets 409 meanwhile", async () => {
    const { token } = fake.addBot();
    const received: { secret: string | null; update: any }[] = [];
    let failFirst = true;
    const hook = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const update = await req.json();
        if (failFirst) {
          failFirst = false; // the fake must retry after a non-2xx answer
          return new Response("busy", { status: 503 });
        }
        received.push({ secret: req.headers.get("x-telegram-bot-api-secret-token"), update });
        await Bun.sleep(5); // slow handler: a second delivery must not overtake the first
        return new Response("ok");
      },
    });
    cleanups.push(() => hook.stop(true));
    const url = `http://127.0.0.1:${hook.port}/api/webhook/1/1`;

    const set = await call(token, "setWebhook", { url, secret_token: "s3cr3t_TOKEN-1", allowed_updates: [] });
    expect(set.body).toEqual({ ok: true, result: true, description: "Webhook was set" });
    expect(fake.webhookOf(token)).toEqual({ url, secretToken: "s3cr3t_TOKEN-1" });

    const polled = await call(token, "getUpdates");
    expect(polled.status).toBe(409);
    expect(polled.body.description).toBe("Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");

    fake.sendText(token, alice, "first");
    fake.sendText(token, alice, "second");
    fake.pressButton(token, alice, "third");
    for (let i = 0; i < 100 && received.length < 3; i++) await Bun.sleep(10);
    expect(received.map((r) => r.update.message?.text ?? r.update.callback_query?.data)).toEqual(["first", "second", "third"]);
    expect(received.every((r) => r.secret === "s3cr3t_TOKEN-1")).toBe(true);

    // the handler records before it answers; the fake confirms the update only after the answer
    let info = (await call(token, "getWebhookInfo")).body.result;
    for (let i = 0; i < 100 && info.pending_update_count > 0; i++) {
      await Bun.sleep(5);
      info = (await call(token, "getWebhookInfo")).body.result;
    }
    expect(info).toMatchObject({ url, pending_update_count: 0, has_custom_certificate: false });
    expect(info.last_error_message).toContain("503");

    expect((await call(token, "deleteWebhook", { drop_pending_updates: true })).body.description).toBe("Webhook was deleted");
    expect(fake.webhookOf(token)).toBeNull();
    expect((await call(token, "getUpdates")).body).toEqual({ ok: true, result: [] });
  });

  test("a real grammY bot behind webhookCallback receives updates and replies", async () => {
    const { token } = fake.addBot();
    const bot = new Bot(token, { client: { apiRoot: fake.url } });
    bot.on("message:text", (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    const handle = webhookCallback(bot, "std/http", { secretToken: "hook_secret" });
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => handle(req) });
    cleanups.push(() => server.stop(true));
    await bot.api.setWebhook(`http://127.0.0.1:${server.port}/hook`, { secret_token: "hook_secret" });
    fake.sendText(token, alice, "one");
    fake.sendText(token, alice, "two");
    const replies = await fake.waitForSent(token, alice.id, 2);
    expect(replies.map((c) => c.params.text)).toEqual(["echo: one", "echo: two"]);
  });

  test("a webhook reply carrying a method is executed and recorded", async () => {
    const { token } = fake.addBot();
    const hook = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const u: any = await req.json();
        return Response.json({ method: "sendMessage", chat_id: u.message.chat.id, text: "from reply" });
      },
    });
    cleanups.push(() => hook.stop(true));
    await call(token, "setWebhook", { url: `http://127.0.0.1:${hook.port}/` });
    fake.sendText(token, bob, "hey");
    const [m] = await fake.waitForSent(token, bob.id);
    expect(m!.params).toEqual({ chat_id: bob.id, text: "from reply" });
  });
});

describe("profile photos and files", () => {
  test("getUserProfilePhotos for the bot and for users, getFile, download", async () => {
    const { token, id } = fake.addBot({ hasPhoto: true });
    const own = (await call(token, "getUserProfilePhotos", { user_id: id })).body.result;
    expect(own.total_count).toBe(1);
    const largest = own.photos[0].at(-1);
    expect(largest).toMatchObject({ width: 800, height: 800 });
    // file ids stay stable between calls, as Telegram's do
    expect((await call(token, "getUserProfilePhotos", { user_id: id })).body.result.photos[0].at(-1).file_id).toBe(largest.file_id);

    const file = (await call(token, "getFile", { file_id: largest.file_id })).body.result;
    // (no asymmetric matchers here: Bun's toMatchObject writes them into the received object)
    expect(file.file_id).toBe(largest.file_id);
    expect(file.file_path).toMatch(/^photos\//);
    const res = await fetch(`${fake.url}/file/bot${token}/${file.file_path}`);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG_BYTES);
    expect((await fetch(`${fake.url}/file/bot${token}/photos/nope.png`)).status).toBe(404);
    expect((await call(token, "getFile", { file_id: "made-up" })).body.description).toBe("Bad Request: invalid file_id");

    expect((await call(token, "getUserProfilePhotos", { user_id: bob.id })).body.result).toEqual({ total_count: 0, photos: [] });
    fake.setUserPhoto(bob.id, true);
    expect((await call(token, "getUserProfilePhotos", { user_id: bob.id })).body.result.total_count).toBe(1);
    fake.setUserPhoto(bob.id, false);
  });

  test("user media updates carry file ids that getFile resolves", async () => {
    const { token } = fake.addBot();
    const photo = fake.sendPhoto(token, alice, { caption: "look" });
    expect(photo.message.caption).toBe("look");
    expect(photo.message.photo).toHaveLength(3);
    const doc = fake.sendDocument(token, alice, { fileName: "cv.pdf", mimeType: "application/pdf" });
    expect(doc.message.document).toMatchObject({ file_name: "cv.pdf", mime_type: "application/pdf" });
    const contact = fake.sendContact(token, alice, "+15550001");
    expect(contact.message.contact).toEqual({ phone_number: "+15550001", first_name: "Alice", user_id: alice.id });
    const path = (await call(token, "getFile", { file_id: doc.message.document.file_id })).body.result.file_path;
    expect(path).toMatch(/\.pdf$/);
    // the bot can resend what the user sent, by file_id
    const resent = await call(token, "sendPhoto", { chat_id: alice.id, photo: photo.message.photo[2].file_id });
    expect(resent.body.result.photo[0].file_id).toBe(photo.message.photo[2].file_id);
  });
});

describe("control API", () => {
  test("another process can add a bot, act as a user and read calls", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${fake.url}/__control/${path}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    const bot = (await (await post("bots", { username: "remote_bot" })).json()) as any;
    expect(bot.username).toBe("remote_bot");
    const update = (await (await post(`${bot.token}/text`, { from: bob, text: "/help" })).json()) as any;
    expect(update.message.text).toBe("/help");
    await call(bot.token, "sendMessage", { chat_id: bob.id, text: "help text" });
    const pressed = (await (await post(`${bot.token}/press`, { from: bob, data: "more" })).json()) as any;
    expect(pressed.callback_query.message.text).toBe("help text");
    const calls = (await (await fetch(`${fake.url}/__control/${bot.token}/calls`)).json()) as any[];
    expect(calls.map((c) => c.method)).toEqual(["sendMessage"]);
    const waited = await fetch(`${fake.url}/__control/${bot.token}/wait-sent?chat_id=${bob.id}&count=1&timeout_ms=500`);
    expect(((await waited.json()) as any[])[0].params.text).toBe("help text");
  });
});
