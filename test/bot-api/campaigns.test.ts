// Campaigns over HTTP (docs/campaigns.md, docs/api.md "Campaigns") with the server's sender on the
// fake messenger (the bot does not run): audience segments and their size, blocked users left out,
// rendering with each recipient's variables, a test send not counted, pause/resume/cancel, a 429
// with retry_after mid-campaign losing no one, delete-sent, the live event, albums (one media group,
// recorded and deleted whole), schedules in a time zone, the users' facets, the export's filter, and bad input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { projectBotChats, projectBotPeople, projectBotUsers } from "../../src/db/project-schema";
import { addToken, botApiEnv, expectNoSecrets, OWNER, type BotApiEnv } from "./support";
import { until } from "../support/process";
import { MessengerError } from "../../src/errors";
import { messageGone } from "../../src/modules/campaigns/sender";
import { expectOneBom } from "../support/bom";

let env: BotApiEnv;
let projectId: number;
let tokenId: number;
let botToken: string;
const base = () => `/api/bot/tokens/${tokenId}/campaigns`;
const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
/** 30 users: 7_100_000 + i; every third speaks ru, the first ten carry "vip", user 5 blocked, 20.. inactive for 60 days. */
const uid = (i: number) => 7_100_000 + i;
const N = 30;

beforeAll(async () => {
  env = await botApiEnv();
  env.t.ctx.auth.ensureUser(OWNER);
  // a scenario with the node the go-to buttons name
  const menu = { id: "menu", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Menu" } };
  projectId = env.t.ctx.projects.create(OWNER, { name: "Campaigns", data: { version: 2, sheets: [{ id: "s1", name: "Main", nodes: [menu], edges: [] }] } } as never).id;
  ({ tokenId, bot: { token: botToken } } = await addToken(env, projectId));
  const db = env.t.ctx.projectFiles.open(projectId);
  for (let i = 0; i < N; i++) {
    const seen = i >= 20 ? days(60) : days(1);
    env.fake.sendText(botToken, { id: uid(i), first_name: `U${i}` } as never, "hi");
    db.insert(projectBotUsers).values({ tokenId, userId: String(uid(i)), firstName: `U${i}`, languageCode: i % 3 === 0 ? "ru" : "en-GB", firstSeenAt: seen, lastSeenAt: seen, variables: JSON.stringify({ city: `C${i}` }) }).run();
    db.insert(projectBotPeople).values({ tokenId, userId: String(uid(i)), languageCode: i % 3 === 0 ? "ru" : "en-GB", tags: JSON.stringify(i < 10 ? ["vip"] : []), source: i < 4 ? "ads" : null, blocked: i === 5 ? 1 : 0, firstSeenAt: seen, lastSeenAt: seen }).run();
  }
});
afterAll(async () => {
  await env.t.ctx.campaigns.stop();
  expectNoSecrets(env, [botToken]);
  await env.close();
});

const create = (json: unknown) => env.call("POST", base(), { cookie: env.cookie, json });
const act = (id: number, verb: string) => env.call("POST", `${base()}/${id}/${verb}`, { cookie: env.cookie });
const get = async (id: number) => (await env.call("GET", `${base()}/${id}`, { cookie: env.cookie })).body;
const size = async (audience: unknown) => {
  const r = await env.call("POST", `${base()}/audience-size`, { cookie: env.cookie, json: audience });
  expect(r.status).toBe(200);
  return r.body.size as number;
};
/** users (indexes) who received a message with this text so far */
const receivedBy = (text: string) =>
  env.fake
    .sent(botToken)
    .filter((c) => c.method === "sendMessage" && String(c.params.text).startsWith(text))
    .map((c) => Number(c.params.chat_id) - 7_100_000)
    .sort((a, b) => a - b);
const setPace = (sendsPerSecond: number) => env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { sendsPerSecond } });
/** A campaign of `text` to the active users, started and sending: `count` received. */
const sendingActive = async (text: string, count: number) => {
  const id = (await create({ name: text, message: { text }, audience: { filter: "active" } })).body.id as number;
  await act(id, "start");
  await until(() => receivedBy(text).length >= count, `${count} sent`);
  return id;
};
const finished = (id: number) => until(async () => ["done", "cancelled"].includes((await get(id)).status), `campaign ${id} finished`);

describe("audience", () => {
  test("size per segment; blocked users never counted", async () => {
    expect(await size({})).toBe(N - 1);
    expect(await size({ filter: "active" })).toBe(19);
    expect(await size({ filter: "inactive" })).toBe(10);
    expect(await size({ filter: "active", activeWithinDays: 90 })).toBe(N - 1);
    expect(await size({ tags: ["vip"] })).toBe(9);
    expect(await size({ languages: ["ru"] })).toBe(10);
    expect(await size({ languages: ["en"] })).toBe(19); // "en" takes "en-GB"; 5 (blocked) is en
    expect(await size({ sources: ["ads"] })).toBe(4);
    expect(await size({ userIds: [String(uid(1)), String(uid(5)), "1"] })).toBe(1);
    expect(await size({ registeredTo: days(30) })).toBe(10);
    expect(await size({ tags: ["vip"], languages: ["ru"] })).toBe(4); // 0, 3, 6, 9
  });

  test("the users' facets: values with their reachable users, most first; blocked users left out", async () => {
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/users/facets`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    // user 5 (en-GB, vip) blocked the bot: not counted anywhere
    expect(r.body).toEqual({
      users: N - 1,
      tags: [{ value: "vip", users: 9 }],
      languages: [{ value: "en-GB", users: 19 }, { value: "ru", users: 10 }],
      sources: [{ value: "ads", users: 4 }],
    });
    // each count is the audience size of that one value
    expect(await size({ tags: ["vip"] })).toBe(r.body.tags[0].users);
    expect(await size({ sources: ["ads"] })).toBe(r.body.sources[0].users);
    expect((await env.call("GET", `/api/bot/tokens/999999/users/facets`, { cookie: env.cookie })).status).toBe(404);
  });

  test("bad audiences are 400", async () => {
    for (const bad of [{ filter: "some" }, { activeWithinDays: 0 }, { tags: "vip" }, { userIds: ["abc"] }, { registeredFrom: "yesterday" }, { extra: 1 }]) {
      const r = await env.call("POST", `${base()}/audience-size`, { cookie: env.cookie, json: bad });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
  });
});

/** The message store's records of campaign sends to a chat, with their format (bot_message_details). */
const campaignRecords = (chatId: number) =>
  env.t.ctx.projectFiles
    .open(projectId)
    .$client.query("SELECT m.text, d.format FROM bot_messages m LEFT JOIN bot_message_details d ON d.id = m.id WHERE m.token_id = ? AND m.chat_id = ? AND m.sent_by = 'campaign' ORDER BY m.id")
    .all(tokenId, String(chatId));

describe("a campaign's life", () => {
  test("created as a draft, changed, listed; started: the segment gets it once, rendered per user", async () => {
    const c = await create({ name: "VIP news", message: { text: "Hello {first_name} from {city}", buttons: [[{ text: "Site", url: "https://example.com" }, { text: "Menu", goto: "menu" }]] }, audience: { tags: ["vip"] } });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: "VIP news", status: "draft", audienceSize: null, source: "api", counts: { pending: 0, sent: 0, failed: 0, blocked: 0 }, createdBy: OWNER });
    const id = c.body.id as number;
    const p = await env.call("PATCH", `${base()}/${id}`, { cookie: env.cookie, json: { name: "VIP news 2" } });
    expect(p.status).toBe(200);
    expect(p.body.name).toBe("VIP news 2");
    const events: { status: string; counts: { sent: number } }[] = [];
    const off = env.t.ctx.events.on("campaign", (e) => void (e.campaignId === id && events.push(e)));
    // each chat's new record reaches the Studio's live Dialogs, as a bot's and an operator's do
    const chatEvents: { tokenId: number; chatId: string; messageId: number }[] = [];
    const offChats = env.t.ctx.events.on("chat-message", (e) => void chatEvents.push(e));
    const s = await act(id, "start");
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ status: "sending", audienceSize: 9 });
    await finished(id);
    // the sender's thread commits "done" and then tells the server: the event may come a moment after
    await until(async () => events.at(-1)?.status === "done", "the done event");
    await until(() => chatEvents.length >= 9, "a chat-message event per recipient");
    off();
    offChats();
    expect(chatEvents.map((e) => Number(e.chatId) - 7_100_000).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
    expect(new Set(chatEvents.map((e) => e.tokenId))).toEqual(new Set([tokenId]));
    const done = await get(id);
    expect(done).toMatchObject({ status: "done", audienceSize: 9, counts: { pending: 0, sent: 9, failed: 0, blocked: 0 } });
    expect(done.finishedAt).toBeString();
    expect(receivedBy("Hello")).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
    const toFirst = env.fake.sent(botToken, uid(1)).find((m) => String(m.params.text).startsWith("Hello"))!;
    expect(toFirst.params.text).toBe("Hello U1 from C1");
    expect(toFirst.params.reply_markup).toMatchObject({ inline_keyboard: [[{ text: "Site", url: "https://example.com" }, { text: "Menu", callback_data: "o:menu" }]] });
    expect(events.at(-1)).toMatchObject({ status: "done", counts: { sent: 9 } });
    // the chat's record holds what the user got, not the template (docs/dialogs.md)
    expect(campaignRecords(uid(1))).toEqual([{ text: "Hello U1 from C1", format: null }]);
    // the recipients list and its filter
    const r = await env.call("GET", `${base()}/${id}/recipients?status=sent&perPage=5`, { cookie: env.cookie });
    expect(r.body).toMatchObject({ total: 9, page: 1, perPage: 5 });
    // with the user's names, so the report can show who they are
    expect(r.body.items[0]).toEqual({ userId: String(uid(0)), firstName: "U0", lastName: null, username: null, status: "sent", error: null, sentAt: expect.any(String), deletedAt: null });
    // the report as CSV, in send order
    const csv = await env.call("GET", `${base()}/${id}/recipients/export`, { cookie: env.cookie });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = csv.text.trim().split("\n");
    expect(lines[0]).toBe("userId,firstName,username,status,error,sentAt,deletedAt");
    expect(lines.length).toBe(10);
    expect(lines[1]!.startsWith(`${uid(0)},U0,,sent,,`)).toBe(true);
    // the list's filter applies (the Studio links the export with it); each download starts with
    // the UTF-8 BOM once (Excel reads it as UTF-8), an empty one too: [query, lines with the header]
    for (const [q, n] of [["", 10], ["?status=failed", 1], ["?status=sent", 10]] as const) {
      const r = await env.call("GET", `${base()}/${id}/recipients/export${q}`, { cookie: env.cookie });
      expectOneBom(r.bytes, `recipients/export${q}`);
      expect(r.text.trim().split("\n")).toHaveLength(n);
      expect(r.text.split("\n")[0]).toBe(lines[0]);
    }
    expect((await env.call("GET", `${base()}/${id}/recipients/export?status=nope`, { cookie: env.cookie })).status).toBe(400);
    // a finished campaign is not changed, not started again
    expect((await env.call("PATCH", `${base()}/${id}`, { cookie: env.cookie, json: { name: "x" } })).status).toBe(409);
    expect((await act(id, "start")).status).toBe(409);
    // the list shows it
    const list = await env.call("GET", base(), { cookie: env.cookie });
    expect(list.body.items.some((x: { id: number }) => x.id === id)).toBe(true);
  });

  test("a formatted campaign is recorded with its format, as the user got it", async () => {
    const c = await create({ name: "Bold", message: { text: "<b>Hi {first_name}</b>", format: "html" }, audience: { userIds: [String(uid(2))] } });
    const id = c.body.id as number;
    expect((await act(id, "start")).status).toBe(200);
    await finished(id);
    expect(campaignRecords(uid(2)).at(-1)).toEqual({ text: "<b>Hi U2</b>", format: "html" });
  });

  test("a test send reaches only the named users and is not counted; its chat shows it, live", async () => {
    const c = await create({ name: "T", message: { text: "Test {first_name}" }, audience: {} });
    const id = c.body.id;
    const chatEvents: { chatId: string; messageId: number }[] = [];
    const off = env.t.ctx.events.on("chat-message", (e) => void chatEvents.push(e));
    const r = await env.call("POST", `${base()}/${id}/test`, { cookie: env.cookie, json: { userIds: [String(uid(2))] } });
    off();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ sent: 1, failed: 0 });
    expect(receivedBy("Test U2")).toEqual([2]);
    // what the bot sent in the chat is in its record, as a campaign's message, and an open chat hears of it
    expect(campaignRecords(uid(2)).at(-1)).toEqual({ text: "Test U2", format: null });
    const newest = env.t.ctx.projectFiles.open(projectId).$client.query("SELECT max(id) AS id FROM bot_messages WHERE token_id = ? AND chat_id = ?").get(tokenId, String(uid(2))) as { id: number };
    expect(chatEvents).toEqual([expect.objectContaining({ chatId: String(uid(2)), messageId: newest.id })]);
    const after = await get(id);
    expect(after).toMatchObject({ status: "draft", counts: { pending: 0, sent: 0, failed: 0 } });
    expect((await env.call("POST", `${base()}/${id}/test`, { cookie: env.cookie, json: { userIds: Array.from({ length: 11 }, (_, i) => String(uid(i))) } })).status).toBe(400);
    await env.call("DELETE", `${base()}/${id}`, { cookie: env.cookie });
  });

  test("a 429 with retry_after in the middle loses no one; a user who blocked the bot is failed 'blocked' and marked", async () => {
    env.fake.setBlocked(uid(7), true);
    const c = await create({ name: "All", message: { text: "Everyone" }, audience: {} });
    const id = c.body.id;
    env.fake.failNext(botToken, "sendMessage", { error_code: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
    expect((await act(id, "start")).status).toBe(200);
    await finished(id);
    const done = await get(id);
    expect(done.counts).toEqual({ pending: 0, sent: N - 2, failed: 1, blocked: 1, deactivated: 0, unknown: 0 });
    const got = receivedBy("Everyone");
    expect(got).toEqual([...Array(N).keys()].filter((i) => i !== 5 && i !== 7));
    const failed = await env.call("GET", `${base()}/${id}/recipients?status=failed`, { cookie: env.cookie });
    expect(failed.body.items).toEqual([{ userId: String(uid(7)), firstName: "U7", lastName: null, username: null, status: "failed", error: "blocked", sentAt: null, deletedAt: null }]);
    // the person is now blocked: the next audience leaves them out
    expect(await size({})).toBe(N - 2);
    env.fake.setBlocked(uid(7), false);
  });

  test("pause stops sending at once, resume finishes, cancel leaves the rest pending", async () => {
    await setPace(5);
    const id = await sendingActive("Slow", 2);
    const p = await act(id, "pause");
    expect(p.status).toBe(200);
    expect(p.body.status).toBe("paused");
    const atPause = receivedBy("Slow").length;
    expect(p.body.counts.sent).toBe(atPause);
    // a paused campaign sends nothing more (watched for a bounded window, as a "does not happen" test does)
    await Bun.sleep(600);
    expect(receivedBy("Slow").length).toBe(atPause);
    const r = await act(id, "resume");
    expect(r.body.status).toBe("sending");
    await finished(id);
    // 7 is blocked since the campaign above found out
    expect(receivedBy("Slow")).toEqual([...Array(20).keys()].filter((i) => i !== 5 && i !== 7));
    expect((await get(id)).counts).toMatchObject({ pending: 0, sent: 18 });
  });

  test("cancel while sending: the rest stays pending and is never sent; delete-sent; delete", async () => {
    const c = await create({ name: "Cancel", message: { text: "Cancel" }, audience: {} });
    const id = c.body.id;
    await act(id, "start");
    await until(() => receivedBy("Cancel").length >= 1, "one sent");
    expect((await env.call("DELETE", `${base()}/${id}`, { cookie: env.cookie })).status).toBe(409);
    expect((await act(id, "delete-sent")).status).toBe(409);
    const x = await act(id, "cancel");
    expect(x.body.status).toBe("cancelled");
    const sent = receivedBy("Cancel").length;
    expect(x.body.counts.sent).toBe(sent);
    expect(x.body.counts.pending).toBe(N - 2 - sent);
    await Bun.sleep(600);
    expect(receivedBy("Cancel").length).toBe(sent);
    expect((await act(id, "resume")).status).toBe(409);
    // the first deletion is refused as too old: that message stays in its chat, and in its record
    env.fake.failNext(botToken, "deleteMessage", { error_code: 400, description: "Bad Request: message can't be deleted for everyone" });
    const d = await act(id, "delete-sent");
    expect(d.status).toBe(200);
    expect(d.body.sentDeletedAt).toBeString();
    expect(env.fake.calls(botToken, "deleteMessage").length).toBe(sent);
    // each chat's record of the campaign's message shows it deleted, as an operator's deletion does
    // (the chats a running bot would have recorded)
    const file = env.t.ctx.projectFiles.open(projectId);
    for (const i of receivedBy("Cancel")) file.insert(projectBotChats).values({ tokenId, chatId: String(uid(i)), userId: String(uid(i)), firstName: `U${i}` }).onConflictDoNothing().run();
    const records = await Promise.all(
      receivedBy("Cancel").map(async (i) => {
        const page = await env.call("GET", `/api/bot/tokens/${tokenId}/chats/${uid(i)}/messages`, { cookie: env.cookie });
        return page.body.items.find((m: { text: string; sentBy: string }) => m.text === "Cancel" && m.sentBy === "campaign") as { deletedAt: string | null };
      }),
    );
    expect(records.filter((m) => m.deletedAt === null).length).toBe(1);
    expect(records.filter((m) => m.deletedAt !== null).length).toBe(sent - 1);
    // the report marks each recipient whose message was removed, when; not the one too old to delete
    type Row = { userId: string; status: string; deletedAt: string | null };
    const report = async (status: string) => (await env.call("GET", `${base()}/${id}/recipients?status=${status}&perPage=100`, { cookie: env.cookie })).body.items as Row[];
    const kept = String(env.fake.calls(botToken, "deleteMessage")[0]!.params.chat_id);
    const sentRows = await report("sent");
    expect(sentRows.length).toBe(sent);
    for (const r of sentRows) expect([r.userId, r.deletedAt]).toEqual(r.userId === kept ? [kept, null] : [r.userId, expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)]);
    expect((await report("pending")).every((r) => r.deletedAt === null)).toBe(true);
    const csv = (await env.call("GET", `${base()}/${id}/recipients/export?status=sent`, { cookie: env.cookie })).text.replace(/^\uFEFF/, "").trim().split("\n");
    expect(csv[0]).toBe("userId,firstName,username,status,error,sentAt,deletedAt");
    expect(csv.slice(1).map((l) => [l.split(",")[0], l.split(",")[6] !== ""])).toEqual(sentRows.map((r) => [r.userId, r.userId !== kept]));
    // a later delete-sent tries the one left again, and marks it once the messenger deletes it
    expect((await act(id, "delete-sent")).status).toBe(200);
    expect(env.fake.calls(botToken, "deleteMessage").length).toBe(sent + 1);
    expect((await report("sent")).every((r) => r.deletedAt !== null)).toBe(true);
    expect((await env.call("DELETE", `${base()}/${id}`, { cookie: env.cookie })).status).toBe(200);
    expect((await env.call("GET", `${base()}/${id}`, { cookie: env.cookie })).status).toBe(404);
    await setPace(25);
  });
});

describe("one pace per token", () => {
  test("a campaign (sent by the sender's thread) and an operator's sends (Dialogs, on the event loop) share the token's pace", async () => {
    const PACE = 4;
    await setPace(PACE);
    const users = [10, 11, 12, 13, 14, 15, 16, 17].map((i) => String(uid(i)));
    const c = await create({ name: "Shared pace", message: { text: "Shared campaign" }, audience: { userIds: users } });
    expect((await act(c.body.id, "start")).status).toBe(200);
    env.t.ctx.projectFiles.open(projectId).insert(projectBotChats).values({ tokenId, chatId: String(uid(1)), userId: String(uid(1)), firstName: "U1" }).onConflictDoNothing().run();
    const operator = Array.from({ length: 8 }, (_, i) =>
      env.call("POST", `/api/bot/tokens/${tokenId}/chats/${uid(1)}/messages`, { cookie: env.cookie, json: { text: `Shared operator ${i}` } }),
    );
    expect((await Promise.all(operator)).map((r) => r.status)).toEqual(Array(8).fill(201));
    await finished(c.body.id);
    const sends = env.fake.sent(botToken).filter((m) => m.method === "sendMessage" && String(m.params.text).startsWith("Shared"));
    expect(sends.length).toBe(16);
    // 16 sends in one budget of PACE a second take (16 - 1) / PACE s at least; with a budget each
    // (thread and event loop) they would take half that. The margin allows for a late first arrival.
    const span = (sends.at(-1)!.at - sends[0]!.at) / 1000;
    expect(span).toBeGreaterThan(15 / PACE - 0.75);
    await setPace(25);
  });
});

describe("the sender's thread", () => {
  test("a thread that dies mid-campaign: what it had in flight is failed 'unknown', a new thread sends the rest, nobody gets it twice", async () => {
    await setPace(10);
    const id = await sendingActive("Survive", 3);
    // a crash, not SendThread.end: a message the thread cannot read throws outside its own error handling
    const thread = (env.t.ctx.campaigns as unknown as { thread: { worker: { post(m: unknown): void } } }).thread;
    thread.worker.post(null);
    await finished(id);
    const got = receivedBy("Survive");
    expect(new Set(got).size).toBe(got.length);
    const done = await get(id);
    expect(done.status).toBe("done");
    expect(done.counts.pending).toBe(0);
    // What was in flight may or may not have reached the messenger (docs/campaigns.md): each
    // recipient marked sent got it, and of those marked unknown some may have.
    expect(got.length).toBeGreaterThanOrEqual(done.counts.sent);
    expect(got.length).toBeLessThanOrEqual(done.counts.sent + done.counts.unknown);
    expect(done.counts.sent + done.counts.failed).toBe(done.audienceSize);
    expect(done.counts.failed).toBe(done.counts.unknown);
    expect(env.t.logs.some((l) => l.includes("The campaign sender's thread stopped"))).toBe(true);
    await setPace(25);
  });
});

describe("media", () => {
  test("a project's photo: uploaded to the first recipient, the messenger's file id for the rest; a caption over 1024 is 400", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const media = await env.t.ctx.media.upload(projectId, new File([png], "a.png", { type: "image/png" }));
    expect((await create({ name: "Long", message: { text: "x".repeat(1025), mediaId: media.id } })).status).toBe(400);
    const c = await create({ name: "Photo", message: { text: "Look, {first_name}", mediaId: media.id }, audience: { userIds: [String(uid(1)), String(uid(2))] } });
    expect(c.status).toBe(201);
    await act(c.body.id, "start");
    await finished(c.body.id);
    const photos = env.fake.sent(botToken).filter((x) => x.method === "sendPhoto" && String(x.params.caption).startsWith("Look"));
    expect(photos.map((x) => [Number(x.params.chat_id) - 7_100_000, x.params.caption])).toEqual([
      [1, "Look, U1"],
      [2, "Look, U2"],
    ]);
    // the second send names the file the first one uploaded
    expect(typeof photos[1]!.params.photo).toBe("string");
    expect((await get(c.body.id)).counts).toMatchObject({ sent: 2, failed: 0 });
  });
});

describe("albums", () => {
  /** each file's bytes differ (its name in them), with the head the upload's sniffing expects of its type */
  const HEADS: Record<string, string> = { "image/png": "\x89PNG\r\n\x1a\n", "video/mp4": "\0\0\0\x18ftypmp42", "application/pdf": "%PDF-1.4\n", "audio/mpeg": "ID3\x04\0\0" };
  const upload = (name: string, type: string) => env.t.ctx.media.upload(projectId, new File([Uint8Array.from(HEADS[type]! + name, (ch) => ch.charCodeAt(0))], name, { type }));

  test("photos and a video in one media group: uploaded once, the caption on the first, recorded, tested, deleted whole", async () => {
    const [a, b, v] = [await upload("a.png", "image/png"), await upload("b.png", "image/png"), await upload("c.mp4", "video/mp4")];
    const to = [String(uid(11)), String(uid(12))];
    const c = await create({ name: "Album", message: { text: "<b>Look</b>, {first_name}", format: "html", mediaIds: [a.id, b.id, v.id] }, audience: { userIds: to } });
    expect(c.status).toBe(201);
    expect(c.body.message.mediaIds).toEqual([a.id, b.id, v.id]);
    // a test goes out as the album too, and is not counted
    const test = await env.call("POST", `${base()}/${c.body.id}/test`, { cookie: env.cookie, json: { userIds: [String(uid(13))] } });
    expect(test.body).toEqual({ sent: 1, failed: 0 });
    expect(env.fake.sent(botToken, uid(13)).filter((x) => x.method === "sendMediaGroup").length).toBe(1);
    expect((campaignRecords(uid(13)) as { text: string }[]).slice(-3).map((r) => r.text)).toEqual(["<b>Look</b>, U13", "", ""]);
    await act(c.body.id, "start");
    await finished(c.body.id);
    const groups = env.fake.sent(botToken).filter((x) => x.method === "sendMediaGroup" && [uid(11), uid(12)].includes(Number(x.params.chat_id)));
    expect(groups.map((x) => Number(x.params.chat_id) - 7_100_000)).toEqual([11, 12]);
    const items = groups.map((x) => x.params.media as { type: string; media: unknown; caption?: string; parse_mode?: string }[]);
    expect(items[0]!.map((m) => m.type)).toEqual(["photo", "photo", "video"]);
    expect(items[1]!.map((m) => [m.caption, m.parse_mode])).toEqual([["<b>Look</b>, U12", "HTML"], [undefined, undefined], [undefined, undefined]]);
    // the first send uploads the files; the next names them by the file ids the messenger answered
    expect(items[0]!.every((m) => typeof m.media === "object")).toBe(true);
    expect(items[1]!.every((m) => typeof m.media === "string" && !String(m.media).startsWith("attach://"))).toBe(true);
    expect((await get(c.body.id)).counts).toMatchObject({ sent: 2, failed: 0 });
    // the chat's record: each message of the album, the caption on the first (Dialogs shows them)
    const records = env.t.ctx.projectFiles
      .open(projectId)
      .$client.query(
        "SELECT m.kind, m.text, m.messenger_message_id AS id, d.file_id AS fileId, d.media_id AS mediaId, d.format FROM bot_messages m LEFT JOIN bot_message_details d ON d.id = m.id " +
          "WHERE m.token_id = ? AND m.chat_id = ? AND m.sent_by = 'campaign' AND m.kind <> 'text' ORDER BY m.id",
      )
      .all(tokenId, String(uid(11))) as { kind: string; text: string; id: number; fileId: string | null; mediaId: number | null; format: string | null }[];
    expect(records.map((r) => [r.kind, r.text, r.mediaId, r.format])).toEqual([["photo", "<b>Look</b>, U11", a.id, "html"], ["photo", "", b.id, null], ["video", "", v.id, null]]);
    // each with the messenger's file id: Dialogs shows a recorded message's file when it has one (hasFile)
    expect(records.every((r) => typeof r.fileId === "string" && r.fileId.length > 0)).toBe(true);
    // delete-sent deletes every message of each album
    expect((await act(c.body.id, "delete-sent")).body.sentDeletedAt).not.toBeNull();
    const deletes = env.fake.calls(botToken, "deleteMessages").filter((x) => Number(x.params.chat_id) === uid(11));
    expect(deletes.map((x) => x.params.message_ids)).toEqual([records.map((r) => r.id)]);
  });

  test("bad albums are 400: 1 or 11 files, another project's, documents with photos, audio with video, buttons, a long caption, both mediaId and mediaIds", async () => {
    const [p1, p2, d, au, v] = [await upload("p1.png", "image/png"), await upload("p2.png", "image/png"), await upload("d.pdf", "application/pdf"), await upload("s.mp3", "audio/mpeg"), await upload("v.mp4", "video/mp4")];
    const other = env.t.ctx.projects.create(OWNER, { name: "Other", data: { version: 2, sheets: [] } } as never).id;
    const foreign = await env.t.ctx.media.upload(other, new File([Uint8Array.from(HEADS["image/png"]! + "f", (ch) => ch.charCodeAt(0))], "f.png", { type: "image/png" }));
    const eleven = Array.from({ length: 11 }, (_, i) => p1.id + 1000 + i);
    const cases: [unknown, RegExp][] = [
      [{ text: "x", mediaIds: [p1.id] }, /2\.\.10/],
      [{ text: "x", mediaIds: eleven }, /2\.\.10/],
      [{ text: "x", mediaIds: [p1.id, p1.id] }, /once/],
      [{ text: "x", mediaIds: [p1.id, foreign.id] }, new RegExp(`media file ${foreign.id} is not in the project`)],
      [{ text: "x", mediaIds: [p1.id, d.id] }, /documents only/],
      [{ text: "x", mediaIds: [v.id, au.id] }, /audio only/],
      [{ text: "x", mediaIds: [p1.id, p2.id], buttons: [[{ text: "Site", url: "https://example.com" }]] }, /cannot carry buttons/],
      [{ text: "x".repeat(1025), mediaIds: [p1.id, p2.id] }, /1024/],
      [{ text: "x", mediaId: p1.id, mediaIds: [p1.id, p2.id] }, /not both/],
    ];
    for (const [message, why] of cases) {
      const r = await create({ name: "Bad album", message });
      expect([JSON.stringify(message).slice(0, 60), r.status]).toEqual([JSON.stringify(message).slice(0, 60), 400]);
      expect(r.body.message).toMatch(why);
    }
    // the same rules on PATCH; documents only and audio only are albums
    const ok = await create({ name: "Docs", message: { text: "x", mediaIds: [d.id, (await upload("e.pdf", "application/pdf")).id] } });
    expect(ok.status).toBe(201);
    expect((await env.call("PATCH", `${base()}/${ok.body.id}`, { cookie: env.cookie, json: { message: { text: "x", mediaIds: [d.id, p1.id] } } })).status).toBe(400);
  });
});

describe("bad input", () => {
  const future = () => new Date(Date.now() + 3_600_000).toISOString();
  test("create refuses past and malformed schedules, long texts, unknown media, tags and nodes", async () => {
    const msg = { text: "x" };
    const bad: unknown[] = [
      { name: "a", message: msg, scheduledAt: "2020-01-01T00:00:00Z" },
      { name: "a", message: msg, scheduledAt: "tomorrow" },
      { name: "a", message: msg, scheduledAt: "2030-13-45T99:00" },
      { name: "a", message: { text: "x".repeat(4097) } },
      { name: "a", message: { text: "x", mediaId: 999 } },
      { name: "a", message: msg, audience: { tags: ["nobody-has-this"] } },
      { name: "a", message: { text: "x", buttons: [[{ text: "b", goto: "nope" }]] } },
      { name: "", message: msg },
      { message: msg },
      { name: "a", message: { text: "" } },
      { name: "a", message: { text: "x", buttons: [[{ text: "b", url: "javascript:alert(1)" }]] } },
    ];
    for (const json of bad) {
      const r = await create(json);
      expect([JSON.stringify(json).slice(0, 80), r.status, r.body.error]).toEqual([JSON.stringify(json).slice(0, 80), 400, "VALIDATION_FAILED"]);
    }
  });

  test("a scheduled campaign; PATCH to null makes it a draft; an empty audience cannot start", async () => {
    const c = await create({ name: "Later", message: { text: "Later" }, scheduledAt: future() });
    expect(c.body.status).toBe("scheduled");
    const p = await env.call("PATCH", `${base()}/${c.body.id}`, { cookie: env.cookie, json: { scheduledAt: null, audience: { userIds: ["1"] } } });
    expect(p.body).toMatchObject({ status: "draft", scheduledAt: null });
    const s = await act(c.body.id, "start");
    expect(s.status).toBe(400);
    expect(s.body.message).toContain("empty");
    expect((await env.call("PATCH", `${base()}/${c.body.id}`, { cookie: env.cookie, json: { scheduledAt: "2001-01-01" } })).status).toBe(400);
  });

  test("a schedule in the campaign's time zone: wall times read there, instants kept; bad zones are 400", async () => {
    const year = new Date().getUTCFullYear() + 1;
    const c = await create({ name: "Moscow", message: { text: "M" }, scheduledAt: `${year}-12-01T10:00`, timeZone: "Europe/Moscow" });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ status: "scheduled", scheduledAt: `${year}-12-01T07:00:00.000Z`, timeZone: "Europe/Moscow" });
    // an offset wins over the zone; the zone stays what the Studio shows it in
    const p = await env.call("PATCH", `${base()}/${c.body.id}`, { cookie: env.cookie, json: { scheduledAt: `${year}-12-01T10:00Z` } });
    expect(p.body).toMatchObject({ scheduledAt: `${year}-12-01T10:00:00.000Z`, timeZone: "Europe/Moscow" });
    // a DST zone: New York in July is UTC-4, in January UTC-5
    const ny = await env.call("PATCH", `${base()}/${c.body.id}`, { cookie: env.cookie, json: { scheduledAt: `${year}-07-01T09:00`, timeZone: "America/New_York" } });
    expect(ny.body).toMatchObject({ scheduledAt: `${year}-07-01T13:00:00.000Z`, timeZone: "America/New_York" });
    const jan = await env.call("PATCH", `${base()}/${c.body.id}`, { cookie: env.cookie, json: { scheduledAt: `${year + 1}-01-01T09:00` } });
    expect(jan.body.scheduledAt).toBe(`${year + 1}-01-01T14:00:00.000Z`);
    expect((await get(c.body.id)).timeZone).toBe("America/New_York");
    // without one, UTC
    const utc = await create({ name: "UTC", message: { text: "U" }, scheduledAt: `${year}-12-01T10:00` });
    expect(utc.body).toMatchObject({ scheduledAt: `${year}-12-01T10:00:00.000Z`, timeZone: "UTC" });
    for (const timeZone of ["Mars/Olympus", "", 3, "Europe/Moscow\n"]) {
      const r = await create({ name: "Bad zone", message: { text: "x" }, scheduledAt: `${year}-12-01T10:00`, timeZone });
      expect([timeZone, r.status]).toEqual([timeZone, 400]);
    }
    expect((await env.call("PATCH", `${base()}/${c.body.id}`, { cookie: env.cookie, json: { timeZone: "Nowhere/City" } })).status).toBe(400);
    await env.call("DELETE", `${base()}/${c.body.id}`, { cookie: env.cookie });
    await env.call("DELETE", `${base()}/${utc.body.id}`, { cookie: env.cookie });
  });

  test("a schedule a moment away starts on its own", async () => {
    const c = await create({ name: "Soon", message: { text: "Soon" }, audience: { userIds: [String(uid(3))] }, scheduledAt: new Date(Date.now() + 300).toISOString() });
    expect(c.body.status).toBe("scheduled");
    await finished(c.body.id);
    expect(receivedBy("Soon")).toEqual([3]);
  });

  test("two starts at once: one wins, the other is 409", async () => {
    const c = await create({ name: "Race", message: { text: "Race" }, audience: { userIds: [String(uid(1))] } });
    const [a, b] = await Promise.all([act(c.body.id, "start"), act(c.body.id, "start")]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    await finished(c.body.id);
    expect(receivedBy("Race")).toEqual([1]);
  });

  test("unknown campaign and ids are 404/400; pause of a draft is 409", async () => {
    expect((await env.call("GET", `${base()}/99999`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("GET", `${base()}/abc`, { cookie: env.cookie })).status).toBe(400);
    const c = await create({ name: "D", message: { text: "D" } });
    expect((await act(c.body.id, "pause")).status).toBe(409);
    expect((await env.call("GET", `${base()}/${c.body.id}/recipients?status=bogus`, { cookie: env.cookie })).status).toBe(400);
  });
});

describe("a purged project", () => {
  test("its campaign stops: the sender's thread closes the file and sends nothing more", async () => {
    const other = env.t.ctx.projects.create(OWNER, { name: "Purged" } as never).id;
    const { tokenId: otherToken, bot } = await addToken(env, other);
    const db = env.t.ctx.projectFiles.open(other);
    const now = new Date().toISOString();
    for (let i = 0; i < 20; i++) db.insert(projectBotUsers).values({ tokenId: otherToken, userId: String(7_200_000 + i), firstSeenAt: now, lastSeenAt: now }).run();
    await env.call("PATCH", `/api/bot/tokens/${otherToken}`, { cookie: env.cookie, json: { sendsPerSecond: 5 } });
    const c = await env.call("POST", `/api/bot/tokens/${otherToken}/campaigns`, { cookie: env.cookie, json: { name: "Doomed", message: { text: "Doomed" }, audience: {} } });
    await env.call("POST", `/api/bot/tokens/${otherToken}/campaigns/${c.body.id}/start`, { cookie: env.cookie });
    const sent = () => env.fake.sent(bot.token).filter((m) => m.method === "sendMessage").length;
    await until(() => sent() >= 2, "two sent");
    expect((await env.call("DELETE", `/api/projects/${other}`, { cookie: env.cookie })).status).toBe(200);
    expect(await env.t.ctx.projects.purge(other)).toBe(true);
    expect(env.t.ctx.campaigns.isRunning(other, c.body.id)).toBe(false);
    const atPurge = sent();
    // nothing more goes out (watched for a bounded window, as a "does not happen" test does)
    await Bun.sleep(800);
    expect(sent()).toBe(atPurge);
  });
});

describe("a deleted token", () => {
  test("takes its campaigns and recipients with it", async () => {
    const db = env.t.ctx.projectFiles.open(projectId);
    const count = (table: string) => (db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count("campaigns")).toBeGreaterThan(0);
    expect(count("campaign_recipients")).toBeGreaterThan(0);
    expect((await env.call("DELETE", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie })).status).toBe(200);
    expect([count("campaigns"), count("campaign_recipients")]).toEqual([0, 0]);
  });
});

describe("delete-sent: which refusals mean the message is gone from its chat", () => {
  test.each([
    ["the messenger no longer has it", new MessengerError("rejected", "deleteMessage failed: Bad Request: message to delete not found", 400), true],
    ["too old to delete (it stays)", new MessengerError("rejected", "deleteMessage failed: Bad Request: message can't be deleted for everyone", 400), false],
    ["a rejected token, answered Not Found", new MessengerError("unauthorized", "The messenger platform rejected the bot token: Not Found", 404), false],
    ["a network error that happens to say not found", new MessengerError("unreachable", "The messenger platform could not be reached (deleteMessage): host not found"), false],
    ["no messenger error at all", new Error("message to delete not found"), false],
  ])("%s", (_name, error, gone) => {
    expect(messageGone(error)).toBe(gone);
  });
});
