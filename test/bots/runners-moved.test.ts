// Shared runners: a webhook bot is being started (the manager waits for its port) when another bot
// blocks their runner and the runner is killed. The starting bot did nothing wrong: like a running
// bot it is moved to another runner and its start succeeds — after a server restart this is how
// every webhook bot resuming next to a bot whose redelivered update blocks would otherwise fail.
// Real processes on the fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort, until } from "../support/process";
import { faultScenario } from "./scenario-fixture";

let fake: FakeMessenger;
let t: TestApp;
let alice: string;
let stopApp: () => void = () => {};

async function newBot(name: string, mode: "polling" | "webhook" = "polling") {
  const project = await t.call("POST", "/api/projects", { cookie: alice, json: { name, data: faultScenario } });
  const bot = fake.addBot({ username: `${name.toLowerCase()}_bot` });
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie: alice, json: { token: bot.token } });
  expect(token.status).toBe(200);
  if (mode === "webhook") expect((await t.call("PATCH", `/api/bot/tokens/${token.body.id}`, { cookie: alice, json: { launchMode: "webhook" } })).status).toBe(200);
  return { projectId: project.body.id as number, tokenId: token.body.id as number, bot };
}
const act = (b: { tokenId: number }, what: "start" | "stop") => t.call("POST", `/api/bot/tokens/${b.tokenId}/${what}`, { cookie: alice });

beforeAll(async () => {
  fake = await startFakeMessenger();
  const port = await freePort();
  t = createTestApp({
    fileDb: true,
    env: { MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}`, BOT_RUNNERS: "1", BOT_RUNNER_BLOCK_SECONDS: "2" },
    botPolicy: { backoffBaseMs: 100, backoffCapMs: 400, crashLimit: 3, crashWindowMs: 60_000, stopGraceMs: 3000, listenTimeoutMs: 15_000 },
  });
  await setUp(t);
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  stopApp = () => app.server?.stop(true);
  alice = await loginAs(t, 901);
});

afterAll(async () => {
  await t.ctx.bots.shutdown();
  stopApp();
  t.cleanup();
  await fake.stop();
});

test("a webhook bot starting in a runner killed for another bot's block is moved, and its start succeeds", async () => {
  const culprit = await newBot("Blocker");
  const hooked = await newBot("Hooked", "webhook");
  expect((await act(culprit, "start")).status).toBe(200);
  await until(() => fake.calls(culprit.bot.token, "getUpdates").length > 0, "the blocker to poll");
  const shared = t.ctx.bots.state(culprit.tokenId).pid;
  fake.sendText(culprit.bot.token, { id: 6601, first_name: "Uma" }, "/block");
  await Bun.sleep(700); // the runner is blocked now; the webhook bot's start waits in its pipe
  const started = await act(hooked, "start");
  expect([started.status, started.text]).toEqual([200, started.text]);
  expect(t.ctx.bots.state(hooked.tokenId).status).toBe("running");
  expect(t.ctx.bots.state(hooked.tokenId).pid).not.toBe(shared);
  const user = { id: 6602, first_name: "Uma" };
  fake.sendText(hooked.bot.token, user, "/start");
  expect((await fake.waitForSent(hooked.bot.token, user.id, 1, 15_000))[0]!.params.text).toBe("hello Uma");
  const launches = (await t.call("GET", `/api/projects/${hooked.projectId}/launches/all`, { cookie: alice })).body as { status: string; errorMessage: string | null }[];
  expect(launches.filter((l) => l.status === "error")).toEqual([]);
  expect(launches[0]!.status).toBe("running");
  await act(culprit, "stop");
  expect((await act(hooked, "stop")).body.status).toBe("stopped");
}, 60_000);
