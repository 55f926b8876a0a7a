// A tour of every endpoint of the bot API group (successes and failures), collecting every response
// body; then no body (except env create 201 and reveal 200, which return the raw value by
// contract) and no log line may contain the bot token or a secret env value.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { botTokens } from "../../src/db/schema";
import { patFor } from "../support/app";
import { botApiEnv, COLLAB, expectNoSecrets, OWNER, seedBotUser, STRANGER, type BotApiEnv, type Recorded } from "./support";

const SECRET = "tour-secret-value-9f8e7d6c";
const SECRET_PATCHED = "tour-secret-patched-1a2b3c";

let env: BotApiEnv;
let token: string;
let echoToken: string;

beforeAll(async () => {
  env = await botApiEnv();
});
afterAll(() => env.close());

test("tour of the whole group", async () => {
  const asOwner = { bearer: env.managerPat };
  const q = `?messenger_id=${OWNER}`;
  const stranger = { bearer: patFor(env.t, STRANGER) };
  const bot = env.fake.addBot({ hasPhoto: true, firstName: "Tour" });
  token = bot.token;

  const created = await env.call("POST", `/api/bot/projects${q}`, { ...asOwner, json: { name: "Tour" } });
  const pid = created.body.id as number;
  await env.call("GET", `/api/bot/projects${q}`, asOwner);
  await env.call("GET", `/api/bot/projects/${pid}${q}`, asOwner);
  await env.call("PATCH", `/api/bot/projects/${pid}${q}`, { ...asOwner, json: { name: "Tour 2" } });
  await env.call("PUT", `/api/bot/projects/${pid}/data${q}`, { ...asOwner, json: { sheets: [{ id: "s", name: "S", nodes: [{ id: "a", type: "start", data: { messageText: "hi" } }], edges: [] }] } });

  // tokens: add (also with the credential in odd places), duplicate, failures
  const add = await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token } });
  expect(add.status).toBe(200);
  const tokenId = add.body.id as number;
  await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token } });
  await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token: `${token}x` } });
  await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token: `${token} ${token}` } });
  await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token, name: 5 } });
  await env.call("POST", `/api/bot/projects/${pid}/tokens`, { ...stranger, json: { token } });
  // the platform echoes the credential in an error description (401 → 400, 500 → 502)
  const echo = env.fake.addBot();
  env.fake.failNext(echo.token, "getMe", { error_code: 401, description: `Unauthorized: bot${token}` });
  expect((await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token: echo.token } })).status).toBe(400);
  env.fake.failNext(echo.token, "getMe", { error_code: 500, description: `boom at /bot${echo.token}/getMe` });
  expect((await env.call("POST", `/api/bot/projects/${pid}/tokens${q}`, { ...asOwner, json: { token: echo.token } })).status).toBe(502);
  echoToken = echo.token;
  await env.call("GET", `/api/bot/projects/${pid}/tokens${q}`, asOwner);
  await env.call("PATCH", `/api/bot/tokens/${tokenId}${q}`, { ...asOwner, json: { name: "T", launchMode: "webhook", catchAllHandlers: 1 } });
  await env.call("PATCH", `/api/bot/tokens/${tokenId}${q}`, { ...asOwner, json: { catchAllHandlers: 7 } });
  await env.call("GET", `/api/bot/tokens/${tokenId}/photo${q}`, asOwner);
  env.t.ctx.db.update(botTokens).set({ photoCheckedAt: null }).where(eq(botTokens.id, tokenId)).run();
  env.fake.failNext(token, "getUserProfilePhotos", { error_code: 500, description: `Internal error for bot${token}` });
  await env.call("GET", `/api/bot/tokens/${tokenId}/photo${q}`, asOwner);
  await env.call("GET", `/api/bot/tokens/${tokenId}/stats${q}`, asOwner);
  await env.call("GET", `/api/bot/tokens/${tokenId}/status${q}`, asOwner);

  // env variables
  const envCreated = await env.call("POST", `/api/bot/tokens/${tokenId}/env${q}`, { ...asOwner, json: { key: "SECRET_KEY", value: SECRET, isSecret: 1 } });
  expect(envCreated.status).toBe(201);
  const envId = envCreated.body.id as number;
  await env.call("POST", `/api/bot/tokens/${tokenId}/env${q}`, { ...asOwner, json: { key: "SECRET_KEY", value: SECRET, isSecret: 1 } }); // 409
  await env.call("POST", `/api/bot/tokens/${tokenId}/env${q}`, { ...asOwner, json: { key: "bad key", value: SECRET, isSecret: 1 } }); // 400
  await env.call("GET", `/api/bot/tokens/${tokenId}/env${q}`, asOwner);
  await env.call("PATCH", `/api/bot/env/${envId}${q}`, { ...asOwner, json: { value: SECRET_PATCHED } });
  await env.call("PATCH", `/api/bot/env/${envId}${q}`, { ...asOwner, json: { value: SECRET_PATCHED.repeat(300) } });
  await env.call("PATCH", `/api/bot/env/${envId}`, { ...stranger, json: { value: SECRET } });
  const other = await env.call("POST", `/api/bot/tokens/${tokenId}/env${q}`, { ...asOwner, json: { key: "OTHER", value: "x" } });
  await env.call("PATCH", `/api/bot/env/${other.body.id}${q}`, { ...asOwner, json: { key: "SECRET_KEY" } }); // 409
  const revealed = await env.call("GET", `/api/bot/env/${envId}/reveal${q}`, asOwner);
  expect(revealed.body.value).toBe(SECRET_PATCHED);
  await env.call("GET", `/api/bot/env/${envId}/reveal?messenger_id=${COLLAB}`, asOwner);

  // bot users
  seedBotUser(env, pid, tokenId, { userId: "4242" });
  env.fake.setUserPhoto(4242, true);
  await env.call("GET", `/api/bot/tokens/${tokenId}/users${q}&limit=5`, asOwner);
  await env.call("GET", `/api/bot/tokens/${tokenId}/users/user_4242${q}`, asOwner);
  await env.call("GET", `/api/bot/tokens/${tokenId}/users/999${q}`, asOwner);

  // collaborators, export, import
  await env.call("POST", `/api/bot/projects/${pid}/collaborators${q}`, { ...asOwner, json: { user_id: COLLAB } });
  await env.call("GET", `/api/bot/projects/${pid}/collaborators${q}`, asOwner);
  await env.call("DELETE", `/api/bot/projects/${pid}/collaborators/${COLLAB}${q}`, asOwner);
  const exported = await env.call("GET", `/api/bot/projects/${pid}/export${q}`, asOwner);
  expect(Buffer.from(exported.body.data, "base64").toString("utf8")).not.toContain(token);
  await env.call("POST", `/api/bot/projects/import${q}`, { ...asOwner, body: Buffer.from(exported.body.data, "base64").toString("utf8"), headers: { "content-type": "text/plain" } });
  await env.call("POST", `/api/bot/projects/import${q}`, { ...asOwner, json: { name: "With token", botToken: token, data: { sheets: [] } } });
  await env.call("POST", `/api/bot/projects/import${q}`, { ...asOwner, json: { nope: token } });

  // delete the env variable, the token, the project
  await env.call("DELETE", `/api/bot/env/${envId}${q}`, asOwner);
  await env.call("DELETE", `/api/bot/tokens/${tokenId}${q}`, asOwner);
  await env.call("DELETE", `/api/bot/projects/${pid}${q}`, asOwner);
  await env.call("GET", `/api/bot/projects/${pid}${q}`, asOwner);

  const statuses = new Set(env.responses.map((r) => r.status));
  for (const s of [200, 201, 400, 403, 404, 409]) expect(statuses.has(s)).toBe(true);
});

test("neither the bot token nor a secret value appears in any response body or log line", () => {
  const allowed = (r: Recorded) => (r.method === "POST" && /\/env(\?|$)/.test(r.path) && r.status === 201) || (/\/reveal(\?|$)/.test(r.path) && r.status === 200);
  expectNoSecrets(env, [SECRET, SECRET_PATCHED], allowed);
  expectNoSecrets(env, [token, echoToken]);
  // the scan saw the allowed answers: the raw value really is there, so the filter is not vacuous
  expect(env.responses.some((r) => allowed(r) && (r.text.includes(SECRET) || r.text.includes(SECRET_PATCHED)))).toBe(true);
});

test("the log mask also covers the `bot<token>` URL form", async () => {
  const { maskSecrets } = await import("../../src/log");
  const t = "7100000001:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  expect(maskSecrets(`POST https://api.example/bot${t}/getMe`)).toBe("POST https://api.example/bot7100000001:***/getMe");
  expect(maskSecrets(`token ${t}.`)).toBe("token 7100000001:***.");
});

test("the log mask covers a token whose ':' is percent-encoded, and secretForms gives every printed form", async () => {
  const { maskSecrets } = await import("../../src/log");
  const { secretForms } = await import("../../src/scenario/codegen/runtime/secret-forms");
  const t = "7100000001:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  expect(maskSecrets(`GET http://x/echo?t=${encodeURIComponent(t)}&a=1`)).toBe("GET http://x/echo?t=7100000001:***&a=1");
  expect(maskSecrets(`GET http://x/echo?t=7100000001%3aAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)).toBe("GET http://x/echo?t=7100000001:***");
  const s = "k/ey+with=odd chars";
  expect(secretForms(s)).toEqual(expect.arrayContaining([s, encodeURIComponent(s), "k%2Fey%2Bwith%3Dodd+chars", btoa(s), Buffer.from(s).toString("base64url")]));
});
