// End-to-end (docs/analytics.md "What is counted"): the triggers that are no command — a reaction,
// a member update, a webhook and a schedule — count their node as reached when they fire, with
// their transition into the flow, per user where a user is known: a reaction's and a member's
// update carry one, a webhook names a private chat (its user); a schedule that runs in a group
// has no user and counts visits only. And a window of many new users, written in slices (40 users
// at once, each walking four nodes and three transitions: 280 write-side rows, several slices of
// COUNT_SLICE), counts each exactly once. A real bot in a shared runner on the fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import type { FakeUser } from "../support/fake-messenger";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const GROUP = { id: -100_777, type: "supergroup", title: "Club" };
const scenario = {
  version: 2,
  sheets: [{
    id: "main", name: "Main", edges: [], nodes: [
      at("start", "start", { command: "/start", messageText: "Hello" }),
      at("liked", "reaction_trigger", { emoji: ["👍"], autoTransitionTo: "thanks" }),
      at("thanks", "message", { messageText: "thanks" }),
      at("joins", "member_trigger", { memberEvents: ["joined"], autoTransitionTo: "welcome" }),
      at("welcome", "message", { messageText: "welcome {member_id}" }),
      at("tick", "schedule_trigger", { rules: [{ mode: "interval", intervalMinutes: 600 }], runOnStart: true, targetChatId: String(GROUP.id), autoTransitionTo: "tock" }),
      at("tock", "message", { messageText: "daily news" }),
      at("walk", "command", { command: "/walk", messageText: "Hi", autoTransitionTo: "a" }),
      at("a", "set_variable", { assignments: [{ variable: "x", value: "1" }], autoTransitionTo: "b" }),
      at("b", "set_variable", { assignments: [{ variable: "y", value: "2" }], autoTransitionTo: "c" }),
      at("c", "message", { messageText: "Done" }),
    ],
  }],
};

let p: RunnerPlatform;
let b: TestBot;

beforeAll(async () => {
  p = await startRunnerPlatform({ env: { BOT_ISOLATION: "runner" } });
  const cookie = await loginAs(p.t, 74);
  b = await addBot(p, cookie, "TriggerCounts", { data: scenario });
  expect((await act(p, b, "start")).status).toBe(200);
}, 30_000);
afterAll(async () => {
  await p?.close();
});

test("reactions, member updates and a schedule in a group count their trigger nodes and transitions", async () => {
  const ann: FakeUser = { id: 74_001, first_name: "Ann", language_code: "en" };
  const bob: FakeUser = { id: 74_002, first_name: "Bob", language_code: "en" };
  // the schedule ran once at start, in the group: no user
  expect((await p.fake.waitForSent(b.bot.token, GROUP.id, 1, 15_000))[0]!.params.text).toBe("daily news");
  p.fake.sendText(b.bot.token, ann, "/start");
  const [hello] = await p.fake.waitForSent(b.bot.token, ann.id, 1, 15_000);
  const now = Math.floor(Date.now() / 1000);
  const reaction = (emoji: string[], before: string[]) => ({
    message_reaction: { chat: { id: ann.id, type: "private", first_name: "Ann" }, message_id: hello!.messageId, user: ann, date: now,
      old_reaction: before.map((e) => ({ type: "emoji", emoji: e })), new_reaction: emoji.map((e) => ({ type: "emoji", emoji: e })) },
  });
  p.fake.pushUpdate(b.bot.token, reaction(["👍"], []));
  expect((await p.fake.waitForSent(b.bot.token, ann.id, 1, 15_000))[0]!.params.text).toBe("thanks");
  // a second reaction of the same user: one more visit, no more users
  p.fake.pushUpdate(b.bot.token, reaction(["❤", "👍"], ["❤"]));
  expect((await p.fake.waitForSent(b.bot.token, ann.id, 1, 15_000))[0]!.params.text).toBe("thanks");
  for (const u of [ann, bob]) {
    p.fake.pushUpdate(b.bot.token, { chat_member: { chat: GROUP, from: u, date: now, old_chat_member: { status: "left", user: u }, new_chat_member: { status: "member", user: u } } });
    expect((await p.fake.waitForSent(b.bot.token, GROUP.id, 1, 15_000))[0]!.params.text).toBe(`welcome ${u.id}`);
  }
  const get = (path: string) => p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics${path}`, { cookie: b.cookie });
  const funnel = await until(async () => {
    const r = await get("/nodes");
    return r.body.items?.some((n: { nodeId: string; users: number }) => n.nodeId === "joins" && n.users === 2) ? r : undefined;
  }, "the member trigger counted", 15_000);
  // node, users, visits
  const nodes: [string, number, number][] = [["joins", 2, 2], ["welcome", 2, 2], ["liked", 1, 2], ["start", 1, 1], ["thanks", 1, 2], ["tick", 0, 1], ["tock", 0, 1]];
  expect(funnel.body.items).toEqual(nodes.map(([nodeId, users, visits]) => ({ nodeId, sheetId: "main", users, visits })));
  // the schedule's transition had no user to count
  expect(funnel.body.edges.map((e: { from: string; to: string; users: number }) => [e.from, e.to, e.users])).toEqual([["joins", "welcome", 2], ["liked", "thanks", 1]]);
}, 60_000);

test("280 write-side rows of one window, in slices, each counted once", async () => {
  const USERS = 40;
  const users = Array.from({ length: USERS }, (_, i) => ({ id: 74_100 + i, first_name: `U${i}` }));
  for (const u of users) p.fake.sendText(b.bot.token, u, "/walk");
  await Promise.all(users.map((u) => p.fake.waitForSent(b.bot.token, u.id, 2, 20_000)));
  const walked = (r: { body: { items?: { nodeId: string }[]; edges?: { from: string }[] } }) => ({
    items: (r.body.items ?? []).filter((n) => ["walk", "a", "b", "c"].includes(n.nodeId)),
    edges: (r.body.edges ?? []).filter((e) => ["walk", "a", "b"].includes(e.from)),
  });
  const get = () => p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics/nodes`, { cookie: b.cookie });
  const funnel = await until(async () => {
    const w = walked(await get());
    return w.edges.length === 3 && w.edges.every((e: any) => e.users === USERS) ? w : undefined;
  }, "every transition counted", 15_000).catch(async () => walked(await get()));
  expect(funnel.items).toEqual(["a", "b", "c", "walk"].map((nodeId) => ({ nodeId, sheetId: "main", users: USERS, visits: USERS })));
  expect(funnel.edges).toEqual([["a", "b"], ["b", "c"], ["walk", "a"]].map(([from, to]) => ({ from, to, users: USERS })));
}, 60_000);
