// Secret scan over one session that exercises everything: every endpoint as every kind of caller
// (the authorization matrix), plus the operations that carry secrets in (admin key, messenger
// settings, object-store credentials, PATs, env variables, webhook secret, platform errors that
// echo a bot token). Afterwards no response body or header and no log line may hold a bot token,
// an env secret (except env create 201 and reveal 200, by contract), a PAT (except in the response
// that created it), the admin key or cookie, a session id, the session secret, the storage
// credentials or encryption key, the messenger settings' secrets, or a webhook secret.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { webhookSecret } from "../../src/bots/program";
import { ADMIN_KEY } from "../support/app";
import { ENCRYPTION_KEY, OWNER, S3_KEY_ID, S3_SECRET, hardening, makeFixture, type Hardening, type Ids, type Recorded } from "./fixture";
import { CALLERS, MATRIX, runRow } from "./matrix";

const SESSION_SECRET = "test-session-secret-0123456789"; // createTestApp's
const SETTINGS_CLIENT_SECRET = "messenger-client-secret-7e6d5c4b3a";

let h: Hardening;
let shared: Ids;
const botTokens: string[] = [];
const sessionIds: string[] = [];
const webhookSecrets: string[] = [];
let settingsBotToken = "";

beforeAll(async () => {
  h = await hardening();
  const addBot = h.fake.addBot.bind(h.fake);
  h.fake.addBot = (o) => {
    const b = addBot(o);
    botTokens.push(b.token);
    return b;
  };
  shared = await makeFixture(h);
});
afterAll(() => h.close());

const cookieValue = (c: string) => c.slice(c.indexOf("=") + 1);

test("a session that exercises everything", async () => {
  // every endpoint, as every kind of caller, successes and refusals alike
  for (const row of MATRIX) await runRow(h, row, CALLERS, shared);
  for (const c of [h.owner, h.collab, h.stranger]) sessionIds.push(cookieValue(c).split(".")[0]);

  // the admin key: right and wrong
  expect((await h.call("POST", "/admin/api/login", { body: new URLSearchParams({ key: ADMIN_KEY }) })).status).toBe(302);
  await h.call("POST", "/admin/api/login", { body: new URLSearchParams({ key: `${ADMIN_KEY}x` }) });
  await h.call("POST", "/admin/api/login", { json: { key: ADMIN_KEY } });

  // messenger settings with secrets (dev login stays on); a platform error that echoes the token
  const settingsBot = h.fake.addBot({ username: "login_bot" });
  settingsBotToken = settingsBot.token;
  const put = await h.call("PUT", "/admin/api/app-settings", {
    cookie: h.admin,
    json: { auth: { loginMode: "dev_login" }, messenger: { clientId: "12345", clientSecret: SETTINGS_CLIENT_SECRET, botToken: settingsBot.token } },
  });
  expect(put.status).toBe(200);
  await h.call("GET", "/admin/api/app-settings", { cookie: h.admin });
  const echo = h.fake.addBot();
  h.fake.failNext(echo.token, "getMe", { error_code: 401, description: `Unauthorized: bot${echo.token} / ${echo.token}` });
  expect((await h.call("PUT", "/admin/api/app-settings", { cookie: h.admin, json: { messenger: { botToken: echo.token } } })).status).toBe(400);
  await h.call("GET", "/api/auth/config");

  // a bot token the platform refuses, with the token in the description; one it cannot reach
  const refused = h.fake.addBot();
  h.fake.failNext(refused.token, "getMe", { error_code: 401, description: `Unauthorized: bot${refused.token}` });
  expect((await h.call("POST", `/api/bot/projects/${shared.project}/tokens`, { cookie: h.owner, json: { token: refused.token } })).status).toBe(400);
  const broken = h.fake.addBot();
  h.fake.failNext(broken.token, "getMe", { error_code: 500, description: `boom at /bot${broken.token}/getMe` });
  expect((await h.call("POST", `/api/bot/projects/${shared.project}/tokens`, { cookie: h.owner, json: { token: broken.token } })).status).toBe(502);
  await h.call("POST", `/api/bot/projects/${shared.project}/tokens`, { cookie: h.owner, json: { token: `${shared.botToken} trailing` } });
  await h.call("GET", `/api/bot/projects/${shared.project}/tokens?messenger_id=${OWNER}`, { bearer: h.managerPat });

  // object-store credentials: create, list, update, a failing test (unreachable endpoint), admin views
  const store = await h.call("POST", "/api/storage-configs", {
    cookie: h.owner,
    json: { name: "Bucket", backend: "objstore", config: { bucket: "botloom-bucket", region: "us-east-1", endpoint: "http://127.0.0.1:1" }, objectAccessKeyId: S3_KEY_ID, objectSecretAccessKey: S3_SECRET },
  });
  expect(store.status).toBe(201);
  await h.call("GET", "/api/storage-configs", { cookie: h.owner });
  await h.call("PATCH", `/api/storage-configs/${store.body.id}`, { cookie: h.owner, json: { objectAccessKeyId: S3_KEY_ID, objectSecretAccessKey: S3_SECRET } });
  expect((await h.call("POST", `/api/storage-configs/${store.body.id}/test`, { cookie: h.owner })).status).toBe(400);
  await h.call("GET", "/admin/api/storage-configs", { cookie: h.admin });
  await h.call("POST", `/admin/api/storage-configs/${store.body.id}/test`, { cookie: h.admin });
  await h.call("POST", "/api/storage-configs", { cookie: h.owner, json: { name: "Half", backend: "objstore", config: { bucket: "botloom-bucket", region: "r" }, objectSecretAccessKey: S3_SECRET } });

  // PATs: created (shown once), listed, used, deleted
  const mine = await h.call("POST", "/api/auth/pats", { cookie: h.owner, json: { name: "cli" } });
  expect(mine.status).toBe(201);
  await h.call("GET", "/api/auth/pats", { bearer: mine.body.token });
  const ops = await h.call("POST", "/admin/api/pats", { cookie: h.admin, json: { name: "ops", userId: OWNER, scopes: ["bot_manager"] } });
  expect(ops.status).toBe(201);
  await h.call("GET", "/admin/api/pats", { cookie: h.admin });
  await h.call("GET", `/api/bot/projects?messenger_id=${OWNER}`, { bearer: ops.body.token });
  await h.call("DELETE", `/api/auth/pats/${mine.body.id}`, { cookie: h.owner });
  await h.call("GET", "/api/auth/me", { bearer: mine.body.token }); // revoked now

  // env variables: create, list, change, reveal, refusals
  const created = await h.call("POST", `/api/bot/tokens/${shared.token}/env`, { cookie: h.owner, json: { key: "DB_PASSWORD", value: "env-secret-value-0f1e2d3c", isSecret: 1 } });
  expect(created.status).toBe(201);
  await h.call("GET", `/api/bot/tokens/${shared.token}/env`, { cookie: h.owner });
  await h.call("PATCH", `/api/bot/env/${created.body.id}`, { cookie: h.owner, json: { value: "env-secret-value-0f1e2d3c-v2" } });
  await h.call("PATCH", `/api/bot/env/${created.body.id}`, { cookie: h.owner, json: { key: "bad key", value: "env-secret-value-0f1e2d3c-v3" } });
  expect((await h.call("GET", `/api/bot/env/${created.body.id}/reveal`, { cookie: h.owner })).status).toBe(200);
  await h.call("GET", `/api/bot/env/${created.body.id}/reveal`, { cookie: h.collab });

  // the webhook secret: a right and a wrong one at the intake; program code and export
  const secret = webhookSecret(SESSION_SECRET, shared.project, shared.token);
  webhookSecrets.push(secret);
  await h.call("POST", `/api/webhook/${shared.project}/${shared.token}`, { json: { update_id: 1 }, headers: { "x-telegram-bot-api-secret-token": secret } });
  await h.call("POST", `/api/webhook/${shared.project}/${shared.token}`, { json: { update_id: 1 }, headers: { "x-telegram-bot-api-secret-token": `${secret}x` } });
  // inbound webhooks (docs/hooks.md): a secret made, rotated, used right and wrong, the list
  const hookSecret = await h.call("POST", `/api/projects/${shared.project}/hooks/hookNode/secret`, { cookie: h.owner });
  expect(hookSecret.status).toBe(201);
  await h.call("POST", hookSecret.body.path, { json: { user_id: 1 }, headers: { "x-botloom-secret": hookSecret.body.secret } });
  await h.call("POST", hookSecret.body.path, { json: { user_id: 1 }, headers: { "x-botloom-secret": `${hookSecret.body.secret}x` } });
  await h.call("POST", hookSecret.body.path, { json: { user_id: 1 }, headers: { authorization: `Bearer ${hookSecret.body.secret}` } });
  await h.call("GET", `/api/projects/${shared.project}/hooks`, { cookie: h.owner });
  await h.call("PATCH", `/api/bot/tokens/${shared.token}`, { cookie: h.owner, json: { launchMode: "webhook" } });
  await h.call("POST", `/api/projects/${shared.project}/generate`, { cookie: h.owner, json: {} });
  await h.call("POST", `/api/projects/${shared.project}/export`, { cookie: h.owner });
  await h.call("GET", `/api/bot/projects/${shared.project}/export`, { cookie: h.owner });
  await h.call("GET", `/api/bot/tokens/${shared.token}/status`, { cookie: h.owner });
  await h.call("GET", `/api/projects/${shared.project}`, { cookie: h.owner });
  await h.call("GET", "/api/projects", { cookie: h.owner });
  expect(h.responses.length).toBeGreaterThan(700);
  // ~100 fixtures, each with its own project database file, and preview sessions (a bot process
  // each): 25 s alone on a 2-core machine, 42 s beside the browser tests (npm test runs both).
}, 120_000);

/** Where a secret may appear by contract. */
// The owner's PATCH {isSecret: 0} makes the value an ordinary one: that answer (isSecret 0) carries it.
const unmasked = (r: Recorded) => r.method === "PATCH" && /^\/api\/bot\/env\/\d+(\?|$)/.test(r.path) && r.status === 200 && /"isSecret":0/.test(r.text);
const envAllowed = (r: Recorded) =>
  (r.method === "POST" && /\/api\/bot\/tokens\/[^/]+\/env(\?|$)/.test(r.path) && r.status === 201) || (/\/reveal(\?|$)/.test(r.path) && r.status === 200) || unmasked(r);
const hookAllowed = (r: Recorded) => r.method === "POST" && /^\/api\/projects\/\d+\/hooks\/[^/]+\/secret(\?|$)/.test(r.path) && r.status === 201;
const patAllowed = (r: Recorded) => r.method === "POST" && /^\/(admin\/)?api\/(auth\/)?pats(\?|$)/.test(r.path) && r.status === 201;

function scan(name: string, needle: string | RegExp, allowed: (r: Recorded) => boolean = () => false) {
  const has = (s: string) => (typeof needle === "string" ? s.includes(needle) : needle.test(s));
  for (const r of h.responses) {
    if (allowed(r)) continue;
    if (has(r.text)) throw new Error(`${name} in the body of ${r.method} ${r.path} (${r.status})`);
    if (has(r.headers)) throw new Error(`${name} in a header of ${r.method} ${r.path} (${r.status})`);
  }
  for (const line of h.t.logs) if (has(line)) throw new Error(`${name} in a log line: ${line.slice(0, 200)}`);
}

test("no secret in any response body or header, nor in any log line", () => {
  expect(botTokens.length).toBeGreaterThan(100);
  for (const t of [...botTokens, settingsBotToken]) scan("a bot token", t);
  scan("a bot token (pattern)", /\d{5,}:[A-Za-z0-9_-]{30,}/);
  scan("an env secret", /fixture-secret-\d+-5a4b3c2d1e|env-secret-value-0f1e2d3c/, envAllowed);
  scan("a PAT", /mcp_[A-Za-z0-9]{20,}/, patAllowed);
  for (const pat of [h.ownerPat, h.managerPat]) scan("a PAT", pat);
  scan("the admin key", ADMIN_KEY);
  scan("the admin cookie", cookieValue(h.admin));
  scan("the session secret", SESSION_SECRET);
  for (const id of sessionIds) scan("a session id", id);
  scan("the storage access key id", S3_KEY_ID);
  scan("the storage secret key", S3_SECRET);
  scan("the storage encryption key", ENCRYPTION_KEY);
  scan("the messenger client secret", SETTINGS_CLIENT_SECRET);
  for (const s of webhookSecrets) scan("a webhook secret", s);
  scan("a hook secret", /whs_[A-Za-z0-9]{20,}/, hookAllowed);
});

test("the scan is not vacuous: the contract answers really carry their secrets", () => {
  expect(h.responses.some((r) => envAllowed(r) && /fixture-secret-\d+-5a4b3c2d1e/.test(r.text))).toBe(true);
  expect(h.responses.some((r) => envAllowed(r) && r.text.includes("env-secret-value-0f1e2d3c"))).toBe(true);
  expect(h.responses.some((r) => patAllowed(r) && /mcp_[A-Za-z0-9]{20,}/.test(r.text))).toBe(true);
  expect(h.responses.some((r) => hookAllowed(r) && /whs_[A-Za-z0-9]{20,}/.test(r.text))).toBe(true);
  expect(h.t.logs.length).toBeGreaterThan(0);
});
