// End-to-end (docs/dialogs.md): the platform runs a real bot — in a shared runner and as its own
// process — against the fake messenger. A user arrives by a ref_42 deep link, writes and presses a
// button; the Dialogs API shows both sides and the live event comes; an operator replies with a
// button the user receives; edit and delete reach the chat; takeover silences that chat only and
// "resume at" runs the node; a user who blocked the bot is marked and skipped by a broadcast;
// formatting is kept: the bot's HTML, a user's entities, an operator's HTML through an edit;
// media records keep the file: the platform serves it through the token, never as a URL with it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort, until } from "../support/process";
import { createApp } from "../../src/app";
import { greeterScenario } from "./scenario-fixture";
import { PNG } from "../hardening/fixture";

const scenario = {
  ...greeterScenario,
  sheets: [
    {
      ...greeterScenario.sheets[0]!,
      nodes: [
        ...greeterScenario.sheets[0]!.nodes,
        { id: "cast", type: "command_trigger", position: { x: 0, y: 400 }, data: { command: "/cast", autoTransitionTo: "bc" } },
        { id: "bc", type: "broadcast", position: { x: 0, y: 500 }, data: { broadcastTargetNode: "news" } },
        { id: "news", type: "message", position: { x: 0, y: 600 }, data: { messageText: "News!" } },
        { id: "fmtCmd", type: "command_trigger", position: { x: 0, y: 700 }, data: { command: "/fmt", autoTransitionTo: "fmt" } },
        { id: "fmt", type: "message", position: { x: 0, y: 800 }, data: { messageText: "<b>Bold</b> move", formatMode: "html" } },
      ],
    },
  ],
};

const MODES = [
  { isolation: "runner", launchMode: "polling" },
  { isolation: "process", launchMode: "polling" },
  { isolation: "runner", launchMode: "webhook" },
] as const;

for (const { isolation, launchMode } of MODES) {
  describe(`dialogs with a real bot (${isolation}, ${launchMode})`, () => {
    let fake: FakeMessenger;
    let t: TestApp;
    let server: { stop: () => void } | undefined;
    let cookie: string;
    let tokenId: number;
    let projectId: number;
    let botToken: string;
    const ann: FakeUser = { id: 6101, first_name: "Ann", username: "ann", language_code: "de" };
    const bob: FakeUser = { id: 6102, first_name: "Bob" };
    const events: { chatId: string; messageId: number }[] = [];

    beforeAll(async () => {
      fake = await startFakeMessenger();
      const port = await freePort();
      t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, BOT_ISOLATION: isolation, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}` } });
      await setUp(t);
      if (launchMode === "webhook") {
        // the messenger posts updates to the platform's intake, which forwards them to the bot
        const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
        server = { stop: () => app.server?.stop(true) };
      }
      cookie = await loginAs(t, 78);
      const project = await t.call("POST", "/api/projects", { cookie, json: { name: `Dialogs ${isolation}`, data: scenario, userDatabaseEnabled: 1 } });
      expect(project.status).toBe(201);
      const bot = fake.addBot({ username: `dialogs_${isolation}_${launchMode}_bot` });
      botToken = bot.token;
      projectId = project.body.id;
      tokenId = (await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } })).body.id;
      if (launchMode === "webhook") expect((await t.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie, json: { launchMode } })).status).toBe(200);
      t.ctx.events.on("chat-message", (e) => void events.push(e));
      const started = await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
      expect(started.status).toBe(200);
    }, 30_000);

    afterAll(async () => {
      await t.ctx.bots.shutdown();
      server?.stop();
      await fake.stop();
      t.cleanup();
    });

    const chats = () => t.call("GET", `/api/bot/tokens/${tokenId}/chats`, { cookie });
    const messagesOf = (u: FakeUser) => t.call("GET", `/api/bot/tokens/${tokenId}/chats/${u.id}/messages`, { cookie });
    // The bot records its answer once the messenger has taken it, and chats run side by side: a
    // message the user sends the moment the answer arrives may be recorded first
    // (docs/runtime.md#taking-updates). Tests that compare the order wait for the record.
    const recorded = (u: FakeUser, n: number) => until(async () => (await messagesOf(u)).body?.items?.length === n || undefined, `${n} recorded messages`, 10_000);

    test("a ref_42 user writes and presses a button; both sides recorded, live events, source and referrer", async () => {
      fake.sendText(botToken, ann, "/start ref_42");
      const [hello] = await fake.waitForSent(botToken, ann.id, 1, 15_000);
      await recorded(ann, 2);
      fake.pressButton(botToken, ann, hello.params.reply_markup.inline_keyboard[0][0].callback_data, hello.messageId);
      await fake.waitForSent(botToken, ann.id, 1, 10_000);
      await until(async () => (await messagesOf(ann)).body?.items?.length === 4, "four recorded messages", 10_000);
      const m = (await messagesOf(ann)).body.items;
      expect(m.map((x: any) => [x.direction, x.sentBy, x.kind, x.text, x.nodeId])).toEqual([
        ["in", "user", "text", "/start ref_42", null],
        ["out", "bot", "text", "Привет, Ann!", "start"],
        ["in", "user", "callback", "Дальше", null],
        ["out", "bot", "text", "Второй шаг", "second"],
      ]);
      expect(m[1].buttons[0][0].text).toBe("Дальше");
      await until(() => events.some((e) => e.chatId === String(ann.id) && e.messageId === m[3].id), "the live event of the reply", 5000);
      const list = (await chats()).body;
      expect(list.items[0]).toMatchObject({ chatId: String(ann.id), firstName: "Ann", userName: "ann", unread: 2, takeover: false, blocked: false });
      const user = await t.call("GET", `/api/bot/tokens/${tokenId}/users/${ann.id}`, { cookie });
      expect(user.body).toMatchObject({ source: "ref_42", referrerId: "42", languageCode: "de", messagesIn: 2, messagesOut: 2, blocked: false });
      expect((await t.call("GET", `/api/bot/tokens/${tokenId}/users?source=ref_42`, { cookie })).body.items.map((u: any) => u.userId)).toEqual([String(ann.id)]);
    }, 30_000);

    test("an operator replies with a button; edit and delete reach the chat", async () => {
      const sent = await t.call("POST", `/api/bot/tokens/${tokenId}/chats/${ann.id}/messages`, { cookie, json: { text: "Hi, a person here", buttons: [[{ text: "Back", goto: "start" }]] } });
      expect(sent.status).toBe(201);
      const [got] = await fake.waitForSent(botToken, ann.id, 1, 10_000);
      expect(got.params.text).toBe("Hi, a person here");
      // the user presses the operator's go-to-node button: the bot runs that node
      fake.pressButton(botToken, ann, got.params.reply_markup.inline_keyboard[0][0].callback_data, got.messageId);
      const [back] = await fake.waitForSent(botToken, ann.id, 1, 10_000);
      expect(back.params.text).toBe("Привет, Ann!");
      const edited = await t.call("PATCH", `/api/bot/tokens/${tokenId}/chats/${ann.id}/messages/${sent.body.id}`, { cookie, json: { text: "Edited" } });
      expect(edited.status).toBe(200);
      const [edit] = await fake.waitForSent(botToken, ann.id, 1, 10_000);
      expect([edit.method, edit.params.text]).toEqual(["editMessageText", "Edited"]);
      expect((await t.call("DELETE", `/api/bot/tokens/${tokenId}/chats/${ann.id}/messages/${sent.body.id}`, { cookie })).status).toBe(200);
      const [del] = await fake.waitForSent(botToken, ann.id, 1, 10_000);
      expect(del.method).toBe("deleteMessage");
    }, 30_000);

    test("formatting is recorded: the bot's parse mode, a user's entities; an operator's HTML edit is sent as HTML", async () => {
      const cat: FakeUser = { id: 6103, first_name: "Cat" };
      fake.sendText(botToken, cat, "/fmt");
      const [bold] = await fake.waitForSent(botToken, cat.id, 1, 15_000);
      expect(bold.params.parse_mode).toBe("HTML");
      await recorded(cat, 2);
      fake.sendUserMessage(botToken, cat, { text: "hey you", entities: [{ type: "italic", offset: 4, length: 3 }] });
      await until(async () => (await messagesOf(cat)).body?.items?.length === 3, "three recorded messages", 10_000);
      const [cmd, out, hey] = (await messagesOf(cat)).body.items;
      expect([cmd.text, cmd.format, cmd.entities]).toEqual(["/fmt", null, [{ type: "bot_command", offset: 0, length: 4 }]]);
      expect([out.text, out.format, out.entities]).toEqual(["<b>Bold</b> move", "html", null]);
      expect([hey.format, hey.entities]).toEqual([null, [{ type: "italic", offset: 4, length: 3 }]]);
      // the chat list shows the text the user saw, not the tags
      expect((await chats()).body.items.find((c: any) => c.chatId === String(cat.id))?.lastMessageText).toBe("hey you");

      const sent = await t.call("POST", `/api/bot/tokens/${tokenId}/chats/${cat.id}/messages`, { cookie, json: { text: "<b>Hi</b> there", format: "html" } });
      expect([sent.status, sent.body.format]).toEqual([201, "html"]);
      await fake.waitForSent(botToken, cat.id, 1, 10_000);
      const edited = await t.call("PATCH", `/api/bot/tokens/${tokenId}/chats/${cat.id}/messages/${sent.body.id}`, { cookie, json: { text: "<i>Edited</i> there" } });
      expect([edited.status, edited.body.text, edited.body.format]).toEqual([200, "<i>Edited</i> there", "html"]);
      const [edit] = await fake.waitForSent(botToken, cat.id, 1, 10_000);
      expect([edit.method, edit.params.text, edit.params.parse_mode]).toEqual(["editMessageText", "<i>Edited</i> there", "HTML"]);
      expect(edit.error).toBeUndefined();
    }, 30_000);

    test("media records keep their file: a user's photo and document, an operator's media; served through the token, capped and sandboxed", async () => {
      const dan: FakeUser = { id: 6104, first_name: "Dan" };
      const photoBytes = new TextEncoder().encode("the bytes of a picture");
      fake.sendText(botToken, dan, "/start");
      await fake.waitForSent(botToken, dan.id, 1, 15_000);
      await recorded(dan, 2);
      fake.sendDocument(botToken, dan, { fileName: "pic.png", mimeType: "image/png", bytes: photoBytes });
      fake.sendDocument(botToken, dan, { fileName: "page.html", mimeType: "text/html", bytes: new TextEncoder().encode("<script>alert(1)</script>") });
      await until(async () => (await messagesOf(dan)).body?.items?.length === 4, "four recorded messages", 10_000);
      const [start, , doc, html] = (await messagesOf(dan)).body.items;
      expect([start.hasFile, doc.kind, doc.hasFile, html.hasFile]).toEqual([false, "document", true, true]);
      const fileOf = (id: number) => t.call("GET", `/api/bot/tokens/${tokenId}/chats/${dan.id}/messages/${id}/media`, { cookie });
      const got = await fileOf(doc.id);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("image/png");
      expect(got.text).toBe("the bytes of a picture");
      // a file that a browser would run is a sandboxed download
      const page = await fileOf(html.id);
      expect([page.status, page.headers.get("content-type"), page.headers.get("content-disposition")]).toEqual([200, "application/octet-stream", "attachment"]);
      expect(page.headers.get("content-security-policy")).toContain("sandbox");
      // the download went through the platform with the token; nothing the browser got names it
      expect(fake.calls(botToken, "downloadFile").length).toBeGreaterThan(0);
      expect(page.text).not.toContain(botToken);
      // a message without a file, an unknown message: 404 in the error shape
      const none = await fileOf(start.id);
      expect([none.status, none.body.error]).toEqual([404, "NOT_FOUND"]);
      expect((await fileOf(999_999)).status).toBe(404);
      expect((await t.call("GET", `/api/bot/tokens/${tokenId}/chats/${dan.id}/messages/abc/media`, { cookie })).status).toBe(400);

      // an operator's media: its project media id and the file the messenger gave back
      const fd = new FormData();
      fd.append("file", new File([PNG], "menu.png", { type: "image/png" }));
      const media = await t.call("POST", `/api/projects/${projectId}/media`, { cookie, body: fd });
      expect(media.status).toBe(201);
      const sent = await t.call("POST", `/api/bot/tokens/${tokenId}/chats/${dan.id}/messages`, { cookie, json: { text: "Our menu", mediaId: media.body.id } });
      expect([sent.status, sent.body.kind, sent.body.mediaId, sent.body.hasFile]).toEqual([201, "photo", media.body.id, true]);
      await fake.waitForSent(botToken, dan.id, 1, 10_000);
      const back = await fileOf(sent.body.id);
      expect([back.status, back.headers.get("content-type")]).toEqual([200, "image/png"]);
    }, 30_000);

    test("takeover silences that chat only; resume at a node runs it", async () => {
      const interactionsBefore = (await t.call("GET", `/api/bot/tokens/${tokenId}/users/${ann.id}`, { cookie })).body.interactionCount;
      expect((await t.call("PUT", `/api/bot/tokens/${tokenId}/chats/${ann.id}/takeover`, { cookie, json: { on: true } })).body.takeover).toBe(true);
      const before = fake.sent(botToken, ann.id).length;
      fake.sendText(botToken, ann, "/start");
      fake.sendText(botToken, bob, "/start");
      await fake.waitForSent(botToken, bob.id, 1, 10_000);
      await until(async () => (await messagesOf(ann)).body.items.at(-1).text === "/start", "the held chat's message recorded", 5000);
      expect(fake.sent(botToken, ann.id).length).toBe(before);
      // still seen: the user's interaction count grows though nobody answered
      const seen = await t.call("GET", `/api/bot/tokens/${tokenId}/users/${ann.id}`, { cookie });
      expect(seen.body.interactionCount).toBe(interactionsBefore + 1);
      const off = await t.call("PUT", `/api/bot/tokens/${tokenId}/chats/${ann.id}/takeover`, { cookie, json: { on: false, resumeAt: "second" } });
      expect(off.body).toEqual({ chatId: String(ann.id), takeover: false, resumed: true });
      const [resumed] = await fake.waitForSent(botToken, ann.id, 1, 10_000);
      expect(resumed.params.text).toBe("Второй шаг");
    }, 30_000);

    test("a user who blocked the bot is marked and skipped by a broadcast", async () => {
      fake.setBlocked(bob.id, true);
      const r = await t.call("POST", `/api/bot/tokens/${tokenId}/chats/${bob.id}/messages`, { cookie, json: { text: "there?" } });
      expect(r.status).toBe(409);
      expect(r.body.error).toBe("BOT_BLOCKED");
      expect((await chats()).body.items.find((c: any) => c.chatId === String(bob.id)).blocked).toBe(true);
      const bobCalls = fake.calls(botToken).filter((c) => c.params.chat_id === bob.id || c.params.chat_id === String(bob.id)).length;
      fake.sendText(botToken, ann, "/cast");
      await fake.waitForCall(botToken, (c) => c.params.text === "News!" && Number(c.params.chat_id) === ann.id, 10_000);
      await Bun.sleep(300); // the broadcast starts its sends in id order, 42 ms apart; bob comes last
      expect(fake.calls(botToken).filter((c) => c.params.chat_id === bob.id || c.params.chat_id === String(bob.id)).length).toBe(bobCalls);
      // the broadcast's message is recorded as a campaign's, with the node it sends
      const news = await until(async () => (await messagesOf(ann)).body.items.find((m: any) => m.text === "News!"), "the broadcast recorded", 5000);
      expect([news.sentBy, news.nodeId]).toEqual(["campaign", "news"]);
    }, 30_000);
  });
}
