// Bot log lines written from the log thread (src/bots/log-thread.ts), as the server writes them:
// with the thread's own connection, in order, trimmed, dropping only the lines of a deleted project,
// and all of them in the database once `written` or `close` settles. A real database file.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { LogWriter, LOG_RETAIN_PER_TOKEN, LOG_TRIM_EVERY } from "../../src/bots/log-writer";
import { greeterScenario } from "./scenario-fixture";
import { createTestApp, setUp, type TestApp } from "../support/app";

let t: TestApp;
let projectId: number;
let w: LogWriter;

beforeEach(async () => {
  t = createTestApp({ fileDb: true });
  await setUp(t);
  projectId = t.ctx.projects.create(1, { name: "P", data: greeterScenario }).id;
  for (const id of [1, 2]) t.ctx.db.$client.prepare("insert into bot_tokens (id, project_id, token, name) values (?, ?, ?, 'b')").run(id, projectId, `${id}00000:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA${id}`);
  w = new LogWriter(t.ctx.db, t.ctx.config.databasePath);
});

afterEach(async () => {
  await w.close();
  t.cleanup();
});

const lines = (tokenId: number) => t.ctx.db.$client.query("select message from bot_logs where token_id = ? order by id").all(tokenId).map((r) => (r as { message: string }).message);

test("the thread writes with a connection of its own: a transaction the event loop holds open keeps the lines out until it ends", async () => {
  const db = t.ctx.db.$client;
  db.exec("BEGIN IMMEDIATE");
  w.push(projectId, 1, "stdout", "first");
  w.push(projectId, 1, "stderr", "second");
  w.flush();
  // written here, the lines would be part of the open transaction; the thread waits for its lock
  await Bun.sleep(100);
  expect(lines(1)).toEqual([]);
  db.exec("COMMIT");
  await w.written();
  expect(lines(1)).toEqual(["first", "second"]);
});

test("a batch the database refuses (its write lock held past the busy timeout) is tried again, the later ones behind it", async () => {
  const db = t.ctx.db.$client;
  db.exec("BEGIN IMMEDIATE");
  w.push(projectId, 1, "stdout", "first");
  w.flush();
  w.push(projectId, 1, "stdout", "queued behind it");
  w.flush();
  // the thread's busy timeout is 5 s; the first try of "first" gives up meanwhile
  await Bun.sleep(5_600);
  expect(lines(1)).toEqual([]);
  db.exec("COMMIT");
  await w.written();
  expect(lines(1)).toEqual(["first", "queued behind it"]);
}, 20_000);

test("in order, trimmed every LOG_TRIM_EVERY lines of a token; a deleted project's lines alone are dropped", async () => {
  for (let i = 0; i < LOG_RETAIN_PER_TOKEN + LOG_TRIM_EVERY; i++) w.push(projectId, 1, "stdout", `line ${i}`);
  w.push(987_654, 9, "stdout", "of a deleted project");
  w.push(projectId, 2, "stdout", "kept beside it");
  await w.written();
  const kept = lines(1);
  expect(kept.length).toBeGreaterThanOrEqual(LOG_RETAIN_PER_TOKEN);
  expect(kept.length).toBeLessThan(LOG_RETAIN_PER_TOKEN + LOG_TRIM_EVERY);
  expect(kept.at(-1)).toBe(`line ${LOG_RETAIN_PER_TOKEN + LOG_TRIM_EVERY - 1}`);
  expect(kept).toEqual(kept.toSorted((a, b) => Number(a.split(" ")[1]) - Number(b.split(" ")[1])));
  expect(lines(2)).toEqual(["kept beside it"]);
  expect(lines(9)).toEqual([]);
});

test("close writes what is still buffered, then ends the thread; later batches are written on the event loop", async () => {
  w.push(projectId, 1, "stdout", "buffered at shutdown");
  await w.close();
  expect(lines(1)).toEqual(["buffered at shutdown"]);
  w.push(projectId, 1, "stdout", "after");
  w.flush();
  expect(lines(1)).toEqual(["buffered at shutdown", "after"]);
});
