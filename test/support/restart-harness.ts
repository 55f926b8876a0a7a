// Shared set-up of the tests that kill and restart real servers: one fake messenger, and every
// server and folder a test makes, ended and removed after the file's tests (also when one fails).
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "./fake-messenger";
import { devLoginOnServer, startProcessServer, type ProcessServer } from "./process";

export interface RestartHarness {
  /** set before the first test runs */
  fake: FakeMessenger;
  dirs: string[];
  servers: ProcessServer[];
}

export function restartHarness(): RestartHarness {
  const h = { dirs: [], servers: [] } as unknown as RestartHarness;
  beforeAll(async () => {
    h.fake = await startFakeMessenger();
  });
  afterAll(async () => {
    for (const s of h.servers) await s.stop("SIGKILL");
    await h.fake.stop();
    for (const d of h.dirs) rmSync(d, { recursive: true, force: true });
  });
  return h;
}

/**
 * The server from source, serving a new folder (removed after the file's tests) with `env` and the
 * harness's fake messenger: each call starts it again on the same files (after a kill, a restart).
 */
export function serverInFolder(h: RestartHarness, prefix: string, env: Record<string, string>): () => Promise<ProcessServer> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  h.dirs.push(dir);
  return async () => {
    const s = await startProcessServer([process.execPath, resolve(import.meta.dir, "../../src/main.ts"), "serve"], { cwd: dir, env: { MESSENGER_API_ROOT: h.fake.url, ...env }, timeoutMs: 30_000 });
    h.servers.push(s);
    return s;
  };
}

/** A project holding `scenario` with one bot on the fake messenger, started, made through `server`'s API by user 1 (dev login with `adminKey`). */
export async function startedBot(h: RestartHarness, server: ProcessServer, adminKey: string, name: string, scenario: unknown) {
  const cookie = await devLoginOnServer(server.url, adminKey, 1);
  const post = (path: string, body?: unknown) => fetch(server.url + path, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const project = await (await post("/api/projects", { name, data: scenario })).json();
  const bot: FakeBot = h.fake.addBot({ username: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_bot` });
  const token = await (await post(`/api/bot/projects/${project.id}/tokens`, { token: bot.token })).json();
  expect((await post(`/api/bot/tokens/${token.id}/start`)).status).toBe(200);
  return { bot, tokenId: token.id as number, post };
}
