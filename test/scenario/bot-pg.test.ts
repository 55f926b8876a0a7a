// psql_query on an external PostgreSQL (docs/nodes/data.md) with a REAL PostgreSQL started here
// (test/support/postgres.ts): a generated bot on the fake messenger reads the connection string
// from a secret env variable, runs INSERT and SELECT with {variables} bound as parameters, is
// refused role/file/server statements and what would stay on a pooled connection (session locks,
// temporary tables, held cursors) by the guard before anything is sent, takes the error exit
// with {sql_error} when a statement fails or the server is gone, and keeps answering others.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { postgresMissing, startPostgres, type Postgres } from "../support/postgres";
import { Chat, doc, node, removeDir, startBot, type BotProcess } from "./harness";

const missing = postgresMissing();
if (missing) console.warn(missing);
const suite = missing ? describe.skip : describe;

const PASSWORD = "shop-bot-pw-7731";
const WRONG_PASSWORD = "not-the-pw-5150";
let pg: Postgres;
let fake: FakeMessenger;
let b: BotProcess;
/** a server that takes connections and never says a word */
let silent: Bun.TCPSocketListener<undefined>;

const say = (id: string, text: string) => node(id, "message", { messageText: text });
const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });
const q = (id: string, query: string, next: string, extra: Record<string, unknown> = {}) =>
  node(id, "psql_query", { query, connectionSource: "env", connectionEnvVar: "SHOP_DB", saveResultTo: "res", resultFormat: "first_row", queryTimeout: 2, autoTransitionTo: next, errorTransitionTo: "failed", ...extra });

/**
 * Statements that would leave state on one of the bot's pooled connections (seen by the next turn
 * on it, maybe another user's) or read what an earlier one left: [command, statement, the guard's reason].
 */
const SESSION_STATE: [string, string, string][] = [
  ["advlock", "SELECT pg_advisory_lock(4242)", "pg_advisory_lock keeps its lock on a pooled connection after the statement (pg_advisory_xact_lock ends with it)"],
  ["trylock", "SELECT pg_try_advisory_lock_shared(4242)", "pg_try_advisory_lock_shared keeps its lock on a pooled connection after the statement (pg_try_advisory_xact_lock_shared ends with it)"],
  ["temptable", "CREATE TEMP TABLE scratch AS SELECT {user_id} AS who", "temporary tables, views and sequences stay on a pooled connection, seen by other users' turns"],
  ["selectinto", "SELECT * INTO TEMP copy FROM orders", "temporary tables, views and sequences stay on a pooled connection, seen by other users' turns"],
  ["holdcursor", "DECLARE c CURSOR WITH HOLD FOR SELECT item FROM orders", "DECLARE opens a cursor, and WITH HOLD keeps it on a pooled connection"],
  ["execute", "EXECUTE q", "EXECUTE runs a statement prepared earlier on a pooled connection"],
  ["locktable", "LOCK TABLE orders", "LOCK holds only until the transaction ends, and each statement runs alone in its own"],
  ["listen", "LISTEN orders", "LISTEN keeps state on a pooled connection"],
  ["settimeout", "SET statement_timeout = 0", "SET changes the session (role, timeouts)"],
  ["currval", "SELECT currval('orders_id_seq') AS id", "currval reads what an earlier statement on a pooled connection, maybe another user's, drew (use INSERT ... RETURNING)"],
];

/** A command per statement that must fail: /<name> runs it, and only the error exit may follow. */
const failingQueries = (statements: Record<string, string>) => Object.entries(statements).flatMap(([name, sql]) => [cmd(name, name), q(name, sql, "never")]);

const scenario = doc(
  cmd("buy", "ask"),
  node("ask", "input", { inputType: "text", inputVariable: "item", inputTargetNodeId: "insert" }),
  q("insert", "INSERT INTO orders (user_id, item) VALUES ({user_id}, {item}) RETURNING id, item", "bought"),
  say("bought", "order {res.id}: {res.item}"),
  cmd("mine", "mine"),
  q("mine", "SELECT item FROM orders WHERE user_id = {user_id} ORDER BY id", "listed", { resultFormat: "text", textTemplate: "- {item}" }),
  say("listed", "yours:\n{res}"),
  cmd("count", "count"),
  q("count", "UPDATE orders SET item = item WHERE user_id = {user_id}", "counted", { resultFormat: "affected" }),
  say("counted", "touched {res}"),
  ...failingQueries({
    file: "SELECT pg_read_file('/etc/passwd')",
    role: "SET ROLE pgadmin",
    two: "SELECT 1; DROP TABLE orders",
    hidden: "SELECT E'\\'', \"pg_ls_dir\"('.')",
    slow: "SELECT pg_sleep(5)",
    bad: "SELECT * FROM no_such_table",
    ...Object.fromEntries(SESSION_STATE.map(([name, sql]) => [name, sql])),
  }),
  cmd("xactlock", "xactlock"),
  q("xactlock", "SELECT pg_advisory_xact_lock(4242), 'held' AS what", "xactlocked"),
  say("xactlocked", "{res.what} for the statement"),
  cmd("badpw", "badpw"),
  q("badpw", "SELECT 1", "never", { connectionEnvVar: "BADPW_DB" }),
  cmd("silent", "silent"),
  q("silent", "SELECT 1", "never", { connectionEnvVar: "SILENT_DB", queryTimeout: 1 }),
  cmd("noenv", "noenv"),
  q("noenv", "SELECT 1", "never", { connectionEnvVar: "MISSING_DB" }),
  say("never", "should not run"),
  say("failed", "failed: {sql_error}"),
  cmd("ping", "pong"),
  say("pong", "pong"),
);

suite("psql_query on an external PostgreSQL", () => {
  beforeAll(async () => {
    pg = await startPostgres();
    await pg.admin(`CREATE ROLE shopbot LOGIN PASSWORD '${PASSWORD}'`);
    await pg.admin("CREATE DATABASE shop OWNER shopbot");
    const { SQL } = Bun;
    const owner = new SQL(pg.url("shopbot", PASSWORD, "shop"), { max: 1 });
    await owner.unsafe("CREATE TABLE orders (id serial PRIMARY KEY, user_id bigint NOT NULL, item text NOT NULL)");
    await owner.close();
    silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    fake = await startFakeMessenger();
    b = await startBot(fake, scenario, {
      generate: { enableLogging: true },
      env: {
        BOTLOOM_ENV_KEYS: "SHOP_DB,SILENT_DB,BADPW_DB",
        BOTLOOM_SECRET_KEYS: "SHOP_DB,SILENT_DB,BADPW_DB",
        BADPW_DB: pg.url("shopbot", WRONG_PASSWORD, "shop"),
        SHOP_DB: pg.url("shopbot", PASSWORD, "shop"),
        SILENT_DB: `postgres://nobody:pw@127.0.0.1:${silent.port}/none`,
        // the egress policy (docs/security.md) refuses loopback unless the operator allows it
        BOTLOOM_EGRESS_ALLOW: `127.0.0.1:${pg.port},127.0.0.1:${silent.port}`,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await b?.stop();
    if (b) removeDir(b.dir);
    await fake?.stop();
    silent?.stop(true);
    await pg?.stop();
  });

  const texts = (calls: { params: Record<string, any> }[]) => calls.map((c) => c.params.text);

  test("INSERT and SELECT with variables bound as parameters", async () => {
    const chat = new Chat(b);
    await chat.say("/buy", 0);
    expect(texts(await chat.say("green tea"))).toEqual(["order 1: green tea"]);
    await chat.say("/buy", 0);
    // a quote in the user's text is a value, never SQL
    expect(texts(await chat.say("x'); DROP TABLE orders; --"))).toEqual(["order 2: x'); DROP TABLE orders; --"]);
    expect(texts(await chat.say("/mine"))).toEqual(["yours:\n- green tea\n- x'); DROP TABLE orders; --"]);
    expect(texts(await chat.say("/count"))).toEqual(["touched 2"]);
    expect(await pg.admin("SELECT count(*)::int AS n FROM pg_database WHERE datname = 'shop'")).toEqual([{ n: 1 }]);
    // another user sees only their own rows
    expect(texts(await new Chat(b).say("/mine"))).toEqual(["yours:\n"]);
  });

  test("the guard refuses file functions, role changes, two statements and names hidden by quoting", async () => {
    const chat = new Chat(b);
    expect(texts(await chat.say("/file"))).toEqual(["failed: refused: pg_read_file reads files of the database server"]);
    expect(texts(await chat.say("/role"))).toEqual(["failed: refused: SET changes the session (role, timeouts)"]);
    expect(texts(await chat.say("/two"))).toEqual(["failed: only one SQL statement may run at a time"]);
    expect(texts(await chat.say("/hidden"))).toEqual(["failed: refused: pg_ls_dir lists the server's folders"]);
  });

  test("what would stay on a pooled connection is refused before it is sent, and nothing is left there; a transaction-level lock passes", async () => {
    const chat = new Chat(b);
    for (const [name, , why] of SESSION_STATE) expect([name, texts(await chat.say(`/${name}`))]).toEqual([name, [`failed: refused: ${why}`]]);
    expect(texts(await chat.say("/xactlock"))).toEqual(["held for the statement"]);
    const shop = new Bun.SQL(pg.url("shopbot", PASSWORD, "shop"), { max: 1 });
    try {
      expect(await shop.unsafe("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).toEqual([{ n: 0 }]);
      expect(await shop.unsafe("SELECT count(*)::int AS n FROM pg_class WHERE relpersistence = 't'")).toEqual([{ n: 0 }]);
    } finally {
      await shop.close();
    }
  });

  test("a statement over the timeout, an error of the server, a wrong password and a missing variable take the error exit", async () => {
    const chat = new Chat(b);
    expect(texts(await chat.say("/slow", 1))).toEqual([`failed: PostgreSQL at 127.0.0.1:${pg.port}/shop: canceling statement due to statement timeout`]);
    expect(texts(await chat.say("/bad"))).toEqual([`failed: PostgreSQL at 127.0.0.1:${pg.port}/shop: relation "no_such_table" does not exist`]);
    expect(texts(await chat.say("/badpw"))).toEqual([`failed: PostgreSQL at 127.0.0.1:${pg.port}/shop: password authentication failed for user "shopbot"`]);
    expect(texts(await chat.say("/noenv"))).toEqual(["failed: the env variable MISSING_DB is not set for this bot (a preview has no env variables)"]);
    await b.waitForOutput(/node bad: psql_query failed: PostgreSQL at 127\.0\.0\.1:\d+\/shop: relation "no_such_table" does not exist/);
  });

  test("a server that accepts and never answers: the error exit within the timeout, others answered meanwhile", async () => {
    const chat = new Chat(b);
    const pending = chat.say("/silent", 1);
    expect(texts(await new Chat(b).say("/ping"))).toEqual(["pong"]);
    const [reply] = texts(await pending);
    expect(reply).toMatch(new RegExp(`^failed: PostgreSQL at 127\\.0\\.0\\.1:${silent.port}/none: .*(timeout|timed out|no answer within 1 s)`, "i"));
  });

  test("a stopped server: the error exit with a clear line; the bot keeps answering", async () => {
    pg.halt();
    const chat = new Chat(b);
    const [reply] = texts(await chat.say("/mine", 1));
    expect(reply).toMatch(new RegExp(`^failed: PostgreSQL at 127\\.0\\.0\\.1:${pg.port}/shop: .*(connection|connect|closed)`, "i"));
    expect(texts(await chat.say("/mine", 1))[0]).toMatch(/connection refused|failed to connect/i);
    expect(texts(await new Chat(b).say("/ping"))).toEqual(["pong"]);
  });

  test("the password never appears in the bot's output", async () => {
    await b.waitForOutput("psql_query");
    expect(b.output()).not.toContain(PASSWORD);
    expect(b.output()).not.toContain(WRONG_PASSWORD);
  });
});

// The error exit is psql_query's whatever the database: on the project's own tables too.
describe("psql_query's error exit on the project's own tables", () => {
  let own: FakeMessenger;
  let bot: BotProcess;
  beforeAll(async () => {
    own = await startFakeMessenger();
    const local = (id: string, query: string, next: string) => node(id, "psql_query", { query, saveResultTo: "r", resultFormat: "first_row", autoTransitionTo: next, errorTransitionTo: "oops" });
    bot = await startBot(own, doc(
      cmd("bad", "bad"),
      local("bad", "SELECT * FROM missing_table", "fine"),
      cmd("good", "good"),
      local("good", "SELECT 7 AS n", "fine"),
      say("fine", "n={r.n} err=[{sql_error}]"),
      say("oops", "oops: {sql_error}"),
    ));
  });
  afterAll(async () => {
    await bot?.stop();
    if (bot) removeDir(bot.dir);
    await own?.stop();
  });

  test("a failing statement takes errorTransitionTo with {sql_error}; the next success clears it", async () => {
    const chat = new Chat(bot);
    expect((await chat.say("/bad")).map((c) => c.params.text)).toEqual(["oops: no such table: missing_table"]);
    expect((await chat.say("/good")).map((c) => c.params.text)).toEqual(["n=7 err=[]"]);
  });
});
