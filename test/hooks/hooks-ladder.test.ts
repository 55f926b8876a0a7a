// The failure ladder of POST /api/hooks/<id> (docs/hooks.md "Security"), each test on an app of its
// own: its address starts with no failures. Wrong secrets and unknown ids count against the address
// whichever hook they aim at; a right secret of another hook (the caller's own) does not clear them.
import { afterEach, describe, expect, test } from "bun:test";
import { botTokens } from "../../src/db/schema";
import { FailureLadder } from "../../src/http/rate-limit";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { TellingBots } from "./telling-bots";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("form", "webhook_trigger", { autoTransitionTo: "thanks", rateLimitPerMinute: 6000 }),
      node("paid", "webhook_trigger", { autoTransitionTo: "thanks", rateLimitPerMinute: 6000 }),
      node("thanks", "message", { messageText: "thanks" }),
    ],
  }],
};

const apps: TestApp[] = [];
afterEach(() => {
  for (const a of apps.splice(0)) a.cleanup();
});

let t: TestApp;
let bots: TellingBots;
let cookie: string;
let project: number;

/** A fresh app with one running bot and a project of two webhook nodes. */
async function fresh() {
  bots = new TellingBots();
  t = createTestApp({ bots });
  apps.push(t);
  await setUp(t);
  cookie = await loginAs(t, 81);
  project = (await t.call("POST", "/api/projects", { cookie, json: { name: "Shop", data: scenario } })).body.id;
  const token = t.ctx.db.insert(botTokens).values({ projectId: project, token: "123456:AAHookLadderTokenAbcdefghijklm", name: "b" }).returning({ id: botTokens.id }).get().id;
  bots.running.add(token);
}

const secretFor = async (nodeId: string) => {
  const r = await t.call("POST", `/api/projects/${project}/hooks/${nodeId}/secret`, { cookie });
  expect(r.status).toBe(201);
  return r.body as { hookId: string; path: string; secret: string };
};
const hook = (path: string, opts: { secret?: string; json?: unknown } = {}) =>
  t.call("POST", path, {
    body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
    headers: { "content-type": "application/json", ...(opts.secret ? { "x-botloom-secret": opts.secret } : {}) },
  });

describe("wrong hook secrets from one address", () => {
  test("a right secret of another hook between the guesses does not clear them: the guesses are held up as in a loop", async () => {
    await fresh();
    const own = await secretFor("form");
    const victim = await secretFor("paid");
    const wrong: number[] = [];
    const right: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 9; i++) wrong.push((await hook(victim.path, { secret: `whs_guess-${round}-${i}-0123456789`, json: { user_id: 1 } })).status);
      right.push((await hook(own.path, { secret: own.secret, json: { user_id: 1 } })).status);
    }
    // ten are free; the eleventh comes within a second of the tenth and must wait
    expect(wrong.filter((s) => s === 401).length).toBe(10);
    expect(wrong.slice(10).every((s) => s === 429)).toBe(true);
    expect(right[0]).toBe(200);
    expect(right.at(-1)).toBe(429);
  });

  test("wrong secrets in a loop are rate limited (429, the right secret too) and logged without the secret", async () => {
    await fresh();
    const h = await secretFor("form");
    const wrong = "whs_wrong-secret-in-a-loop-0123456789";
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await hook(h.path, { secret: wrong, json: { user_id: 1 } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const n = bots.told.length;
    expect((await hook(h.path, { secret: h.secret, json: { user_id: 1 } })).status).toBe(429);
    expect(bots.told.length).toBe(n);
    const lines = t.logs.filter((l) => l.includes(`hook ${h.hookId}: missing or wrong secret`));
    expect(lines.length).toBeGreaterThan(0);
    expect(t.logs.join("\n")).not.toContain(wrong);
    expect(t.logs.join("\n")).not.toContain(h.secret);
  });
});

describe("the ladder's memory", () => {
  test("with forgetAfterMs, an address quiet that long starts again at zero; a lock still serves its time", () => {
    let now = 1_000_000;
    const l = new FailureLadder(3, () => now, 60_000);
    for (let i = 0; i < 4; i++) l.fail("a");
    expect(l.waitFor("a")).toBe(2);
    now += 59_999;
    expect(l.waitFor("a")).toBe(0);
    expect(l.fail("a").count).toBe(5);
    now += 60_000;
    expect(l.waitFor("a")).toBe(0);
    expect(l.fail("a").count).toBe(1);
    for (let i = 2; i <= 12; i++) l.fail("a");
    now += 60_000;
    expect(l.waitFor("a")).toBe(14 * 60);
  });
});
