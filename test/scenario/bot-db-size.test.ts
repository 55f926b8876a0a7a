// A scenario cannot fill the server's disk through its project file: one psql_query INSERT of a
// recursive query wrote as much as it asked for (every project and the platform share the disk).
// The bot caps its file (BOTLOOM_DB_MAX_MB, 1 GiB by default; a token env variable cannot set it):
// past the cap the statement fails, logs one line, and the bot keeps serving.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { scenarioTablesPath } from "../../src/scenario/codegen/runtime/scenario-file";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const sql = (id: string, next: string, query: string) => node(id, "psql_query", { query, autoTransitionTo: next });
const scenario = doc(
  node("cmd", "command_trigger", { command: "/fill", autoTransitionTo: "mk" }),
  sql("mk", "fill", "CREATE TABLE IF NOT EXISTS junk (x BLOB)"),
  // 20 MB asked for in one statement.
  sql("fill", "small", "INSERT INTO junk (x) WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 200) SELECT randomblob(100000) FROM c"),
  sql("small", "done", "INSERT INTO junk (x) VALUES (randomblob(1000))"),
  node("done", "message", { messageText: "still serving" }),
);

let fake: FakeMessenger;
let b: BotProcess;
let dbPath: string;

beforeAll(async () => {
  fake = await startFakeMessenger();
  const dir = tmpDir("scenario-dbsize-");
  dbPath = join(dir, "project.db");
  b = await startBot(fake, scenario, { dir, generate: { enableLogging: true }, env: { DATABASE_PATH: dbPath, BOTLOOM_DB_MAX_MB: "4" } });
});

afterAll(async () => {
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

const size = (p: string) => {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
};

test("an INSERT past the file's cap fails with one log line; the file stays under the cap; small writes still work", async () => {
  const [reply] = await new Chat(b).say("/fill");
  expect(reply.params.text).toBe("still serving");
  await b.waitForOutput(/node fill: psql_query failed: database or disk is full/);
  await b.waitForOutput(/psql_query small ran/);
  // Scenario tables are written to the tables file beside the bot's file; the cap is the same.
  const tables = scenarioTablesPath(dbPath);
  expect(size(tables)).toBeGreaterThan(0);
  expect(size(tables) + size(`${tables}-wal`)).toBeLessThan(2 * 4 * 1024 * 1024);
});
