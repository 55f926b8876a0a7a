// The start-up resume runs shortly after the app answers (src/main.ts). A user who starts a bot in
// that moment must keep his start: the resume neither closes his launch as "server stopped
// unexpectedly" nor tries to start the bot again ("could not resume … already running"). Two apps
// on one data directory stand for the server before and after an unclean stop; real runners on the
// fake messenger.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { FAST_POLICY } from "./runner-platform";
import { greeterScenario } from "./scenario-fixture";

let fake: FakeMessenger;
let dir: string;
const apps: TestApp[] = [];

const app = () => {
  const t = createTestApp({ fileDb: true, botPolicy: FAST_POLICY, env: { DATA_DIR: join(dir, "data"), BOTS_DIR: join(dir, "bots"), UPLOADS_DIR: join(dir, "uploads"), MESSENGER_API_ROOT: fake.url, BOT_RUNNERS: "1" } });
  apps.push(t);
  return t;
};

beforeAll(async () => {
  fake = await startFakeMessenger();
  dir = mkdtempSync(join(tmpdir(), "botloom-resume-race-"));
});

afterAll(async () => {
  for (const t of apps) {
    await t.ctx.bots.shutdown();
    t.cleanup();
  }
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Bot {
  projectId: number;
  tokenId: number;
  bot: FakeBot;
}

test("a user's start made before the start-up resume keeps its launch; the resume does not fight it", async () => {
  // The server before: two bots running, then it dies without closing their launches.
  const before = app();
  await setUp(before);
  const cookie = await loginAs(before, 1801);
  const bots: Bot[] = [];
  for (const name of ["Early", "Racing"]) {
    const project = await before.call("POST", "/api/projects", { cookie, json: { name, data: greeterScenario } });
    const bot = fake.addBot({ username: `${name.toLowerCase()}_bot` });
    const token = await before.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
    expect((await before.call("POST", `/api/bot/tokens/${token.body.id}/start`, { cookie })).status).toBe(200);
    bots.push({ projectId: project.body.id, tokenId: token.body.id, bot });
  }
  await before.ctx.bots.shutdown(); // stops the processes and keeps both wanted, as a kill -9 would
  before.ctx.db.$client.exec("update bot_launches set status = 'running', stopped_at = null"); // ... and leaves the launches open
  const dangling = (before.ctx.db.$client.query("select id from bot_launches").all() as { id: number }[]).map((r) => r.id);
  before.cleanup();
  apps.splice(apps.indexOf(before), 1);

  // The server after: the app answers, a user starts one bot (done) and another (still under way)
  // before the background resume begins.
  const after = app();
  const [early, racing] = bots as [Bot, Bot];
  const started = await after.call("POST", `/api/bot/tokens/${early.tokenId}/start`, { cookie });
  expect([started.status, started.text]).toEqual([200, started.text]);
  const underWay = after.call("POST", `/api/bot/tokens/${racing.tokenId}/start`, { cookie });
  await until(() => after.ctx.bots.state(racing.tokenId).status !== "stopped", "the user's start to begin");
  await after.ctx.bots.resumeAll();
  expect((await underWay).status).toBe(200);

  expect(after.logs.filter((l) => l.includes("could not resume"))).toEqual([]);
  for (const b of bots) {
    expect(after.ctx.bots.state(b.tokenId).status).toBe("running");
    const launches = after.ctx.db.$client.query("select id, status, stopped_at, error_message from bot_launches where token_id = ? order by id").all(b.tokenId) as { id: number; status: string; stopped_at: string | null; error_message: string | null }[];
    // The earlier server's launch is closed as such; the user's own is the one open, and the only new one.
    expect(launches.filter((l) => dangling.includes(l.id)).map((l) => [l.status, l.error_message])).toEqual([["stopped", "server stopped unexpectedly"]]);
    expect(launches.filter((l) => !dangling.includes(l.id)).map((l) => [l.status, l.stopped_at, l.error_message])).toEqual([["running", null, null]]);
    const user = { id: 18000 + b.tokenId, first_name: "Eve" };
    await until(() => fake.calls(b.bot.token, "getUpdates").length > 0, "the bot to poll");
    fake.sendText(b.bot.token, user, "/start");
    expect((await fake.waitForSent(b.bot.token, user.id, 1, 15_000))[0]!.params.text).toBe("Привет, Eve!");
  }
}, 60_000);

test("a bot a user stopped before the resume reached it stays stopped", async () => {
  const t = apps.at(-1)!;
  const cookie = await loginAs(t, 1801);
  const project = await t.call("POST", "/api/projects", { cookie, json: { name: "Halted", data: greeterScenario } });
  const bot = fake.addBot({ username: "halted_bot" });
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
  t.ctx.db.$client.query("update bot_tokens set desired_state = 'running' where id = ?").run(token.body.id);
  // The user's stop (what the route calls) is queued first; the resume reads the bot as wanted and
  // reaches it after the stop.
  const stopped = t.ctx.bots.stop(token.body.id);
  await t.ctx.bots.resumeAll();
  expect((await stopped).status).toBe("stopped");
  expect(t.ctx.bots.state(token.body.id).status).toBe("stopped");
  expect(fake.calls(bot.token, "getUpdates")).toEqual([]);
}, 30_000);
