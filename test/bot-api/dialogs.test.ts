// Dialogs over HTTP (docs/dialogs.md, docs/api.md "Dialogs"): the chat list
// with its filters and paging, a chat's messages paged back, an operator's send with buttons and
// media through the fake messenger (the bot does not run), edit, delete, takeover with resume, read,
// 409 BOT_BLOCKED, the live event, and bad input answered 400/404 in the error shape.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { projectBotChats, projectBotMessages, projectBotPeople, projectBotUsers } from "../../src/db/project-schema";
import { addToken, botApiEnv, COLLAB, createProject, expectNoSecrets, OWNER, STRANGER, type BotApiEnv } from "./support";
import { loginAs, patFor } from "../support/app";
import { plainText } from "../../src/modules/dialogs/plain-text";

let env: BotApiEnv;
let projectId: number;
let otherProjectId: number;
let tokenId: number;
let botToken: string;
const USER = 7_000_001;
const GROUP = "-1001234567890123";

const at = (minutes: number) => new Date(Date.parse("2026-03-01T10:00:00.000Z") + minutes * 60_000).toISOString();
const base = () => `/api/bot/tokens/${tokenId}/chats`;

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  otherProjectId = createProject(env, OWNER, "Other");
  env.t.ctx.projects.update(projectId, OWNER, {
    data: { version: 2, sheets: [{ id: "s1", name: "Main", nodes: [{ id: "menu", type: "message", position: { x: 0, y: 0 }, data: { messageText: "Menu" } }], edges: [] }] },
  } as never);
  const a = await addToken(env, projectId);
  tokenId = a.tokenId;
  botToken = a.bot.token;
  // the user exists on the fake platform (an operator can only write to someone who wrote first)
  env.fake.sendText(botToken, { id: USER, first_name: "Ann" } as never, "hello");
  const db = env.t.ctx.projectFiles.open(projectId);
  db.insert(projectBotChats).values({ tokenId, chatId: String(USER), kind: "private", userId: String(USER), firstName: "Ann", username: "ann", lastMessageAt: at(30), lastMessageText: "hello", unread: 2 }).run();
  db.insert(projectBotChats).values({ tokenId, chatId: GROUP, kind: "supergroup", title: "Fans <b>", lastMessageAt: at(20), lastMessageText: "hi all", unread: 0, takeover: 1 }).run();
  for (let i = 0; i < 30; i++) db.insert(projectBotChats).values({ tokenId, chatId: String(8_000_000 + i), kind: "private", firstName: `P${i}`, lastMessageAt: at(i - 100) }).run();
  db.insert(projectBotPeople).values({ tokenId, userId: "8000003", blocked: 1, blockedAt: at(0), firstSeenAt: at(0), lastSeenAt: at(0) }).run();
  for (let i = 0; i < 120; i++) {
    db.insert(projectBotMessages).values({ tokenId, chatId: String(USER), direction: i % 2 ? "out" : "in", sentBy: i % 2 ? "bot" : "user", kind: "text", text: `m${i}`, nodeId: i % 2 ? "menu" : null, messengerMessageId: 1000 + i, createdAt: at(i / 10) }).run();
  }
});
afterAll(async () => {
  expectNoSecrets(env, [botToken]);
  await env.close();
});

describe("chat list", () => {
  test("most recent first, paged, with the contract's fields", async () => {
    const r = await env.call("GET", `${base()}?perPage=2`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(32);
    expect(r.body).toMatchObject({ page: 1, perPage: 2 });
    expect(r.body.items[0]).toEqual({ chatId: String(USER), kind: "private", title: null, userId: String(USER), firstName: "Ann", lastName: null, userName: "ann", lastMessageAt: at(30), lastMessageText: "hello", unread: 2, takeover: false, blocked: false });
    expect(r.body.items[1]).toMatchObject({ chatId: GROUP, kind: "supergroup", title: "Fans <b>", takeover: true });
    const last = await env.call("GET", `${base()}?perPage=10&page=4`, { cookie: env.cookie });
    expect(last.body.items.length).toBe(2);
    const clamped = await env.call("GET", `${base()}?perPage=5000`, { cookie: env.cookie });
    expect(clamped.body.perPage).toBe(200);
  });

  test("filters: unread, takeover, blocked, kind, search by name, @username and exact id", async () => {
    const ids = async (q: string) => (await env.call("GET", `${base()}?${q}`, { cookie: env.cookie })).body.items.map((c: { chatId: string }) => c.chatId);
    expect(await ids("filter=unread")).toEqual([String(USER)]);
    expect(await ids("filter=takeover")).toEqual([GROUP]);
    expect(await ids("filter=blocked")).toEqual(["8000003"]);
    expect(await ids("kind=supergroup")).toEqual([GROUP]);
    expect(await ids("search=fans")).toEqual([GROUP]);
    expect(await ids("search=%40ann")).toEqual([String(USER)]);
    expect(await ids("search=8000007")).toEqual(["8000007"]);
    expect(await ids("search=%25")).toEqual([]);
  });

  test("bad query values are 400 in the error shape", async () => {
    for (const q of ["kind=robot", "filter=x", "page=0", "page=abc", "perPage=0"]) {
      const r = await env.call("GET", `${base()}?${q}`, { cookie: env.cookie });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
  });
});

describe("search by last name and full name", () => {
  // A token of its own in the same project file (the chat list above keeps its 32 chats), and a
  // second token there whose users are foreign data to the first.
  let searchToken: number;
  const person = (n: number) => String(9_100_000 + n);
  // [n, first name (the chat's and the user's), last name of this token's user, last name the other token knows]
  const people: [number, string, string | null, string?][] = [
    [1, "Мария", "Иванова"],
    [2, "Мария", "Петрова"],
    [3, "Jane", "Doe"],
    [4, "Jane", "Roe"],
    [5, "Sam", "O_Neil"],
    [6, "Sam", "OxNeil"],
    [7, "Grace", "Hop%per"],
    [8, "Grace", "Hopxper"],
    [9, "Anna", "Sokolova"],
    [10, "Olga", null, "Sokolova"],
    [11, "Алёна", "Сёмина"],
  ];
  beforeAll(async () => {
    searchToken = (await addToken(env, projectId)).tokenId;
    const foreignToken = (await addToken(env, projectId)).tokenId;
    const db = env.t.ctx.projectFiles.open(projectId);
    const seen = { firstSeenAt: at(0), lastSeenAt: at(0) };
    for (const [n, firstName, lastName, foreignLastName] of people) {
      db.insert(projectBotChats).values({ tokenId: searchToken, chatId: person(n), kind: "private", userId: person(n), firstName, lastMessageAt: at(n) }).run();
      db.insert(projectBotUsers).values({ tokenId: searchToken, userId: person(n), firstName, lastName, ...seen }).run();
      if (foreignLastName) db.insert(projectBotUsers).values({ tokenId: foreignToken, userId: person(n), firstName, lastName: foreignLastName, ...seen }).run();
    }
  });
  const search = async (term: string) => {
    const r = await env.call("GET", `/api/bot/tokens/${searchToken}/chats?search=${encodeURIComponent(term)}`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(r.body.items.length);
    return r.body.items.map((c: { chatId: string }) => c.chatId).sort();
  };

  const cases: [string, string, number[]][] = [
    ["last name", "Doe", [3]],
    ["part of a last name", "Петр", [2]],
    ["last name, lower case (Cyrillic)", "иванова", [1]],
    ["last name, upper case (Cyrillic)", "ИВАНОВА", [1]],
    ["last name, ё typed as е", "семина", [11]],
    ["full name", "Мария Иванова", [1]],
    ["full name, other case", "мария петрова", [2]],
    ["full name, upper case (ASCII)", "JANE ROE", [4]],
    ["across the space of the full name", "ne D", [3]],
    ["last name first", "Иванова Мария", [1]],
    ["last name first, other case, part of the first name", "петрова мар", [2]],
    ["last name first (ASCII)", "roe jane", [4]],
    ["across the space of last name first", "e J", [3, 4]],
    ["a term that matches nobody", "Мария Сидорова", []],
    ["last name first, a pair nobody has", "Иванова Jane", []],
    ["another token's user with that last name does not match", "Sokolova", [9]],
    ["_ in the term is literal", "o_n", [5]],
    ["% in the term is literal", "p%p", [7]],
  ];
  test.each(cases)("%s: %p", async (_, term, expected) => {
    expect(await search(term)).toEqual(expected.map(person).sort());
  });

  test("a search's total counts every match; its pages hold them in order, with the last name", async () => {
    const page = async (n: number) => (await env.call("GET", `/api/bot/tokens/${searchToken}/chats?search=${encodeURIComponent("мария")}&perPage=1&page=${n}`, { cookie: env.cookie })).body;
    const [first, second, beyond] = [await page(1), await page(2), await page(3)];
    expect([first.total, second.total, beyond.total]).toEqual([2, 2, 2]);
    expect(first.items).toMatchObject([{ chatId: person(2), firstName: "Мария", lastName: "Петрова" }]);
    expect(second.items).toMatchObject([{ chatId: person(1), firstName: "Мария", lastName: "Иванова" }]);
    expect(beyond.items).toEqual([]);
  });
});

describe("messages", () => {
  test("newest page first, oldest first within it; before pages back; hasMore", async () => {
    const r = await env.call("GET", `${base()}/${USER}/messages?limit=50`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBe(50);
    expect(r.body.hasMore).toBe(true);
    expect(r.body.items.at(-1).text).toBe("m119");
    expect(r.body.items[0].text).toBe("m70");
    expect(r.body.items.at(-1)).toMatchObject({ direction: "out", sentBy: "bot", nodeId: "menu", messengerMessageId: 1119, operatorId: null, buttons: null, editedAt: null, deletedAt: null });
    const older = await env.call("GET", `${base()}/${USER}/messages?limit=200&before=${r.body.items[0].id}`, { cookie: env.cookie });
    expect(older.body.items.length).toBe(70);
    expect(older.body.hasMore).toBe(false);
    expect(older.body.items[0].text).toBe("m0");
  });

  test("unknown chat 404; bad chat id, before and limit 400", async () => {
    expect((await env.call("GET", `${base()}/424242/messages`, { cookie: env.cookie })).status).toBe(404);
    for (const path of [`${base()}/abc/messages`, `${base()}/${USER}/messages?before=x`, `${base()}/${USER}/messages?limit=201`, `${base()}/${USER}/messages?limit=0`]) {
      const r = await env.call("GET", path, { cookie: env.cookie });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
  });
});

describe("the chat list's text of a marked-up send", () => {
  test("HTML and Markdown lose their markup; plain text stays as written", () => {
    expect(plainText(`<b>Hi</b> <a href="https://x.example/?a=1&amp;b=2">there</a> &lt;3 &amp; &#128512; &bogus;`, "html")).toBe("Hi there <3 & 😀 &bogus;");
    expect(plainText("*Hi* _there_ [site](https://x.example) a\\_b \\*", "markdownv2")).toBe("Hi there site a_b *");
    expect(plainText("<b>not markup</b> *as is*", null)).toBe("<b>not markup</b> *as is*");
  });
});

describe("operator sends, edits, deletes", () => {
  test("a reply with a URL and a go-to-node button reaches the user; recorded as the operator's; a live event", async () => {
    const events: unknown[] = [];
    const off = env.t.ctx.events.on("chat-message", (e) => events.push(e));
    const r = await env.call("POST", `${base()}/${USER}/messages`, {
      cookie: env.cookie,
      json: { text: "<b>Hi</b>", format: "html", buttons: [[{ text: "Site", url: "https://example.com" }, { text: "Menu", goto: "menu" }]] },
    });
    off();
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ direction: "out", sentBy: "operator", operatorId: OWNER, kind: "text", text: "<b>Hi</b>", nodeId: null });
    expect(r.body.buttons).toEqual([[{ text: "Site", url: "https://example.com" }, { text: "Menu", data: "o:menu", goto: "menu" }]]);
    const call = env.fake.sent(botToken, USER).at(-1)!;
    expect(call.method).toBe("sendMessage");
    expect(call.params.parse_mode).toBe("HTML");
    expect(call.params.reply_markup.inline_keyboard[0][1].callback_data).toBe("o:menu");
    expect(r.body.messengerMessageId).toBe(call.messageId);
    expect(events).toEqual([{ projectId, tokenId, chatId: String(USER), messageId: r.body.id }]);
    const list = await env.call("GET", `${base()}?perPage=1`, { cookie: env.cookie });
    // the chat list shows the text the user saw, without the tags it was sent with
    expect(list.body.items[0].lastMessageText).toBe("Hi");

    const edited = await env.call("PATCH", `${base()}/${USER}/messages/${r.body.id}`, { cookie: env.cookie, json: { text: "Hello" } });
    expect(edited.status).toBe(200);
    expect(edited.body.text).toBe("Hello");
    expect(edited.body.editedAt).toBeString();
    const edit = env.fake.sent(botToken, USER).at(-1)!;
    expect(edit.method).toBe("editMessageText");
    expect(edit.params.reply_markup.inline_keyboard[0][0].url).toBe("https://example.com");

    const del = await env.call("DELETE", `${base()}/${USER}/messages/${r.body.id}`, { cookie: env.cookie });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect(env.fake.sent(botToken, USER).at(-1)!.method).toBe("deleteMessage");
    const page = await env.call("GET", `${base()}/${USER}/messages?limit=1`, { cookie: env.cookie });
    expect(page.body.items[0].deletedAt).toBeString();
  });

  test("a user's own message cannot be edited; unknown message 404", async () => {
    const r = await env.call("GET", `${base()}/${USER}/messages?limit=200`, { cookie: env.cookie });
    const incoming = r.body.items.find((m: { direction: string }) => m.direction === "in");
    expect((await env.call("PATCH", `${base()}/${USER}/messages/${incoming.id}`, { cookie: env.cookie, json: { text: "x" } })).status).toBe(400);
    expect((await env.call("PATCH", `${base()}/${USER}/messages/999999`, { cookie: env.cookie, json: { text: "x" } })).status).toBe(404);
    expect((await env.call("DELETE", `${base()}/${USER}/messages/999999`, { cookie: env.cookie })).status).toBe(404);
  });

  test("bad bodies: empty, over 4096, javascript: URL, unknown node, unknown fields, media of another project", async () => {
    const media = await env.t.ctx.media.upload(otherProjectId, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], "a.png", { type: "image/png" }));
    const bodies: [unknown, number][] = [
      [{ text: "" }, 400],
      [{ text: "   " }, 400],
      [{ text: "x".repeat(4097) }, 400],
      [{}, 400],
      [{ text: 5 }, 400],
      [{ text: "hi", format: "bbcode" }, 400],
      [{ text: "hi", buttons: [[{ text: "x", url: "javascript:alert(1)" }]] }, 400],
      [{ text: "hi", buttons: [[{ text: "x", url: "data:text/html,<script>" }]] }, 400],
      [{ text: "hi", buttons: [[{ text: "x", goto: "nowhere" }]] }, 400],
      [{ text: "hi", buttons: [[{ text: "x" }]] }, 400],
      [{ text: "hi", buttons: [[]] }, 400],
      [{ text: "hi", extra: 1 }, 400],
      [{ text: "hi", mediaId: -1 }, 400],
      [{ text: "hi", mediaId: media.id }, 404],
    ];
    const before = env.fake.sent(botToken, USER).length;
    for (const [json, status] of bodies) {
      const r = await env.call("POST", `${base()}/${USER}/messages`, { cookie: env.cookie, json });
      expect([JSON.stringify(json).slice(0, 60), r.status]).toEqual([JSON.stringify(json).slice(0, 60), status]);
      expect(r.body.error).toBe(status === 404 ? "NOT_FOUND" : "VALIDATION_FAILED");
    }
    expect(env.fake.sent(botToken, USER).length).toBe(before);
    expect((await env.call("POST", `${base()}/424242/messages`, { cookie: env.cookie, json: { text: "hi" } })).status).toBe(404);
  });

  test("a project's own media goes as a photo with the text as caption", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const media = await env.t.ctx.media.upload(projectId, new File([png], "a.png", { type: "image/png" }));
    const r = await env.call("POST", `${base()}/${USER}/messages`, { cookie: env.cookie, json: { text: "look", mediaId: media.id } });
    expect(r.status).toBe(201);
    expect(r.body.kind).toBe("photo");
    const call = env.fake.sent(botToken, USER).at(-1)!;
    expect([call.method, call.params.caption]).toEqual(["sendPhoto", "look"]);
  });

  test("a user who blocked the bot: 409 BOT_BLOCKED and marked blocked", async () => {
    env.fake.setBlocked(USER, true);
    try {
      const r = await env.call("POST", `${base()}/${USER}/messages`, { cookie: env.cookie, json: { text: "still there?" } });
      expect(r.status).toBe(409);
      expect(r.body.error).toBe("BOT_BLOCKED");
      const list = await env.call("GET", `${base()}?filter=blocked`, { cookie: env.cookie });
      expect(list.body.items.map((c: { chatId: string }) => c.chatId)).toContain(String(USER));
    } finally {
      env.fake.setBlocked(USER, false);
    }
  });

  test("a token that keeps no messages (retention 0): 409, nothing sent, nothing recorded", async () => {
    const retention = (days: number) => env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { messageRetentionDays: days } });
    expect((await retention(0)).status).toBe(200);
    try {
      const before = env.fake.sent(botToken, USER).length;
      const r = await env.call("POST", `${base()}/${USER}/messages`, { cookie: env.cookie, json: { text: "not kept" } });
      expect([r.status, r.body.error]).toEqual([409, "CONFLICT"]);
      expect(r.body.message).toContain("messageRetentionDays");
      expect(env.fake.sent(botToken, USER).length).toBe(before);
      const page = await env.call("GET", `${base()}/${USER}/messages?limit=5`, { cookie: env.cookie });
      expect(page.body.items.map((m: { text: string }) => m.text)).not.toContain("not kept");
    } finally {
      expect((await retention(30)).status).toBe(200);
    }
  });

  test("429 with retry_after is waited out and the send goes through", async () => {
    env.fake.failNext(botToken, "sendMessage", { error_code: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
    const r = await env.call("POST", `${base()}/${USER}/messages`, { cookie: env.cookie, json: { text: "after the wait" } });
    expect(r.status).toBe(201);
    expect(env.fake.sent(botToken, USER).at(-1)!.params.text).toBe("after the wait");
  });
});

describe("takeover and read", () => {
  test("on, off with resumeAt (told to the bot), bad node 400, unknown chat 404", async () => {
    const told: unknown[] = [];
    env.bots.tell = ((id: number, c: unknown) => (told.push([id, c]), true)) as never;
    const on = await env.call("PUT", `${base()}/${USER}/takeover`, { cookie: env.cookie, json: { on: true } });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ chatId: String(USER), takeover: true, resumed: false });
    expect((await env.call("GET", `${base()}?filter=takeover`, { cookie: env.cookie })).body.items.map((c: { chatId: string }) => c.chatId)).toContain(String(USER));
    const off = await env.call("PUT", `${base()}/${USER}/takeover`, { cookie: env.cookie, json: { on: false, resumeAt: "menu" } });
    expect(off.body).toEqual({ chatId: String(USER), takeover: false, resumed: true });
    expect(told).toEqual([[tokenId, { op: "resume", chatId: String(USER), nodeId: "menu" }]]);
    expect((await env.call("PUT", `${base()}/${USER}/takeover`, { cookie: env.cookie, json: { on: false, resumeAt: "nowhere" } })).status).toBe(400);
    expect((await env.call("PUT", `${base()}/${USER}/takeover`, { cookie: env.cookie, json: { on: "yes" } })).status).toBe(400);
    expect((await env.call("PUT", `${base()}/424242/takeover`, { cookie: env.cookie, json: { on: true } })).status).toBe(404);
  });

  test("read clears unread", async () => {
    const r = await env.call("POST", `${base()}/${USER}/read`, { cookie: env.cookie });
    expect(r.body).toEqual({ chatId: String(USER), unread: 0 });
    expect((await env.call("GET", `${base()}?filter=unread`, { cookie: env.cookie })).body.items).toEqual([]);
  });
});

describe("who may", () => {
  test("owner, collaborator, bot_manager PAT with messenger_id, PAT: yes; a stranger 404 as for a token that does not exist; no credentials 401", async () => {
    expect((await env.call("GET", base(), { bearer: env.pat })).status).toBe(200);
    expect((await env.call("GET", `${base()}?messenger_id=${OWNER}`, { bearer: env.managerPat })).status).toBe(200);
    expect((await env.call("GET", base())).status).toBe(401);
    const stranger = await loginAs(env.t, STRANGER);
    const s = await env.call("GET", base(), { cookie: stranger });
    expect([s.status, s.body.error]).toEqual([404, "NOT_FOUND"]);
    const s2 = await env.call("POST", `${base()}/${USER}/messages`, { bearer: patFor(env.t, STRANGER), json: { text: "hi" } });
    expect([s2.status, s2.body.error]).toEqual([404, "NOT_FOUND"]);
    expect(COLLAB).toBeNumber();
  });
});

describe("OpenAPI", () => {
  test("every dialogs and people route is published with its model", async () => {
    const r = await env.call("GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    const paths = r.body.paths;
    const chats = "/api/bot/tokens/{tokenId}/chats";
    expect(Object.keys(paths[chats])).toContain("get");
    expect(paths[chats].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["search", "kind", "filter", "page", "perPage"]));
    const send = paths[`${chats}/{chatId}/messages`].post.requestBody.content["application/json"].schema;
    expect(Object.keys(send.properties).sort()).toEqual(["buttons", "format", "mediaId", "text"]);
    expect(paths[`${chats}/{chatId}/messages/{messageId}`]).toHaveProperty("patch");
    expect(paths[`${chats}/{chatId}/messages/{messageId}`]).toHaveProperty("delete");
    expect(paths[`${chats}/{chatId}/takeover`].put.requestBody.content["application/json"].schema.properties).toHaveProperty("resumeAt");
    expect(paths[`${chats}/{chatId}/read`]).toHaveProperty("post");
    expect(paths["/api/bot/tokens/{tokenId}/users/{userId}/tags"]).toHaveProperty("put");
    expect(paths["/api/bot/tokens/{tokenId}/users/{userId}"]).toHaveProperty("delete");
    expect(paths["/api/bot/tokens/{tokenId}/users/export"]).toHaveProperty("get");
    expect(paths["/api/bot/tokens/{tokenId}/users"].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["filter", "language", "tag", "source", "sort"]));
  });
});
