// A window of many new users is written in slices (docs/analytics.md "Where it is counted"): 40
// users arriving at once, each walking four nodes and three transitions, are 280 write-side rows —
// several slices of COUNT_SLICE — and the funnel still counts each exactly once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const USERS = 40;
let p: RunnerPlatform;
let b: TestBot;

beforeAll(async () => {
  p = await startRunnerPlatform({ env: { BOT_ISOLATION: "runner" } });
  const cookie = await loginAs(p.t, 76);
  b = await addBot(p, cookie, "Slices", {
    data: { version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes: [
      at("start", "start", { command: "/start", messageText: "Hi", autoTransitionTo: "a" }),
      at("a", "set_variable", { assignments: [{ variable: "x", value: "1" }], autoTransitionTo: "b" }),
      at("b", "set_variable", { assignments: [{ variable: "y", value: "2" }], autoTransitionTo: "c" }),
      at("c", "message", { messageText: "Done" }),
    ] }] },
  });
  expect((await act(p, b, "start")).status).toBe(200);
}, 30_000);
afterAll(async () => {
  await p?.close();
});

test("280 write-side rows of one window, in slices, each counted once", async () => {
  const users = Array.from({ length: USERS }, (_, i) => ({ id: 76_100 + i, first_name: `U${i}` }));
  for (const u of users) p.fake.sendText(b.bot.token, u, "/start");
  await Promise.all(users.map((u) => p.fake.waitForSent(b.bot.token, u.id, 2, 20_000)));
  const funnel = await until(async () => {
    const r = await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics/nodes`, { cookie: b.cookie });
    return r.body.edges?.length === 3 && r.body.edges.every((e: { users: number }) => e.users === USERS) ? r : undefined;
  }, "every transition counted", 15_000).catch(() => p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics/nodes`, { cookie: b.cookie }));
  expect(funnel.body.items).toEqual(["a", "b", "c", "start"].map((nodeId) => ({ nodeId, sheetId: "s", users: USERS, visits: USERS })));
  expect(funnel.body.edges).toEqual([["a", "b"], ["b", "c"], ["start", "a"]].map(([from, to]) => ({ from, to, users: USERS })));
  const figures = await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics`, { cookie: b.cookie });
  expect(figures.body.totals).toMatchObject({ users: USERS, newUsers: USERS, activeUsers: USERS, messagesIn: USERS, messagesOut: 2 * USERS });
}, 60_000);
