// The set-up the runner tests share (runners*.test.ts): the platform listening on loopback with
// shared runners over the fake messenger, a fast supervision policy, and bots added through the API.
import { expect } from "bun:test";
import { createApp } from "../../src/app";
import type { BotManager } from "../../src/bots/manager";
import type { SupervisionPolicy } from "../../src/bots/policy";
import type { RunnerPool } from "../../src/bots/runner-pool";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "../support/fake-messenger";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { freePort } from "../support/process";
import { faultScenario } from "./scenario-fixture";

export const FAST_POLICY: SupervisionPolicy = { backoffBaseMs: 100, backoffCapMs: 400, crashLimit: 3, crashWindowMs: 60_000, stopGraceMs: 3000, listenTimeoutMs: 15_000 };

export interface RunnerPlatform {
  t: TestApp;
  fake: FakeMessenger;
  pool(): RunnerPool;
  /** stops every bot, the server and (when it started it) the fake messenger */
  close(): Promise<void>;
}

export async function startRunnerPlatform(opts: { env?: Record<string, string>; policy?: Partial<SupervisionPolicy>; fake?: FakeMessenger } = {}): Promise<RunnerPlatform> {
  const fake = opts.fake ?? (await startFakeMessenger());
  const port = await freePort();
  const t = createTestApp({
    fileDb: true,
    env: { MESSENGER_API_ROOT: fake.url, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}`, BOT_RUNNERS: "1", ...opts.env },
    botPolicy: { ...FAST_POLICY, ...opts.policy },
  });
  await setUp(t);
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  return {
    t,
    fake,
    pool: () => (t.ctx.bots as BotManager).host as RunnerPool,
    async close() {
      await t.ctx.bots.shutdown();
      app.server?.stop(true);
      t.cleanup();
      if (!opts.fake) await fake.stop();
    },
  };
}

export interface TestBot {
  projectId: number;
  tokenId: number;
  bot: FakeBot;
  cookie: string;
}

/** A project of its own with one token (faultScenario unless `data`), in polling or webhook mode. */
export async function addBot(p: RunnerPlatform, cookie: string, name: string, opts: { data?: unknown; mode?: "polling" | "webhook" } = {}): Promise<TestBot> {
  const project = await p.t.call("POST", "/api/projects", { cookie, json: { name, data: opts.data ?? faultScenario } });
  expect(project.status).toBe(201);
  const bot = p.fake.addBot({ username: `${name.toLowerCase()}_bot` });
  const token = await p.t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
  expect(token.status).toBe(200);
  if (opts.mode === "webhook") expect((await p.t.call("PATCH", `/api/bot/tokens/${token.body.id}`, { cookie, json: { launchMode: "webhook" } })).status).toBe(200);
  return { projectId: project.body.id as number, tokenId: token.body.id as number, bot, cookie };
}

/** POST /api/bot/tokens/{id}/start|stop|restart as the bot's owner. */
export const act = (p: RunnerPlatform, b: TestBot, what: "start" | "stop" | "restart") => p.t.call("POST", `/api/bot/tokens/${b.tokenId}/${what}`, { cookie: b.cookie });
