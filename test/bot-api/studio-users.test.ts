// What the Studio's Users tab needs beyond the older bot API: search in the bot users list, the user's
// variables in the card, and new users per day for the chart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { projectBotUsers as botUsers } from "../../src/db/project-schema";
import { addToken, botApiEnv, createProject, seedBotUser, STRANGER, type BotApiEnv } from "./support";
import { loginAs } from "../support/app";

let env: BotApiEnv;
let tokenId: number;
let projectId: number;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  tokenId = (await addToken(env, projectId)).tokenId;
  seedBotUser(env, projectId, tokenId, { userId: "501", firstName: "Anna", username: "anna_k", firstSeenAt: daysAgo(0) });
  seedBotUser(env, projectId, tokenId, { userId: "502", firstName: "Boris", username: "bb", firstSeenAt: daysAgo(0) });
  seedBotUser(env, projectId, tokenId, { userId: "503", firstName: "100%_sure", username: "pct", firstSeenAt: daysAgo(2) });
  seedBotUser(env, projectId, tokenId, { userId: "504", firstName: "Old", username: "old", firstSeenAt: daysAgo(40) });
  env.t.ctx.projectFiles.open(projectId).update(botUsers).set({ variables: JSON.stringify({ city: "Kazan", age: 30 }) }).where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, "501"))).run();
  env.t.ctx.projectFiles.open(projectId).update(botUsers).set({ variables: "not json" }).where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, "502"))).run();
});
afterAll(() => env.close());

const get = (path: string, cookie = env.cookie) => env.call("GET", path, { cookie });

describe("bot users search", () => {
  test("matches a name or @username substring, case-insensitive, and the exact id", async () => {
    const ids = async (q: string) => (await get(`/api/bot/tokens/${tokenId}/users?search=${encodeURIComponent(q)}`)).body.items.map((i: any) => i.userId);
    expect(await ids("ann")).toEqual(["501"]);
    expect(await ids("@ANNA")).toEqual(["501"]);
    expect(await ids("502")).toEqual(["502"]);
    expect(await ids("50")).toEqual([]);
    expect(await ids("o")).toEqual(["502", "504"]);
  });

  test("LIKE wildcards in the search are literal", async () => {
    const r = await get(`/api/bot/tokens/${tokenId}/users?search=${encodeURIComponent("%_")}`);
    expect(r.body.items.map((i: any) => i.userId)).toEqual(["503"]);
    expect(r.body.count).toBe(1);
    const underscore = await get(`/api/bot/tokens/${tokenId}/users?search=${encodeURIComponent("_")}`);
    expect(underscore.body.items.map((i: any) => i.userId)).toEqual(["501", "503"]);
  });

  test("paging counts only the matches", async () => {
    const r = await get(`/api/bot/tokens/${tokenId}/users?search=o&limit=1`);
    expect(r.body).toMatchObject({ count: 2, nextOffset: 1, fromItem: 1, toItem: 1 });
  });
});

describe("bot users search in every alphabet", () => {
  // A token of its own, so these names do not change the matches above.
  let other: number;
  const ids = async (q: string) => (await get(`/api/bot/tokens/${other}/users?search=${encodeURIComponent(q)}`)).body.items.map((i: any) => i.userId).sort();
  beforeAll(async () => {
    other = (await addToken(env, projectId)).tokenId;
    const seed = (userId: string, firstName: string, username = `u${userId}`) => seedBotUser(env, projectId, other, { userId, firstName, username });
    seed("601", "Анна");
    seed("602", "ЁЖИК");
    seed("603", "Straße", "ΣΟΦΙΑ");
    seed("604", "a%b");
    seed("605", "a_b");
    seed("606", "a\\b");
    seed("607", "a*b?[c]");
    seed("608", "axb");
    seed("609", "Ω*[λ]?%");
  });

  /** Each search with the ids it must find, all of them in one answer. */
  const expectFinds = async (cases: Record<string, string[]>) => {
    const got: Record<string, string[]> = {};
    for (const q of Object.keys(cases)) got[q] = await ids(q);
    expect(got).toEqual(cases);
  };

  test("case folds beyond ASCII: Анна by анна, ЁЖИК by ёжик (and ежик), Greek by lower case", async () => {
    await expectFinds({
      анна: ["601"],
      АННА: ["601"],
      ёжик: ["602"],
      жи: ["602"],
      // ё is often typed as е, as in the template catalog's search
      ежик: ["602"],
      ЕЖ: ["602"],
      софия: [],
      σοφια: ["603"],
      STRASSE: [],
      STRAßE: ["603"],
    });
  });

  test("%, _ and \\ are literal, and so are *, ? and [", async () => {
    await expectFinds({ "a%b": ["604"], a_b: ["605"], "a\\b": ["606"], "%": ["604", "609"], _: ["605"], "\\": ["606"] });
    await expectFinds({ "a*b": ["607"], "b?": ["607"], "[c]": ["607"], "[": ["607", "609"], "]": ["607", "609"], "a?b": [] });
    // The same with letters beyond ASCII in the search (matched another way, docs/database.md)
    await expectFinds({ "ω*[Λ]?%": ["609"], "ω*": ["609"], "ω?": [], "ω[": [], "λ]?%": ["609"], "ω%": [], "ω_": [], "λ\\": [] });
  });
});

describe("bot user card variables", () => {
  test("the stored variables come back as an object; unreadable ones as {}", async () => {
    expect((await get(`/api/bot/tokens/${tokenId}/users/501`)).body.variables).toEqual({ city: "Kazan", age: 30 });
    expect((await get(`/api/bot/tokens/${tokenId}/users/502`)).body.variables).toEqual({});
  });
});

describe("new users per day", () => {
  test("one entry per day, oldest first, days without users are 0", async () => {
    const r = await get(`/api/bot/tokens/${tokenId}/stats/daily?days=7`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(7);
    const counts = r.body.items.map((i: any) => i.newUsers);
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    expect(r.body.items[6].date).toBe(new Date().toISOString().slice(0, 10));
    expect(r.body.items[6].newUsers).toBe(2);
  });

  test("days is clamped to 90 and validated", async () => {
    expect((await get(`/api/bot/tokens/${tokenId}/stats/daily?days=1000`)).body.count).toBe(90);
    expect((await get(`/api/bot/tokens/${tokenId}/stats/daily`)).body.count).toBe(14);
    expect((await get(`/api/bot/tokens/${tokenId}/stats/daily?days=0`)).status).toBe(400);
    expect((await get(`/api/bot/tokens/${tokenId}/stats/daily?days=abc`)).status).toBe(400);
  });

  test("a stranger gets 403, a guest 401", async () => {
    const stranger = await loginAs(env.t, STRANGER);
    expect((await get(`/api/bot/tokens/${tokenId}/stats/daily`, stranger)).status).toBe(403);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/stats/daily`)).status).toBe(401);
  });
});

describe("OpenAPI", () => {
  test("the search and days parameters are documented", async () => {
    const r = await env.call("GET", "/api/openapi.json");
    const users = r.body.paths["/api/bot/tokens/{tokenId}/users"].get.parameters.map((p: any) => p.name);
    expect(users).toContain("search");
    const daily = r.body.paths["/api/bot/tokens/{tokenId}/stats/daily"].get;
    expect(daily.parameters.map((p: any) => p.name)).toContain("days");
  });
});
