// The commands table of the analytics (docs/analytics.md "What is counted") with a real bot: a
// command is counted when it is this bot's — `/help@this_bot` and any letter case count, while
// `/help@other_bot` in a group is meant for another bot, which the scenario does not answer either.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { FakeUser } from "../support/fake-messenger";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  version: 2,
  sheets: [{ id: "main", name: "Main", edges: [], nodes: [at("helpCmd", "command_trigger", { command: "/help", autoTransitionTo: "help" }), at("help", "message", { messageText: "Help text" })] }],
};
const GROUP = -100_777;
const ann: FakeUser = { id: 73_001, first_name: "Ann" };

let p: RunnerPlatform;
let b: TestBot;

beforeAll(async () => {
  p = await startRunnerPlatform();
  b = await addBot(p, await loginAs(p.t, 73), "Cmds", { data: scenario });
  expect((await act(p, b, "start")).status).toBe(200);
}, 30_000);
afterAll(async () => {
  await p?.close();
});

test("a command addressed to another bot is no command of this bot's, in the figures as in the replies", async () => {
  const token = b.bot.token;
  p.fake.sendGroupMessage(token, GROUP, ann, "/help@other_bot");
  p.fake.sendGroupMessage(token, GROUP, ann, "/help@cmds_bot");
  expect((await p.fake.waitForSent(token, GROUP, 1, 15_000))[0]!.params.text).toBe("Help text");
  p.fake.sendText(token, ann, "/HELP");
  expect((await p.fake.waitForSent(token, ann.id, 1, 15_000))[0]!.params.text).toBe("Help text");
  const figures = await until(async () => {
    const r = await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics`, { cookie: b.cookie });
    return r.body.totals?.messagesIn === 3 && r.body.totals.messagesOut === 2 ? r.body : undefined;
  }, "the three messages counted");
  // the group got one answer: the other bot's command ran nothing here
  expect(p.fake.sent(token, GROUP).length).toBe(1);
  expect(figures.commands).toEqual([{ command: "help", count: 2 }]);
}, 60_000);
