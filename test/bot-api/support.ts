// Shared set-up of the bot API tests: an app wired to the fake messenger, a controllable bot
// runtime, an owner with a session and PATs, and a recorder of every response body so that each
// file can scan them (and the logs) for secrets at the end.
import { expect } from "bun:test";
import { projectBotUsers as botUsers } from "../../src/db/project-schema";
import type { BotController, BotInstanceState } from "../../src/bots/controller";
import { createTestApp, loginAs, patFor, setUp, type CallOptions, type CallResult, type TestApp } from "../support/app";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";

export const OWNER = 501;
export const STRANGER = 502;
export const COLLAB = 503;
export const MANAGER = 900; // holder of the bot_manager PAT

/** A bot runtime whose state the test sets; records stop calls. */
export class FakeBots implements BotController {
  states = new Map<number, BotInstanceState>();
  stopped: number[] = [];
  stoppedProjects: number[] = [];
  state(tokenId: number): BotInstanceState {
    return this.states.get(tokenId) ?? { status: "stopped", startedAt: null, pid: null };
  }
  async start(tokenId: number) {
    const s: BotInstanceState = { status: "running", startedAt: Date.now(), pid: 1 };
    this.states.set(tokenId, s);
    return s;
  }
  async stop(tokenId: number) {
    this.stopped.push(tokenId);
    const s: BotInstanceState = { status: "stopped", startedAt: null, pid: null };
    this.states.set(tokenId, s);
    return s;
  }
  async restart(tokenId: number) {
    return this.start(tokenId);
  }
  async stopProject(projectId: number, whileStopped?: () => Promise<void>) {
    this.stoppedProjects.push(projectId);
    await whileStopped?.();
  }
  async shutdown() {}
  async resumeAll() {}
  tell() {
    return false;
  }
}

export interface Recorded {
  method: string;
  path: string;
  status: number;
  text: string;
}

export interface BotApiEnv {
  t: TestApp;
  fake: FakeMessenger;
  bots: FakeBots;
  cookie: string;
  pat: string;
  managerPat: string;
  /** every response of `call`, for the secret scan */
  responses: Recorded[];
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export async function botApiEnv(): Promise<BotApiEnv> {
  const fake = await startFakeMessenger();
  const bots = new FakeBots();
  const t = createTestApp({ env: { MESSENGER_API_ROOT: fake.url }, bots });
  await setUp(t);
  const cookie = await loginAs(t, OWNER);
  const responses: Recorded[] = [];
  return {
    t,
    fake,
    bots,
    cookie,
    pat: patFor(t, OWNER),
    managerPat: patFor(t, MANAGER, ["bot_manager"]),
    responses,
    async call(method, path, opts) {
      const r = await t.call(method, path, opts);
      responses.push({ method, path, status: r.status, text: r.text });
      return r;
    },
    async close() {
      t.cleanup();
      await fake.stop();
    },
  };
}

export function createProject(env: BotApiEnv, ownerId = OWNER, name = "P"): number {
  env.t.ctx.auth.ensureUser(ownerId);
  return env.t.ctx.projects.create(ownerId, { name }).id;
}

/** Adds a bot on the fake platform and its token to the project through the API. */
export async function addToken(env: BotApiEnv, projectId: number, opts: { hasPhoto?: boolean; name?: string; firstName?: string } = {}) {
  const bot = env.fake.addBot({ hasPhoto: opts.hasPhoto, firstName: opts.firstName });
  const r = await env.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: bot.token, ...(opts.name ? { name: opts.name } : {}) } });
  expect(r.status).toBe(200);
  return { bot, tokenId: r.body.id as number };
}

export function seedBotUser(env: BotApiEnv, projectId: number, tokenId: number, u: { userId: string; firstName?: string; username?: string; firstSeenAt?: string; lastSeenAt?: string; interactionCount?: number }) {
  env.t.ctx.projectFiles
    .open(projectId)
    .insert(botUsers)
    .values({
      tokenId,
      userId: u.userId,
      firstName: u.firstName ?? `First${u.userId}`,
      username: u.username ?? `user${u.userId}`,
      firstSeenAt: u.firstSeenAt ?? new Date().toISOString(),
      lastSeenAt: u.lastSeenAt ?? u.firstSeenAt ?? new Date().toISOString(),
      interactionCount: u.interactionCount ?? 1,
    })
    .run();
}

/** No recorded response (except the allowed ones) and no log line contains any of the secrets. */
export function expectNoSecrets(env: BotApiEnv, secrets: string[], allowed: (r: Recorded) => boolean = () => false) {
  expect(env.responses.length).toBeGreaterThan(0);
  for (const s of secrets) {
    for (const r of env.responses) {
      if (allowed(r)) continue;
      if (r.text.includes(s)) throw new Error(`secret leaked in ${r.method} ${r.path} (${r.status})`);
    }
    for (const line of env.t.logs) if (line.includes(s)) throw new Error(`secret leaked in a log line: ${line.split(s).join("<SECRET>").slice(0, 300)}`);
  }
}
