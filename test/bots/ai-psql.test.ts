// Issue 31 with real bots started by the platform, in a shared runner and in a process of their own:
// the ai_answer node answers from the local fake LLM with the key from the token's secret env
// variable and the user's last turns from the message store; psql_query writes and reads a real
// PostgreSQL whose connection string is another secret env variable. Both reach loopback only
// through the operator's EGRESS_ALLOW (docs/security.md).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm";
import type { FakeUser } from "../support/fake-messenger";
import { postgresMissing, startPostgres, type Postgres } from "../support/postgres";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const KEY = "sk-platform-secret-5512";
const PG_PASSWORD = "platform-pg-pw-9017";
const pgMissing = postgresMissing();
if (pgMissing) console.warn(pgMissing);

const scenario = (llmUrl: string) => ({
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("chat", "command_trigger", { command: "/chat", autoTransitionTo: "ask" }),
      node("ask", "input", { inputType: "text", inputVariable: "q", inputTargetNodeId: "talk" }),
      node("talk", "ai_answer", { aiBaseUrl: llmUrl, aiModel: "echo", aiApiKeyEnv: "LLM_KEY", aiSystemPrompt: "Shop helper for {first_name}", aiMemoryTurns: 3, aiTimeout: 5, autoTransitionTo: "ask", errorTransitionTo: "sorry" }),
      node("sorry", "message", { messageText: "sorry: {ai_error}" }),
      node("order", "command_trigger", { command: "/order", autoTransitionTo: "what" }),
      node("what", "input", { inputType: "text", inputVariable: "item", inputTargetNodeId: "insert" }),
      node("insert", "psql_query", { query: "INSERT INTO orders (user_id, item) VALUES ({user_id}, {item}) RETURNING id", connectionSource: "env", connectionEnvVar: "SHOP_DB", saveResultTo: "o", resultFormat: "first_row", autoTransitionTo: "count", errorTransitionTo: "dbfail" }),
      node("count", "psql_query", { query: "SELECT count(*)::int AS n FROM orders WHERE user_id = {user_id}", connectionSource: "env", connectionEnvVar: "SHOP_DB", saveResultTo: "c", resultFormat: "first_row", autoTransitionTo: "done", errorTransitionTo: "dbfail" }),
      node("done", "message", { messageText: "order {o.id}, you have {c.n}" }),
      node("dbfail", "message", { messageText: "db: {sql_error}" }),
      node("broken", "command_trigger", { command: "/broken", autoTransitionTo: "boom" }),
      node("boom", "psql_query", { query: "SELECT * FROM missing", connectionSource: "env", connectionEnvVar: "SHOP_DB", autoTransitionTo: "dbfail", errorTransitionTo: "dbfail" }),
    ],
  }],
});

let llm: FakeLlm;
let pg: Postgres | undefined;

beforeAll(async () => {
  llm = startFakeLlm();
  if (!pgMissing) {
    pg = await startPostgres();
    await pg.admin(`CREATE ROLE shop LOGIN PASSWORD '${PG_PASSWORD}'`);
    await pg.admin("CREATE DATABASE shopdb OWNER shop");
    const owner = new Bun.SQL(pg.url("shop", PG_PASSWORD, "shopdb"), { max: 1 });
    await owner.unsafe("CREATE TABLE orders (id serial PRIMARY KEY, user_id bigint NOT NULL, item text NOT NULL)");
    await owner.close();
  }
}, 60_000);

afterAll(async () => {
  await llm?.stop();
  await pg?.stop();
});

for (const isolation of ["runner", "process"] as const) {
  describe(`ai_answer and external PostgreSQL (BOT_ISOLATION=${isolation})`, () => {
    let p: RunnerPlatform;
    let b: TestBot;
    let n = 0;
    const user = (): FakeUser => ({ id: 94_000 + n++ + (isolation === "process" ? 500 : 0), first_name: "Eve", language_code: "en" });
    const say = async (u: FakeUser, text: string, count = 1) => {
      p.fake.sendText(b.bot.token, u, text);
      return count === 0 ? [] : (await p.fake.waitForSent(b.bot.token, u.id, count, 10_000)).map((c) => c.params.text);
    };

    beforeAll(async () => {
      p = await startRunnerPlatform({ env: { BOT_ISOLATION: isolation, EGRESS_ALLOW: "127.0.0.1" } });
      const cookie = await loginAs(p.t, 94);
      b = await addBot(p, cookie, `Ai${isolation}`, { data: scenario(llm.url) });
      const vars = { LLM_KEY: KEY, SHOP_DB: pg ? pg.url("shop", PG_PASSWORD, "shopdb") : "postgres://nobody@127.0.0.1:1/none" };
      for (const [key, value] of Object.entries(vars)) {
        expect((await p.t.call("POST", `/api/bot/tokens/${b.tokenId}/env`, { cookie, json: { key, value, isSecret: 1 } })).status).toBe(201);
      }
      expect((await act(p, b, "start")).status).toBe(200);
    }, 60_000);
    afterAll(async () => {
      await p?.close();
    });

    test("the AI node answers from the fake LLM with the key and the last turns", async () => {
      const u = user();
      await say(u, "/chat", 0);
      expect(await say(u, "hello")).toEqual(["echo: hello (3 messages)"]);
      const before = llm.requests.length;
      expect(await say(u, "and prices?")).toEqual(["echo: and prices? (5 messages)"]);
      const req = llm.requests[before]!;
      expect(req.authorization).toBe(`Bearer ${KEY}`);
      expect(req.body.messages).toEqual([
        { role: "system", content: "Shop helper for Eve" },
        { role: "user", content: "/chat" },
        { role: "user", content: "hello" },
        { role: "assistant", content: "echo: hello (3 messages)" },
        { role: "user", content: "and prices?" },
      ]);
    });

    test.skipIf(!!pgMissing)("psql_query writes and reads the external PostgreSQL", async () => {
      const u = user();
      await say(u, "/order", 0);
      const [first] = await say(u, "tea");
      expect(first).toMatch(/^order \d+, you have 1$/);
      await say(u, "/order", 0);
      expect((await say(u, "cake"))[0]).toMatch(/^order \d+, you have 2$/);
      const owner = new Bun.SQL(pg!.url("shop", PG_PASSWORD, "shopdb"), { max: 1 });
      try {
        expect([...(await owner.unsafe("SELECT item FROM orders WHERE user_id = $1 ORDER BY id", [u.id]))]).toEqual([{ item: "tea" }, { item: "cake" }]);
      } finally {
        await owner.close();
      }
    });

    test("the logs show the failures but never the key nor the connection string", async () => {
      const u = user();
      expect((await say(u, "/broken"))[0]).toMatch(/^db: /);
      const logs = async () => JSON.stringify((await p.t.call("GET", `/api/projects/${b.projectId}/logs/all?limit=1000`, { cookie: b.cookie })).body);
      const text = await until(async () => ((await logs()).includes("node boom: psql_query failed") ? await logs() : undefined), "the failure's log line", 10_000);
      expect(text).toContain("node boom: psql_query failed");
      expect(text).toContain("ai_answer");
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(PG_PASSWORD);
    });
  });
}
