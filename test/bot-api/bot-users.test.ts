import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { projectBotUsers as botUsers } from "../../src/db/project-schema";
import { formatDateTime, pageInfo } from "../../src/modules/bot-users/model";
import { patFor } from "../support/app";
import { addToken, botApiEnv, createProject, expectNoSecrets, OWNER, seedBotUser, STRANGER, type BotApiEnv } from "./support";

let env: BotApiEnv;
let projectId: number;
let tokenId: number;
let emptyTokenId: number;
const botTokensSeen: string[] = [];

const base = Date.parse("2026-03-01T10:00:00.000Z");
const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  const a = await addToken(env, projectId);
  const b = await addToken(env, projectId);
  tokenId = a.tokenId;
  emptyTokenId = b.tokenId;
  botTokensSeen.push(a.bot.token, b.bot.token);
  // 23 users; user N signed up N minutes after `base`, so the newest is 1023.
  for (let n = 1; n <= 23; n++) seedBotUser(env, projectId, tokenId, { userId: String(1000 + n), firstName: `U${n}`, username: `u${n}`, firstSeenAt: at(n), lastSeenAt: at(n + 100), interactionCount: n });
});
afterAll(() => env.close());

const page = (q: string, opts: { cookie?: string; bearer?: string } = {}) => env.call("GET", `/api/bot/tokens/${tokenId}/users${q}`, opts.bearer ? opts : { cookie: env.cookie });

describe("bot users list paging (docs/api.md#limits)", () => {
  test("defaults: limit 10, offset 0, newest first", async () => {
    const r = await page("");
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(23);
    expect(r.body.items.length).toBe(10);
    expect(r.body.items[0]).toEqual({ userId: "1023", firstName: "U23", lastName: "", userName: "u23", blocked: false, takeover: false, tags: [] });
    expect(r.body.items[9].userId).toBe("1014");
    expect(r.body).toMatchObject({ nextOffset: 10, prevOffset: null, fromItem: 1, toItem: 10 });
  });

  test("middle and last pages", async () => {
    const mid = await page("?limit=10&offset=10");
    expect(mid.body).toMatchObject({ count: 23, nextOffset: 20, prevOffset: 0, fromItem: 11, toItem: 20 });
    const last = await page("?limit=10&offset=20");
    expect(last.body.items.map((i: any) => i.userId)).toEqual(["1003", "1002", "1001"]);
    expect(last.body).toMatchObject({ nextOffset: null, prevOffset: 10, fromItem: 21, toItem: 23 });
    const odd = await page("?limit=7&offset=3");
    expect(odd.body).toMatchObject({ nextOffset: 10, prevOffset: 0, fromItem: 4, toItem: 10 });
  });

  test("offset past the end: empty page, positions 0", async () => {
    const r = await page("?limit=10&offset=40");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [], count: 23, nextOffset: null, prevOffset: 30, fromItem: 0, toItem: 0 });
  });

  test("limit above 50 is clamped to 50; limit below 1, negative or non-numeric values are 400", async () => {
    const r = await page("?limit=51");
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBe(23);
    expect(r.body).toMatchObject({ nextOffset: null, fromItem: 1, toItem: 23 });
    const huge = await page("?limit=100000&offset=1");
    expect(huge.status).toBe(200);
    expect(huge.body.prevOffset).toBe(0);
    for (const q of ["?limit=0", "?limit=-5", "?limit=abc", "?limit=1.5", "?offset=-1", "?offset=x", "?offset=1e3"]) {
      const bad = await page(q);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("VALIDATION_FAILED");
    }
  });

  test("a token without users", async () => {
    const r = await env.call("GET", `/api/bot/tokens/token_${emptyTokenId}/users`, { cookie: env.cookie });
    expect(r.body).toEqual({ items: [], count: 0, nextOffset: null, prevOffset: null, fromItem: 0, toItem: 0 });
  });

  test("the bot-manager client's request", async () => {
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/users?telegram_id=${OWNER}&limit=10&offset=10`, { bearer: env.managerPat });
    expect(r.status).toBe(200);
    expect(r.body.fromItem).toBe(11);
  });

  test("errors: 401, 403, 404, 400", async () => {
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/users`)).status).toBe(401);
    expect((await page("", { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/tokens/898989/users`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/tokens/user_1/users`, { cookie: env.cookie })).status).toBe(400);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/users`, { bearer: env.managerPat })).status).toBe(400);
  });

  test("paging helper edges", () => {
    expect(pageInfo(0, 0, 10, 0)).toEqual({ count: 0, nextOffset: null, prevOffset: null, fromItem: 0, toItem: 0 });
    expect(pageInfo(10, 0, 10, 10)).toEqual({ count: 10, nextOffset: null, prevOffset: null, fromItem: 1, toItem: 10 });
    expect(pageInfo(11, 5, 10, 6)).toEqual({ count: 11, nextOffset: null, prevOffset: 0, fromItem: 6, toItem: 11 });
  });
});

describe("bot user detail", () => {
  test("plain id and user_<id>; registeredAt is DD.MM.YYYY HH:MM (UTC); no avatar → empty string", async () => {
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/users/user_1005`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      userId: "1005",
      firstName: "U5",
      lastName: "",
      userName: "u5",
      variables: {},
      registeredAt: "01.03.2026 10:05",
      lastInteraction: "01.03.2026 11:45",
      interactionCount: 5,
      photoUrl: "",
      // docs/dialogs.md "The people of a bot": a user the message store never saw
      languageCode: null,
      isPremium: false,
      blocked: false,
      blockedAt: null,
      source: null,
      referrerId: null,
      tags: [],
      firstSeenAt: "2026-03-01T10:05:00.000Z",
      lastSeenAt: "2026-03-01T11:45:00.000Z",
      messagesIn: 0,
      messagesOut: 0,
      takeover: false,
    });
    const plain = await env.call("GET", `/api/bot/tokens/${tokenId}/users/1005?messenger_id=${OWNER}`, { bearer: env.managerPat });
    expect(plain.body.userId).toBe("1005");
  });

  test("the avatar is downloaded once to /uploads/<projectId>/user_photos and cached in bot_users.photo_url", async () => {
    env.fake.setUserPhoto(1007, true);
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/users/1007`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body.photoUrl).toMatch(new RegExp(`^/uploads/${projectId}/user_photos/[A-Za-z0-9_-]+\\.[a-z0-9]+$`));
    expect(existsSync(join(env.t.ctx.config.uploadsDir, r.body.photoUrl.slice("/uploads/".length)))).toBe(true);
    const row = env.t.ctx.projectFiles.open(projectId).select().from(botUsers).where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, "1007"))).get()!;
    expect(row.photoUrl).toBe(r.body.photoUrl);
    const token = botTokensSeen[0];
    const before = env.fake.calls(token, "getUserProfilePhotos").length;
    const again = await env.call("GET", `/api/bot/tokens/${tokenId}/users/user_1007`, { cookie: env.cookie });
    expect(again.body.photoUrl).toBe(r.body.photoUrl);
    expect(env.fake.calls(token, "getUserProfilePhotos").length).toBe(before);
  });

  test("a stored photo_url that is not one of our upload paths is never answered", async () => {
    const leaky = `https://api.example/file/bot${botTokensSeen[0]}/photos/x.jpg`;
    env.t.ctx.projectFiles.open(projectId).update(botUsers).set({ photoUrl: leaky }).where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, "1009"))).run();
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/users/1009`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body.photoUrl).toBe("");
  });

  test("unknown user 404, malformed ids 400, other token's user 404, stranger 403", async () => {
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/users/424242`, { cookie: env.cookie })).status).toBe(404);
    for (const bad of ["user_", "user_abc", "abc", "0", "user_-1", "1.5"]) {
      expect((await env.call("GET", `/api/bot/tokens/${tokenId}/users/${bad}`, { cookie: env.cookie })).status).toBe(400);
    }
    expect((await env.call("GET", `/api/bot/tokens/${emptyTokenId}/users/1005`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/users/1005`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/users/1005`)).status).toBe(401);
  });

  test("date formatting", () => {
    expect(formatDateTime("2026-12-31T23:59:59.999Z")).toBe("31.12.2026 23:59");
    expect(formatDateTime("2026-01-02 03:04:05")).toBe("02.01.2026 03:04");
    expect(formatDateTime("garbage")).toBe("");
  });
});

test("no response body and no log line carries a bot token", () => {
  expectNoSecrets(env, botTokensSeen, (r) => false);
});
