// The one-time backfill (docs/analytics.md "Backfill"): a bot that starts counting over a project
// file with users recorded before counting began adds them to new users at the hour they were
// first seen — people who wrote (bot_people), and older versions' users (bot_users) without a
// person record — in chunks, exactly once: a restart adds nothing. Users first seen after counting
// began (already counted), people who never wrote, and a user in both tables once only.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const HOUR = 3_600_000;
const hourAgo = (n: number) => new Date(Math.floor(Date.now() / HOUR) * HOUR - n * HOUR);
const at = (n: number, minutes = 10) => new Date(hourAgo(n).getTime() + minutes * 60_000).toISOString();
/** More than one chunk (BACKFILL_ROWS = 2000) of people in the oldest hour. */
const MANY = 2500;

let p: RunnerPlatform;
let b: TestBot;

beforeAll(async () => {
  p = await startRunnerPlatform({ env: { BOT_ISOLATION: "runner" } });
  const cookie = await loginAs(p.t, 75);
  b = await addBot(p, cookie, "Backfill", { data: { version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "Hi" } }] }] } });
  const db = p.t.ctx.projectFiles.open(b.projectId).$client;
  const person = db.query("INSERT INTO bot_people (token_id, user_id, first_seen_at, last_seen_at, messages_in) VALUES (?, ?, ?, ?, ?)");
  const user = db.query("INSERT INTO bot_users (token_id, user_id, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < MANY; i++) person.run(b.tokenId, String(500_000 + i), at(72), at(72), 1);
    person.run(b.tokenId, "1", at(48), at(48), 3);
    person.run(b.tokenId, "2", at(48, 40), at(48), 1);
    person.run(b.tokenId, "3", at(47), at(47), 0); // only ever sent to: never a new user
    person.run(b.tokenId, "4", at(2), at(2), 1); // came when the bot counted: counted then
    user.run(b.tokenId, "1", at(48), at(48)); // also a person: once
    user.run(b.tokenId, "5", at(30).replace("T", " ").slice(0, 19), at(30)); // an older version's user, SQLite's time format
  })();
  // counting began 5 hours ago (its first counted hour), when user 4 was counted as new
  db.query("INSERT INTO analytics_hours (token_id, hour, new_users, active_users, messages_in) VALUES (?, ?, 1, 1, 1)").run(b.tokenId, at(2).slice(0, 13));
  db.query("INSERT INTO analytics_hours (token_id, hour, messages_in) VALUES (?, ?, 1)").run(b.tokenId, at(5).slice(0, 13));
  expect((await act(p, b, "start")).status).toBe(200);
}, 30_000);
afterAll(async () => {
  await p?.close();
});

test("users recorded before counting began become new users at their first hour, once", async () => {
  const db = p.t.ctx.projectFiles.open(b.projectId).$client;
  const mark = () => db.query("SELECT before, cursor, done FROM analytics_backfill WHERE token_id = ?").get(b.tokenId) as { before: string; cursor: string; done: number } | null;
  await until(() => mark()?.done === 1, "the backfill done", 15_000);
  expect(mark()!.before).toBe(hourAgo(5).toISOString());
  const hours = () => Object.fromEntries((db.query("SELECT hour, new_users FROM analytics_hours WHERE token_id = ? AND new_users > 0 ORDER BY hour").all(b.tokenId) as { hour: string; new_users: number }[]).map((r) => [r.hour, r.new_users]));
  const expected = { [at(72).slice(0, 13)]: MANY, [at(48).slice(0, 13)]: 2, [at(30).slice(0, 13)]: 1, [at(2).slice(0, 13)]: 1 };
  expect(hours()).toEqual(expected);
  const r = await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics`, { cookie: b.cookie });
  expect(r.body.totals.users).toBe(MANY + 4);

  // a restart finds the marker: nothing is added again
  expect((await act(p, b, "restart")).status).toBe(200);
  p.fake.sendText(b.bot.token, { id: 6, first_name: "New" }, "/start");
  await p.fake.waitForSent(b.bot.token, 6, 1, 15_000);
  await until(() => (db.query("SELECT sum(new_users) AS n FROM analytics_hours WHERE token_id = ?").get(b.tokenId) as { n: number }).n === MANY + 5, "the new user counted", 15_000);
  expect(hours()).toEqual({ ...expected, [new Date().toISOString().slice(0, 13)]: (expected[new Date().toISOString().slice(0, 13)] ?? 0) + 1 });
}, 60_000);
