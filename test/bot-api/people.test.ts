// The people of a bot over HTTP (docs/dialogs.md): the users list's
// filters and sort (the list's paging unchanged), the detail's added fields, tags, removal, CSV export.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { projectBotChats, projectBotMessages, projectBotPayments, projectBotPeople, projectBotState } from "../../src/db/project-schema";
import { addToken, botApiEnv, createProject, seedBotUser, type BotApiEnv } from "./support";
import { expectOneBom } from "../support/bom";

let env: BotApiEnv;
let projectId: number;
let tokenId: number;

const now = Date.now();
const daysAgo = (d: number) => new Date(now - d * 86_400_000).toISOString();
const users = () => `/api/bot/tokens/${tokenId}/users`;
const ids = async (q: string) => {
  const r = await env.call("GET", `${users()}?limit=50&${q}`, { cookie: env.cookie });
  expect(r.status).toBe(200);
  return r.body.items.map((u: { userId: string }) => u.userId);
};

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  tokenId = (await addToken(env, projectId)).tokenId;
  seedBotUser(env, projectId, tokenId, { userId: "101", firstName: "Zed", firstSeenAt: daysAgo(50), lastSeenAt: daysAgo(1) });
  seedBotUser(env, projectId, tokenId, { userId: "102", firstName: "amy", firstSeenAt: daysAgo(40), lastSeenAt: daysAgo(45) });
  seedBotUser(env, projectId, tokenId, { userId: "103", firstName: "=HYPERLINK(\"x\")", firstSeenAt: daysAgo(30), lastSeenAt: daysAgo(2) });
  const db = env.t.ctx.projectFiles.open(projectId);
  db.$client.query("UPDATE bot_users SET language_code = ?, variables = ? WHERE user_id = ?").run("ru", JSON.stringify({ city: "Riga" }), "101");
  db.insert(projectBotPeople).values({ tokenId, userId: "101", isPremium: 1, source: "ref_42", referrerId: "42", tags: '["vip"]', firstSeenAt: daysAgo(50), lastSeenAt: daysAgo(1), messagesIn: 5, messagesOut: 7 }).run();
  db.insert(projectBotPeople).values({ tokenId, userId: "103", blocked: 1, blockedAt: daysAgo(1), firstSeenAt: daysAgo(30), lastSeenAt: daysAgo(2), messagesIn: 1 }).run();
  db.insert(projectBotChats).values({ tokenId, chatId: "101", kind: "private", takeover: 1, lastMessageAt: daysAgo(1) }).run();
  db.insert(projectBotMessages).values({ tokenId, chatId: "101", direction: "in", sentBy: "user", kind: "text", text: "hi", createdAt: daysAgo(1) }).run();
  db.insert(projectBotState).values({ tokenId, chatId: "101", variables: "{}", updatedAt: daysAgo(1) }).run();
  db.insert(projectBotPayments).values({ tokenId, userId: "101", chargeId: "ch1", amount: 50, currency: "XTR", payload: "premium", paidAt: daysAgo(3) }).run();
  db.insert(projectBotPayments).values({ tokenId, userId: "101", chargeId: "ch2", amount: 5, currency: "XTR", payload: "tip", status: "refunded", paidAt: daysAgo(2), refundedAt: daysAgo(1) }).run();
  db.insert(projectBotPayments).values({ tokenId, userId: "102", chargeId: "ch3", amount: 9, currency: "XTR", payload: "other", paidAt: daysAgo(2) }).run();
});
afterAll(() => env.close());

describe("users search: first, last and full names", () => {
  let other: number;
  const found = async (token: number, q: string) => {
    const r = await env.call("GET", `/api/bot/tokens/${token}/users?limit=50&${q}`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    return r.body.items.map((u: { userId: string }) => u.userId).sort();
  };
  beforeAll(async () => {
    other = (await addToken(env, projectId)).tokenId;
    const named = (token: number, userId: string, firstName: string, lastName: string) => {
      seedBotUser(env, projectId, token, { userId, firstName });
      env.t.ctx.projectFiles.open(projectId).$client.query("UPDATE bot_users SET last_name = ? WHERE token_id = ? AND user_id = ?").run(lastName, token, userId);
    };
    named(other, "201", "Мария", "Иванова");
    named(other, "202", "Мария", "Петрова");
    named(other, "203", "Anna Maria", "Lind");
    // another token in the same file: a namesake that must never show up
    named(tokenId, "209", "Мария", "Иванова");
  });
  afterAll(() => env.t.ctx.projectFiles.open(projectId).$client.query("DELETE FROM bot_users WHERE user_id = '209'").run());

  // each query on the plain list (the Users tab's search) and with a sort (the people list's query)
  test.each([
    ["a last name", "search=иванова", ["201"]],
    ["part of a last name, other case", "search=ПЕТР", ["202"]],
    ["first and last name together", "search=" + encodeURIComponent("мария иванова"), ["201"]],
    ["a full name across the space", "search=" + encodeURIComponent("я Пет"), ["202"]],
    ["a first name with a space in it", "search=" + encodeURIComponent("anna maria"), ["203"]],
    ["a full name nobody has", "search=" + encodeURIComponent("Мария Lind"), []],
    ["last name first", "search=" + encodeURIComponent("Иванова Мария"), ["201"]],
    ["last name first, other case, part of the first name", "search=" + encodeURIComponent("lind anna m"), ["203"]],
    ["last name first, a pair nobody has", "search=" + encodeURIComponent("Lind Мария"), []],
    ["the first name alone", "search=" + encodeURIComponent("мария"), ["201", "202"]],
  ])("%s", async (_, q, want) => {
    expect(await found(other, q)).toEqual(want);
    expect(await found(other, q + "&sort=name")).toEqual(want);
  });
});

describe("users list: filters and sort", () => {
  test("without the new parameters: the list's order and answer", async () => {
    const r = await env.call("GET", users(), { cookie: env.cookie });
    expect(r.body.items.map((u: { userId: string }) => u.userId)).toEqual(["103", "102", "101"]);
    expect(r.body).toMatchObject({ count: 3, nextOffset: null, prevOffset: null, fromItem: 1, toItem: 3 });
  });

  test("each item says blocked, takeover and tags: the plain list, a search and a filtered list alike", async () => {
    const marks = { "101": { blocked: false, takeover: true, tags: ["vip"] }, "102": { blocked: false, takeover: false, tags: [] }, "103": { blocked: true, takeover: false, tags: [] } };
    for (const q of ["", "?search=a", "?sort=name"]) {
      const r = await env.call("GET", `${users()}${q}`, { cookie: env.cookie });
      expect(r.status).toBe(200);
      expect(r.body.items.length).toBeGreaterThan(0);
      for (const u of r.body.items) expect({ userId: u.userId, blocked: u.blocked, takeover: u.takeover, tags: u.tags }).toEqual({ userId: u.userId, ...marks[u.userId as keyof typeof marks] });
    }
    const one = (await env.call("GET", `${users()}?search=zed`, { cookie: env.cookie })).body.items;
    expect(one).toEqual([{ userId: "101", firstName: "Zed", lastName: "", userName: "user101", blocked: false, takeover: true, tags: ["vip"] }]);
  });

  test("filter, language, tag, source, sort", async () => {
    expect(await ids("filter=active")).toEqual(["101"]);
    expect(await ids("filter=inactive")).toEqual(["102"]);
    expect(await ids("filter=blocked")).toEqual(["103"]);
    expect(await ids("language=RU")).toEqual(["101"]);
    expect(await ids("tag=vip")).toEqual(["101"]);
    expect(await ids("tag=vi")).toEqual([]);
    expect(await ids("source=ref_42")).toEqual(["101"]);
    expect(await ids("sort=lastSeen")).toEqual(["101", "103", "102"]);
    expect(await ids("sort=messages")).toEqual(["101", "103", "102"]);
    expect(await ids("sort=name")).toEqual(["103", "102", "101"]);
    expect(await ids("sort=registered&filter=active&search=zed")).toEqual(["101"]);
    const paged = await env.call("GET", `${users()}?sort=name&limit=2&offset=1`, { cookie: env.cookie });
    expect(paged.body).toMatchObject({ count: 3, nextOffset: null, prevOffset: 0, fromItem: 2, toItem: 3 });
    for (const q of ["filter=all", "sort=age", "sort=1"]) expect((await env.call("GET", `${users()}?${q}`, { cookie: env.cookie })).status).toBe(400);
  });
});

describe("user detail, tags, delete", () => {
  test("the detail's added fields", async () => {
    const r = await env.call("GET", `${users()}/101`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ userId: "101", languageCode: "ru", isPremium: true, blocked: false, blockedAt: null, source: "ref_42", referrerId: "42", tags: ["vip"], messagesIn: 5, messagesOut: 7, takeover: true });
    expect(r.body.firstSeenAt).toBe(daysAgo(50));
    const b = await env.call("GET", `${users()}/103`, { cookie: env.cookie });
    expect(b.body).toMatchObject({ blocked: true, tags: [], source: null, takeover: false });
  });

  test("a user's payments, newest first, only theirs; limit; bad input 400; unknown user 404", async () => {
    const r = await env.call("GET", `${users()}/101/payments`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      total: 2,
      items: [
        { chargeId: "ch2", providerChargeId: null, amount: 5, currency: "XTR", payload: "tip", status: "refunded", paidAt: daysAgo(2), refundedAt: daysAgo(1) },
        { chargeId: "ch1", providerChargeId: null, amount: 50, currency: "XTR", payload: "premium", status: "paid", paidAt: daysAgo(3), refundedAt: null },
      ],
    });
    expect((await env.call("GET", `${users()}/101/payments?limit=1`, { cookie: env.cookie })).body.items.map((p: { chargeId: string }) => p.chargeId)).toEqual(["ch2"]);
    expect((await env.call("GET", `${users()}/103/payments`, { cookie: env.cookie })).body).toEqual({ total: 0, items: [] });
    for (const q of ["limit=0", "limit=x"]) expect((await env.call("GET", `${users()}/101/payments?${q}`, { cookie: env.cookie })).status).toBe(400);
    expect((await env.call("GET", `${users()}/abc/payments`, { cookie: env.cookie })).status).toBe(400);
    expect((await env.call("GET", `${users()}/999/payments`, { cookie: env.cookie })).status).toBe(404);
  });

  test("PUT tags replaces them (deduplicated); bad tags 400; unknown user 404", async () => {
    const r = await env.call("PUT", `${users()}/102/tags`, { cookie: env.cookie, json: { tags: ["new", "new", "lead"] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ userId: "102", tags: ["new", "lead"] });
    expect(await ids("tag=lead")).toEqual(["102"]);
    for (const json of [{ tags: [""] }, { tags: ["x".repeat(33)] }, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, { tags: "vip" }, { tags: [1] }, {}]) {
      const bad = await env.call("PUT", `${users()}/102/tags`, { cookie: env.cookie, json });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("VALIDATION_FAILED");
    }
    expect((await env.call("PUT", `${users()}/999/tags`, { cookie: env.cookie, json: { tags: [] } })).status).toBe(404);
  });

  test("CSV export: the filters apply, a column per variable, formulas defused", async () => {
    const r = await env.call("GET", `${users()}/export`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/csv");
    const lines = r.text.trim().split("\r\n");
    expect(lines[0]).toBe("id,first_name,last_name,username,language,premium,blocked,source,referrer_id,tags,first_seen_at,last_seen_at,messages_in,messages_out,city");
    expect(lines.length).toBe(4);
    expect(lines.find((l) => l.startsWith("101,"))).toContain(",ru,1,0,ref_42,42,vip,");
    expect(lines.find((l) => l.startsWith("101,"))!.endsWith(",Riga")).toBe(true);
    expect(lines.find((l) => l.startsWith("103,"))).toContain(`"'=HYPERLINK(""x"")"`);
    const only = await env.call("GET", `${users()}/export?filter=blocked`, { cookie: env.cookie });
    expect(only.text.trim().split("\r\n").length).toBe(2);
  });

  test("CSV export names every column once: a variable named like a header before it is headed variable:<name>", async () => {
    const db = env.t.ctx.projectFiles.open(projectId).$client;
    const before = (db.query("SELECT variables FROM bot_users WHERE user_id = '102'").get() as { variables: string | null }).variables;
    // the runtime stores referrer_id itself (a ref_ deep link); a scenario may name a variable tags
    db.query("UPDATE bot_users SET variables = ? WHERE user_id = '102'").run(JSON.stringify({ referrer_id: "77", tags: "scenario's own", city: "Oslo", "variable:tags": "odd" }));
    try {
      const r = await env.call("GET", `${users()}/export`, { cookie: env.cookie });
      const [head, ...rows] = r.text.replace(/^\uFEFF/, "").trim().split("\r\n");
      const names = head!.split(",");
      expect(new Set(names).size).toBe(names.length);
      expect(names.slice(-4)).toEqual(["city", "variable:referrer_id", "variable:tags", "variable:variable:tags"]);
      expect(rows.find((l) => l.startsWith("102,"))!.endsWith(",Oslo,77,scenario's own,odd")).toBe(true);
    } finally {
      db.query("UPDATE bot_users SET variables = ? WHERE user_id = '102'").run(before);
    }
  });

  test("CSV export starts with the UTF-8 BOM once (Excel reads it as UTF-8), whatever the filter", async () => {
    for (const q of ["", "?filter=blocked", "?search=nobody-is-called-this"]) {
      const r = await env.call("GET", `${users()}/export${q}`, { cookie: env.cookie });
      expect(r.status).toBe(200);
      expectOneBom(r.bytes, `users/export${q}`);
      // after the BOM, the header as before
      expect(r.text.startsWith("id,first_name,")).toBe(true);
    }
  });

  test("DELETE removes the user, their person, payments, state, chat and messages", async () => {
    // a delay pending in their chat would run the old flow for them again: it goes too
    const file = env.t.ctx.projectFiles.open(projectId).$client;
    file.query("INSERT INTO bot_waits (token_id, chat_id, node, due_at, turn) VALUES (?, '101', 'n', ?, '{}')").run(tokenId, Date.now() + 3_600_000);
    file.query("INSERT INTO bot_waits (token_id, chat_id, node, due_at, turn) VALUES (?, '102', 'n', ?, '{}')").run(tokenId, Date.now() + 3_600_000);
    // the running bot is told to forget the chat's state it holds (the bot does not run here: the call is watched)
    const told: unknown[] = [];
    const tell = env.t.ctx.bots.tell;
    env.t.ctx.bots.tell = (id, command) => (told.push([id, command]), false);
    let r;
    try {
      r = await env.call("DELETE", `${users()}/101`, { cookie: env.cookie });
    } finally {
      env.t.ctx.bots.tell = tell;
    }
    expect(told).toEqual([[tokenId, { op: "forget", chatId: "101" }]]);
    expect(file.query("SELECT chat_id FROM bot_waits WHERE token_id = ?").all(tokenId)).toEqual([{ chat_id: "102" }]);
    expect(r.body).toEqual({ success: true });
    const db = env.t.ctx.projectFiles.open(projectId).$client;
    for (const table of ["bot_users", "bot_people", "bot_payments"]) expect((db.query(`SELECT count(*) AS n FROM ${table} WHERE user_id = '101'`).get() as { n: number }).n).toBe(0);
    // another user's payments stay
    expect((db.query("SELECT count(*) AS n FROM bot_payments WHERE user_id = '102'").get() as { n: number }).n).toBe(1);
    for (const table of ["bot_state", "bot_chats", "bot_messages"]) expect((db.query(`SELECT count(*) AS n FROM ${table} WHERE chat_id = '101'`).get() as { n: number }).n).toBe(0);
    expect((await env.call("GET", `${users()}/101`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("DELETE", `${users()}/101`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("DELETE", `${users()}/abc`, { cookie: env.cookie })).status).toBe(400);
  });
});
