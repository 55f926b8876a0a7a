// docs/api.md#running-bots under the rules of /api/bot/*, and the older platform's project-level
// spelling (compatibility section), against a controllable runtime. Real processes: test/bots/runtime.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { patFor } from "../support/app";
import { addToken, botApiEnv, createProject, expectNoSecrets, OWNER, STRANGER, type BotApiEnv } from "./support";

let env: BotApiEnv;
let projectId: number;
let first: number;
let second: number;
const botTokensSeen: string[] = [];

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  const a = await addToken(env, projectId, { firstName: "Первый" });
  const b = await addToken(env, projectId);
  first = a.tokenId;
  second = b.tokenId;
  botTokensSeen.push(a.bot.token, b.bot.token);
});
afterAll(() => env.close());

describe("token lifecycle (/api/bot/tokens/{tokenId}/start|stop|restart)", () => {
  test("a bot_manager PAT acts for telegram_id / messenger_id and gets the bot instance status", async () => {
    const r = await env.call("POST", `/api/bot/tokens/token_${second}/start?telegram_id=${OWNER}`, { bearer: env.managerPat });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "running", instance: { tokenId: second, status: "running", botName: expect.any(String), botUsername: expect.any(String), statusLabel: expect.any(String), uptime: expect.any(String) } });
    expect(r.body.instance.token).toBeUndefined();
    const stop = await env.call("POST", `/api/bot/tokens/${second}/stop?messenger_id=${OWNER}`, { bearer: env.managerPat });
    expect(stop.body).toMatchObject({ status: "stopped", instance: { status: "stopped", uptime: "—" } });
    const restart = await env.call("POST", `/api/bot/tokens/${second}/restart?messenger_id=${OWNER}`, { bearer: env.managerPat });
    expect(restart.body.status).toBe("running");
    await env.call("POST", `/api/bot/tokens/${second}/stop`, { cookie: env.cookie });
  });

  test("actor rules and ids: 400 without messenger_id or for a bad id, 403 for a foreign user, 404 unknown token, 401 without credentials", async () => {
    const expectStatus = async (path: string, opts: Parameters<BotApiEnv["call"]>[2], status: number) => {
      const r = await env.call("POST", path, opts);
      expect({ path, status: r.status }).toEqual({ path, status });
    };
    await expectStatus(`/api/bot/tokens/${first}/start`, { bearer: env.managerPat }, 400);
    await expectStatus(`/api/bot/tokens/${first}/start?messenger_id=${STRANGER}`, { bearer: env.managerPat }, 403);
    await expectStatus(`/api/bot/tokens/${first}/start?messenger_id=${STRANGER}`, { cookie: env.cookie }, 403);
    await expectStatus(`/api/bot/tokens/${first}/start`, { bearer: patFor(env.t, STRANGER) }, 403);
    await expectStatus(`/api/bot/tokens/${first}/start`, {}, 401);
    await expectStatus(`/api/bot/tokens/token_x/stop`, { cookie: env.cookie }, 400);
    await expectStatus(`/api/bot/tokens/0/stop`, { cookie: env.cookie }, 400);
    await expectStatus(`/api/bot/tokens/987654/restart`, { cookie: env.cookie }, 404);
    expect(env.bots.states.get(first)?.status ?? "stopped").toBe("stopped");
  });
});

describe("project-level spelling (POST /api/projects/{id}/bot/start|stop|restart)", () => {
  test("tokenId as integer, \"<n>\" or \"token_<n>\"; absent (even without a body) → the first token", async () => {
    for (const tokenId of [second, String(second), `token_${second}`]) {
      const r = await env.call("POST", `/api/projects/${projectId}/bot/restart`, { cookie: env.cookie, json: { tokenId } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ message: "Bot restarted", tokenId: second, status: "running" });
    }
    const noBody = await env.call("POST", `/api/projects/${projectId}/bot/start`, { cookie: env.cookie });
    expect(noBody.status).toBe(200);
    expect(noBody.body).toEqual({ message: "Bot started", tokenId: first, status: "running" });
    const empty = await env.call("POST", `/api/projects/${projectId}/bot/stop`, { cookie: env.cookie, json: {} });
    expect(empty.body).toEqual({ message: "Bot stopped", tokenId: first, status: "stopped" });
    await env.call("POST", `/api/projects/${projectId}/bot/stop`, { cookie: env.cookie, json: { tokenId: second } });
  });

  test("bad tokenId values are 400, another project's token 404, strangers 403, no credentials 401", async () => {
    for (const tokenId of ["", "abc", "token_", "token_0", 0, -1, 1.5, null, "1e3"]) {
      const r = await env.call("POST", `/api/projects/${projectId}/bot/start`, { cookie: env.cookie, json: { tokenId } });
      expect({ tokenId, status: r.status, error: r.body.error }).toEqual({ tokenId, status: 400, error: "VALIDATION_FAILED" });
    }
    const other = createProject(env, OWNER, "Other");
    const foreign = await env.call("POST", `/api/projects/${other}/bot/start`, { cookie: env.cookie, json: { tokenId: first } });
    expect(foreign.status).toBe(404);
    expect((await env.call("POST", `/api/projects/${projectId}/bot/start`, { bearer: patFor(env.t, STRANGER), json: {} })).status).toBe(403);
    expect((await env.call("POST", `/api/projects/${projectId}/bot/start`, { json: {} })).status).toBe(401);
    expect((await env.call("POST", `/api/projects/project_${projectId}/bot/start`, { cookie: env.cookie, json: {} })).status).toBe(400);
    expect(env.bots.states.get(first)?.status ?? "stopped").toBe("stopped");
  });
  test("the project-level spelling follows the bot API actor rules (bot_manager PAT + telegram_id)", async () => {
    const r = await env.call("POST", `/api/projects/${projectId}/bot/start?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { tokenId: first } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: "Bot started", tokenId: first, status: "running" });
    expect((await env.call("POST", `/api/projects/${projectId}/bot/stop`, { bearer: env.managerPat, json: { tokenId: first } })).status).toBe(400);
    expect((await env.call("POST", `/api/projects/${projectId}/bot/stop?telegram_id=${STRANGER}`, { bearer: env.managerPat, json: { tokenId: first } })).status).toBe(403);
    expect((await env.call("POST", `/api/projects/${projectId}/bot/stop?messenger_id=${STRANGER}`, { cookie: env.cookie, json: { tokenId: first } })).status).toBe(403);
    expect((await env.call("POST", `/api/projects/${projectId}/bot/stop?messenger_id=${OWNER}`, { bearer: env.managerPat, json: { tokenId: first } })).body.status).toBe("stopped");
  });
});

test("no response body and no log line carries a bot token", () => {
  expectNoSecrets(env, botTokensSeen);
});
