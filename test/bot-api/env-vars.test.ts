import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { projectCollaborators } from "../../src/db/schema";
import { loginAs, patFor } from "../support/app";
import { addToken, botApiEnv, COLLAB, createProject, expectNoSecrets, OWNER, STRANGER, type BotApiEnv } from "./support";

const MASK = "••••••••";
const SECRET = "s3cr3t-value-that-must-not-leak";
const SECRET2 = "another-secret-after-patch-42";

let env: BotApiEnv;
let projectId: number;
let tokenId: number;
let botToken: string;

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env);
  const t = await addToken(env, projectId);
  tokenId = t.tokenId;
  botToken = t.bot.token;
  env.t.ctx.db.insert(projectCollaborators).values({ projectId, userId: COLLAB, invitedBy: OWNER }).run();
});
afterAll(() => env.close());

describe("env variables", () => {
  let secretId: number;
  let plainId: number;

  test("create answers 201 with the raw value; list masks secrets with eight bullets", async () => {
    const s = await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, json: { key: "API_KEY", value: SECRET, isSecret: 1 } });
    expect(s.status).toBe(201);
    expect(s.body).toEqual({ id: expect.any(Number), tokenId, key: "API_KEY", value: SECRET, isSecret: 1 });
    secretId = s.body.id;
    const p = await env.call("POST", `/api/bot/tokens/token_${tokenId}/env?telegram_id=${OWNER}`, { bearer: env.managerPat, json: { key: "GREETING", value: "hi" } });
    expect(p.status).toBe(201);
    expect(p.body).toEqual({ id: expect.any(Number), tokenId, key: "GREETING", value: "hi", isSecret: 0 });
    plainId = p.body.id;
    const empty = await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { bearer: env.pat, json: { key: "EMPTY" } });
    expect(empty.status).toBe(201);
    expect(empty.body.value).toBe("");

    const list = await env.call("GET", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    const byKey = Object.fromEntries(list.body.items.map((i: any) => [i.key, i]));
    expect(byKey.API_KEY).toEqual({ id: secretId, tokenId, key: "API_KEY", value: MASK, isSecret: 1 });
    expect(byKey.API_KEY.value.length).toBe(8);
    expect(byKey.GREETING.value).toBe("hi");
  });

  test("409 for a duplicate key on the same token; the same key on another token is fine", async () => {
    const dup = await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, json: { key: "API_KEY", value: "x" } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("CONFLICT");
    const other = await addToken(env, projectId);
    const ok = await env.call("POST", `/api/bot/tokens/${other.tokenId}/env`, { cookie: env.cookie, json: { key: "API_KEY", value: "x" } });
    expect(ok.status).toBe(201);
  });

  test("create validation: key pattern and length, value length and type, isSecret 0/1", async () => {
    const bad = [
      {},
      { key: "lower" },
      { key: "1ABC" },
      { key: "_ABC" },
      { key: "A-B" },
      { key: "A B" },
      { key: "" },
      { key: "A".repeat(65) },
      { key: 5 },
      { key: "OK", value: 5 },
      { key: "OK", value: "v".repeat(4097) },
      { key: "OK", isSecret: 2 },
      { key: "OK", isSecret: true },
    ];
    for (const json of bad) {
      const r = await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("VALIDATION_FAILED");
    }
    expect((await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, json: { key: "A".repeat(64), value: "v".repeat(4096) } })).status).toBe(201);
    expect((await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
  });

  test("keys the platform sets or the runtime reads (BUN_OPTIONS=--eval would run other code) are 400, on create and on rename", async () => {
    for (const key of ["BUN_OPTIONS", "BUN_BE_BUN", "NODE_OPTIONS", "NODE_TLS_REJECT_UNAUTHORIZED", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "BOTLOOM_SUPERVISED", "BOT_TOKEN", "ADMIN_IDS", "PATH", "HOME"]) {
      const r = await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, json: { key, value: "--eval process.exit(7)" } });
      expect({ key, status: r.status, error: r.body.error }).toEqual({ key, status: 400, error: "VALIDATION_FAILED" });
      expect(r.body.message).toContain("reserved");
      expect((await env.call("PATCH", `/api/bot/env/${plainId}`, { cookie: env.cookie, json: { key } })).status).toBe(400);
    }
    expect((await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: env.cookie, json: { key: "BUNNY", value: "ok" } })).status).toBe(201);
  });

  test("PATCH: masked answer for secrets, 409 on a key taken by another variable, renaming to its own key is fine", async () => {
    const r = await env.call("PATCH", `/api/bot/env/${secretId}`, { cookie: env.cookie, json: { value: SECRET2 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: secretId, tokenId, key: "API_KEY", value: MASK, isSecret: 1 });
    const clash = await env.call("PATCH", `/api/bot/env/${plainId}`, { cookie: env.cookie, json: { key: "API_KEY" } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe("CONFLICT");
    const same = await env.call("PATCH", `/api/bot/env/${secretId}`, { cookie: env.cookie, json: { key: "API_KEY" } });
    expect(same.status).toBe(200);
    const rename = await env.call("PATCH", `/api/bot/env/${plainId}`, { bearer: env.pat, json: { key: "HELLO", isSecret: 1 } });
    expect(rename.body).toEqual({ id: plainId, tokenId, key: "HELLO", value: MASK, isSecret: 1 });
    const unsecret = await env.call("PATCH", `/api/bot/env/${plainId}`, { bearer: env.pat, json: { isSecret: 0 } });
    expect(unsecret.body.value).toBe("hi");
    const noop = await env.call("PATCH", `/api/bot/env/${secretId}`, { bearer: env.pat, json: {} });
    expect(noop.body.value).toBe(MASK);
    for (const json of [{ key: "bad" }, { value: 1 }, { isSecret: 3 }, { value: SECRET2.repeat(200) }]) {
      expect((await env.call("PATCH", `/api/bot/env/${plainId}`, { cookie: env.cookie, json })).status).toBe(400);
    }
    expect((await env.call("PATCH", `/api/bot/env/777777`, { cookie: env.cookie, json: { value: "x" } })).status).toBe(404);
    expect((await env.call("PATCH", `/api/bot/env/env_1`, { cookie: env.cookie, json: { value: "x" } })).status).toBe(400);
    expect((await env.call("PATCH", `/api/bot/env/${plainId}`, { bearer: patFor(env.t, STRANGER), json: { value: "x" } })).status).toBe(403);
  });

  test("reveal: only the project owner; collaborators and strangers 403", async () => {
    const r = await env.call("GET", `/api/bot/env/${secretId}/reveal`, { cookie: env.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ value: SECRET2 });
    const viaManager = await env.call("GET", `/api/bot/env/${secretId}/reveal?messenger_id=${OWNER}`, { bearer: env.managerPat });
    expect(viaManager.status).toBe(200);
    const collab = await loginAs(env.t, COLLAB);
    const c = await env.call("GET", `/api/bot/env/${secretId}/reveal`, { cookie: collab });
    expect(c.status).toBe(403);
    expect(c.body.error).toBe("FORBIDDEN");
    expect((await env.call("GET", `/api/bot/env/${secretId}/reveal`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/env/${secretId}/reveal?messenger_id=${COLLAB}`, { bearer: env.managerPat })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/env/999999/reveal`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/env/abc/reveal`, { cookie: env.cookie })).status).toBe(400);
    expect((await env.call("GET", `/api/bot/env/${secretId}/reveal`)).status).toBe(401);
  });

  test("issue 12: a collaborator cannot unmask a secret with PATCH isSecret 0 (owner-only, like reveal)", async () => {
    const collab = await loginAs(env.t, COLLAB);
    for (const [opts, q] of [[{ cookie: collab }, ""], [{ bearer: env.managerPat }, `?messenger_id=${COLLAB}`]] as const) {
      for (const body of [{ isSecret: 0 }, { isSecret: 0, key: "API_KEY" }]) {
        const r = await env.call("PATCH", `/api/bot/env/${secretId}${q}`, { ...opts, json: body });
        expect(r.status).toBe(403);
        expect(r.body.error).toBe("FORBIDDEN");
        expect(r.text).not.toContain(SECRET2);
      }
    }
    const list = await env.call("GET", `/api/bot/tokens/${tokenId}/env`, { cookie: collab });
    expect(list.body.items.find((i: any) => i.key === "API_KEY")).toMatchObject({ value: MASK, isSecret: 1 });
    // a collaborator may still change a secret's value and keep it secret, or make a plain one secret
    const kept = await env.call("PATCH", `/api/bot/env/${secretId}`, { cookie: collab, json: { isSecret: 1 } });
    expect(kept.status).toBe(200);
    expect(kept.body.value).toBe(MASK);
    // the owner may unmask (and gets the value, as a plain variable's answer carries it)
    const owner = await env.call("PATCH", `/api/bot/env/${secretId}`, { cookie: env.cookie, json: { isSecret: 0 } });
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ value: SECRET2, isSecret: 0 });
    expect((await env.call("PATCH", `/api/bot/env/${secretId}`, { cookie: env.cookie, json: { isSecret: 1 } })).status).toBe(200);
  });

  test("a collaborator lists (masked), creates and deletes", async () => {
    const collab = await loginAs(env.t, COLLAB);
    const list = await env.call("GET", `/api/bot/tokens/${tokenId}/env`, { cookie: collab });
    expect(list.status).toBe(200);
    expect(list.body.items.find((i: any) => i.key === "API_KEY").value).toBe(MASK);
    const created = await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { cookie: collab, json: { key: "FROM_COLLAB", value: "1" } });
    expect(created.status).toBe(201);
    const del = await env.call("DELETE", `/api/bot/env/${created.body.id}`, { cookie: collab });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
  });

  test("token-level errors: unknown token 404, foreign 403, bad id 400, no credentials 401, bot_manager without messenger_id 400", async () => {
    expect((await env.call("GET", `/api/bot/tokens/123456/env`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("POST", `/api/bot/tokens/123456/env`, { cookie: env.cookie, json: { key: "A" } })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/env`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("POST", `/api/bot/tokens/${tokenId}/env`, { bearer: patFor(env.t, STRANGER), json: { key: "A" } })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/tokens/t${tokenId}/env`, { cookie: env.cookie })).status).toBe(400);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/env`)).status).toBe(401);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/env`, { bearer: env.managerPat })).status).toBe(400);
    expect((await env.call("GET", `/api/bot/tokens/${tokenId}/env?messenger_id=${STRANGER}`, { bearer: env.pat })).status).toBe(403);
  });

  test("delete: 404 afterwards, foreign 403", async () => {
    expect((await env.call("DELETE", `/api/bot/env/${plainId}`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("DELETE", `/api/bot/env/${plainId}`, { cookie: env.cookie })).status).toBe(200);
    expect((await env.call("DELETE", `/api/bot/env/${plainId}`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("DELETE", `/api/bot/env/0`, { cookie: env.cookie })).status).toBe(400);
  });
});

test("secret values appear only in the create and reveal answers; never in logs; the bot token nowhere", () => {
  // the owner's unmasking PATCH answers the now ordinary value
  const allowed = (r: { method: string; path: string; text?: string; status?: number }) =>
    (r.method === "POST" && /\/env(\?|$)/.test(r.path)) || /\/reveal(\?|$)/.test(r.path) || (r.method === "PATCH" && r.status === 200 && /"isSecret":0/.test(r.text ?? ""));
  expectNoSecrets(env, [SECRET, SECRET2], allowed);
  expectNoSecrets(env, [botToken]);
});
