import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { botTokens, projectCollaborators, tokenEnvVars } from "../../src/db/schema";
import { formatUptime } from "../../src/modules/tokens/service";
import { createTestApp, loginAs, patFor, setUp } from "../support/app";
import { addToken, botApiEnv, COLLAB, createProject, expectNoSecrets, MANAGER, OWNER, seedBotUser, STRANGER, type BotApiEnv } from "./support";

let env: BotApiEnv;
let projectId: number;
const tokens: string[] = [];

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
});
afterAll(() => env.close());

describe("token list and add", () => {
  test("empty list, then add: name defaults to the bot's first name; the list never carries the credential", async () => {
    const empty = await env.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ items: [], count: 0 });

    const bot = env.fake.addBot({ firstName: "Kotik", username: "kotik_bot" });
    tokens.push(bot.token);
    const add = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: bot.token } });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ id: expect.any(Number), name: "Kotik", projectId });

    const list = await env.call("GET", `/api/bot/projects/project_${projectId}/tokens`, { bearer: env.pat });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    const item = list.body.items[0];
    expect(item).toMatchObject({ id: add.body.id, name: "Kotik", botStatus: "🔴", status: "stopped", botUsername: "kotik_bot", botFirstName: "Kotik", launchMode: "polling" });
    expect("token" in item).toBe(false);
    const row = env.t.ctx.db.select().from(botTokens).where(eq(botTokens.id, add.body.id)).get()!;
    expect(row.botId).toBe(bot.id);
  });

  test("an explicit name wins; the same credential again returns the existing record without asking the platform", async () => {
    const bot = env.fake.addBot({ firstName: "Second" });
    tokens.push(bot.token);
    const a = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: bot.token, name: "  Основной токен " } });
    expect(a.status).toBe(200);
    expect(a.body.name).toBe("Основной токен");
    const b = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: ` ${bot.token} `, name: "other" } });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(env.fake.calls(bot.token, "getMe").length).toBe(1);
  });

  test("the bot-manager client's shape: bot_manager PAT with telegram_id, empty name → first name", async () => {
    const bot = env.fake.addBot({ firstName: "Managed" });
    tokens.push(bot.token);
    const r = await env.call("POST", `/api/bot/projects/${projectId}/tokens?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { token: bot.token, name: "" } });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("Managed");
  });

  test("a credential the platform rejects is 400 with a clear message", async () => {
    const badFormat = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: "not-a-token" } });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error).toBe("VALIDATION_FAILED");
    expect(badFormat.body.message).toContain("invalid format");

    const unknown = "123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    tokens.push(unknown);
    const rejected = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: unknown } });
    expect(rejected.status).toBe(400);
    expect(rejected.body.message).toContain("rejected");
  });

  test("bad bodies are 400", async () => {
    for (const json of [{}, { token: 42 }, { token: "" }, { token: "1:a", name: 5 }, { token: "x".repeat(300) }]) {
      const r = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    const malformed = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, body: "{nope", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
  });

  test("an unreachable platform is 502 BAD_GATEWAY", async () => {
    const t2 = createTestApp({ env: { MESSENGER_API_ROOT: "http://127.0.0.1:9" } });
    try {
      await setUp(t2);
      const cookie = await loginAs(t2, OWNER);
      const pid = t2.ctx.projects.create(OWNER, { name: "X" }).id;
      const bot = env.fake.addBot();
      tokens.push(bot.token);
      const r = await t2.call("POST", `/api/bot/projects/${pid}/tokens`, { cookie, json: { token: bot.token } });
      env.responses.push({ method: "POST", path: "unreachable", status: r.status, text: r.text });
      expect(r.status).toBe(502);
      expect(r.body.error).toBe("BAD_GATEWAY");
      // says what to do: the server's network, or MESSENGER_API_ROOT
      expect(r.body.message).toContain("could not be reached");
      expect(r.body.message).toContain("127.0.0.1:9");
      expect(r.body.message).toContain("MESSENGER_API_ROOT");
      for (const line of t2.logs) expect(line.includes(bot.token)).toBe(false);
    } finally {
      t2.cleanup();
    }
  });

  test("identifiers, missing credentials, foreign and unknown projects", async () => {
    expect((await env.call("GET", `/api/bot/projects/${projectId}/tokens`)).status).toBe(401);
    for (const bad of ["abc", "project_", "project_x", "0", "-1", "token_1", "1.5", "99999999999999999"]) {
      const r = await env.call("GET", `/api/bot/projects/${bad}/tokens`, { cookie: env.cookie });
      expect(r.status).toBe(400);
    }
    expect((await env.call("GET", `/api/bot/projects/999999/tokens`, { cookie: env.cookie })).status).toBe(404);
    const stranger = await loginAs(env.t, STRANGER);
    const r = await env.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie: stranger });
    expect(r.status).toBe(403);
    const bot = env.fake.addBot();
    tokens.push(bot.token);
    expect((await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: stranger, json: { token: bot.token } })).status).toBe(403);
    expect(env.fake.calls(bot.token).length).toBe(0);
  });

  test("a collaborator manages tokens too", async () => {
    env.t.ctx.db.insert(projectCollaborators).values({ projectId, userId: COLLAB, invitedBy: OWNER }).run();
    const collab = await loginAs(env.t, COLLAB);
    const r = await env.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie: collab });
    expect(r.status).toBe(200);
    expect(r.body.count).toBeGreaterThan(0);
  });
});

describe("token PATCH (docs/api.md)", () => {
  test("name, launch mode and flags; answers the docs/api.md shape", async () => {
    const { tokenId, bot } = await addToken(env, projectId);
    tokens.push(bot.token);
    const r = await env.call("PATCH", `/api/bot/tokens/token_${tokenId}`, { cookie: env.cookie, json: { name: "Renamed", launchMode: "webhook", catchAllHandlers: 1, protectContent: 1, contentCache: 0 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: tokenId, name: "Renamed", projectId, launchMode: "webhook", catchAllHandlers: 1, protectContent: 1, contentCache: 0, messageRetentionDays: 30, sendsPerSecond: 25, botStatus: "🔴" });
    // the token's send pace (docs/campaigns.md#one-pace-per-token): 1..1000
    expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { sendsPerSecond: 1000 } })).body.sendsPerSecond).toBe(1000);
    for (const bad of [0, 1001, 2.5, "30"]) expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { sendsPerSecond: bad } })).status).toBe(400);
    await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { sendsPerSecond: 25 } });
    const partial = await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { bearer: env.pat, json: { contentCache: 1 } });
    expect(partial.body).toMatchObject({ name: "Renamed", launchMode: "webhook", contentCache: 1 });
    const noop = await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { bearer: env.pat, json: {} });
    expect(noop.status).toBe(200);
    // docs/dialogs.md: messageRetentionDays 0..3650 (0 records no message)
    for (const days of [0, 3650, 7]) expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { messageRetentionDays: days } })).body.messageRetentionDays).toBe(days);
    for (const days of [-1, 3651, 1.5, "30", null]) expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { messageRetentionDays: days } })).status).toBe(400);
    const list = await env.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie });
    expect(list.body.items.find((t: { id: number }) => t.id === tokenId).messageRetentionDays).toBe(7);
  });

  test("flags other than 0/1, unknown modes and empty names are 400; foreign is 403; unknown 404", async () => {
    const { tokenId, bot } = await addToken(env, projectId);
    tokens.push(bot.token);
    for (const json of [{ catchAllHandlers: 2 }, { protectContent: true }, { contentCache: "1" }, { launchMode: "push" }, { name: "  " }, { name: 7 }]) {
      const r = await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    const stranger = patFor(env.t, STRANGER);
    expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { bearer: stranger, json: { name: "x" } })).status).toBe(403);
    expect((await env.call("PATCH", `/api/bot/tokens/987654`, { cookie: env.cookie, json: { name: "x" } })).status).toBe(404);
    expect((await env.call("PATCH", `/api/bot/tokens/tok_1`, { cookie: env.cookie, json: { name: "x" } })).status).toBe(400);
  });
});

describe("token delete", () => {
  test("stops the bot first, removes the token and its variables", async () => {
    const { tokenId, bot } = await addToken(env, projectId);
    tokens.push(bot.token);
    env.t.ctx.db.insert(tokenEnvVars).values({ tokenId, key: "A", value: "1" }).run();
    const stranger = await loginAs(env.t, STRANGER);
    expect((await env.call("DELETE", `/api/bot/tokens/${tokenId}`, { cookie: stranger })).status).toBe(403);
    const r = await env.call("DELETE", `/api/bot/tokens/token_${tokenId}?messenger_id=${OWNER}`, { bearer: env.managerPat });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect(env.bots.stopped).toContain(tokenId);
    expect(env.t.ctx.db.select().from(tokenEnvVars).where(eq(tokenEnvVars.tokenId, tokenId)).all()).toEqual([]);
    expect((await env.call("DELETE", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("DELETE", `/api/bot/tokens/x${tokenId}`, { cookie: env.cookie })).status).toBe(400);
  });
});

describe("bot photo", () => {
  test("downloads the avatar under /uploads/<projectId>/bot_photos and caches it", async () => {
    const { tokenId, bot } = await addToken(env, projectId, { hasPhoto: true });
    tokens.push(bot.token);
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBe(1);
    expect(r.body.photoUrl).toMatch(new RegExp(`^/uploads/${projectId}/bot_photos/[A-Za-z0-9_-]+\\.[a-z0-9]+$`));
    const onDisk = join(env.t.ctx.config.uploadsDir, r.body.photoUrl.slice("/uploads/".length));
    expect(existsSync(onDisk)).toBe(true);

    const photoCalls = env.fake.calls(bot.token, "getUserProfilePhotos").length;
    const again = await env.call("GET", `/api/bot/tokens/token_${tokenId}/photo`, { bearer: env.pat });
    expect(again.body).toEqual({ photoUrl: r.body.photoUrl, total_count: 1 });
    expect(env.fake.calls(bot.token, "getUserProfilePhotos").length).toBe(photoCalls);

    // Stale cache and a platform that no longer knows the bot: the cached avatar is answered.
    env.t.ctx.db.update(botTokens).set({ photoCheckedAt: "2000-01-01T00:00:00.000Z" }).where(eq(botTokens.id, tokenId)).run();
    env.fake.removeBot(bot.token);
    const stale = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
    expect(stale.status).toBe(200);
    expect(stale.body.photoUrl).toBe(r.body.photoUrl);
  });

  test("after six hours the avatar is fetched again and the previous file removed", async () => {
    const { tokenId, bot } = await addToken(env, projectId, { hasPhoto: true });
    tokens.push(bot.token);
    const first = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
    const firstFile = join(env.t.ctx.config.uploadsDir, first.body.photoUrl.slice("/uploads/".length));
    const sixHoursAgo = new Date(Date.now() - 6 * 3600 * 1000 - 1000).toISOString();
    env.t.ctx.db.update(botTokens).set({ photoCheckedAt: sixHoursAgo }).where(eq(botTokens.id, tokenId)).run();
    const second = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
    expect(second.body.total_count).toBe(1);
    expect(second.body.photoUrl).not.toBe(first.body.photoUrl);
    expect(existsSync(firstFile)).toBe(false);
    // the avatar was removed on the platform: null, and the old file goes too
    env.fake.setUserPhoto(bot.id, false);
    env.t.ctx.db.update(botTokens).set({ photoCheckedAt: sixHoursAgo }).where(eq(botTokens.id, tokenId)).run();
    const third = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
    expect(third.body).toEqual({ photoUrl: null, total_count: 0 });
    expect(existsSync(join(env.t.ctx.config.uploadsDir, second.body.photoUrl.slice("/uploads/".length)))).toBe(false);
  });

  test("no avatar → photoUrl null, total_count 0; errors", async () => {
    const { tokenId, bot } = await addToken(env, projectId, { hasPhoto: false });
    tokens.push(bot.token);
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { cookie: env.cookie });
    expect(r.body).toEqual({ photoUrl: null, total_count: 0 });
    expect((await env.call("GET", `/api/bot/tokens/55555/photo`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/tokens/abc/photo`, { cookie: env.cookie })).status).toBe(400);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/photo`)).status).toBe(401);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/photo`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
  });
});

describe("stats and status", () => {
  test("stats count users by UTC windows", async () => {
    const { tokenId, bot } = await addToken(env, projectId);
    tokens.push(bot.token);
    const now = Date.now();
    const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
    const todayStart = new Date(now);
    todayStart.setUTCHours(0, 0, 0, 0);
    seedBotUser(env, projectId, tokenId, { userId: "1", firstSeenAt: iso(30 * 86400e3), lastSeenAt: iso(30 * 86400e3) });
    seedBotUser(env, projectId, tokenId, { userId: "2", firstSeenAt: iso(10 * 86400e3), lastSeenAt: iso(3 * 86400e3) });
    seedBotUser(env, projectId, tokenId, { userId: "3", firstSeenAt: iso(10 * 86400e3), lastSeenAt: iso(60e3) });
    seedBotUser(env, projectId, tokenId, { userId: "4", firstSeenAt: todayStart.toISOString(), lastSeenAt: iso(0) });
    const r = await env.call("GET", `/api/bot/tokens/${tokenId}/stats`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ total_users: 4, active_24h: 2, active_7d: 3, new_today: 1 });
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/stats`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/tokens/424242/stats`, { cookie: env.cookie })).status).toBe(404);
  });

  test("status: instance fields, userStats, uptime text", async () => {
    const { tokenId, bot } = await addToken(env, projectId, { firstName: "Status Bot" });
    tokens.push(bot.token);
    seedBotUser(env, projectId, tokenId, { userId: "77" });
    const stopped = await env.call("GET", `/api/bot/tokens/token_${tokenId}/status?telegram_id=${OWNER}`, { bearer: env.managerPat });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({
      status: "stopped",
      instance: { botName: "Status Bot", botUsername: bot.username, tokenId, status: "stopped", statusLabel: "Остановлен", uptime: "—", uptimeSeconds: null },
      userStats: { total: 1, active_24h: 1, active_7d: 1, new_today: 1 },
    });
    env.bots.states.set(tokenId, { status: "running", startedAt: Date.now() - (2 * 3600 + 5 * 60) * 1000 - 500, pid: 5 });
    const running = await env.call("GET", `/api/bot/tokens/${tokenId}/status`, { cookie: env.cookie });
    expect(running.body.status).toBe("running");
    expect(running.body.instance).toMatchObject({ status: "running", statusLabel: "Работает", uptime: "2h 5m", uptimeSeconds: 2 * 3600 + 5 * 60 });
    const list = await env.call("GET", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie });
    expect(list.body.items.find((i: any) => i.id === tokenId).botStatus).toBe("🟢");
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/status`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
  });

  test("uptime formatting", () => {
    const at = (s: number) => formatUptime({ status: "running", startedAt: 1_000_000, pid: 1 }, 1_000_000 + s * 1000);
    expect(at(0)).toBe("0s");
    expect(at(59)).toBe("59s");
    expect(at(61)).toBe("1m 1s");
    expect(at(3600)).toBe("1h 0m");
    expect(at(90000)).toBe("1d 1h");
    expect(formatUptime({ status: "stopped", startedAt: null, pid: null })).toBe("—");
    expect(formatUptime({ status: "error", startedAt: 5, pid: null })).toBe("—");
  });
});

describe("actor rules on the token endpoints", () => {
  test("bot_manager PAT without messenger_id is 400; for a user without access 403; foreign messenger_id with an ordinary PAT 403", async () => {
    const path = `/api/bot/projects/${projectId}/tokens`;
    expect((await env.call("GET", path, { bearer: env.managerPat })).status).toBe(400);
    expect((await env.call("GET", `${path}?messenger_id=${STRANGER}`, { bearer: env.managerPat })).status).toBe(403);
    expect((await env.call("GET", `${path}?messenger_id=${OWNER}`, { bearer: env.managerPat })).status).toBe(200);
    expect((await env.call("GET", `${path}?messenger_id=${MANAGER}`, { bearer: env.pat })).status).toBe(403);
    expect((await env.call("GET", `${path}?messenger_id=${OWNER}`, { bearer: env.pat })).status).toBe(200);
    expect((await env.call("GET", `${path}?telegram_id=${OWNER}`, { cookie: env.cookie })).status).toBe(200);
    expect((await env.call("GET", path, { bearer: "mcp_invalidinvalidinvalidinvalid" })).status).toBe(401);
  });
});

test("no response body and no log line carries a bot token", () => {
  expectNoSecrets(env, tokens);
});
