// The platform database's WAL is checkpointed by a thread of its own (src/db/checkpointer.ts): the
// connection the event loop commits on no longer checkpoints at SQLite's 1,000 pages.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { openSqlite } from "../../src/db/sqlite";
import { checkpointOffThread, FALLBACK_PAGES, type Checkpointer } from "../../src/db/checkpointer";
import { BOT_NICE, backgroundCpus, useBackgroundCpus } from "../../src/lib/priority";
import { coresOfThisThread, coresOfThread, listOf } from "../support/cpus";

let dir: string;
let db: Database;
let cps: Checkpointer[] = [];

function setUp() {
  dir = mkdtempSync(join(tmpdir(), "botloom-cp-"));
  db = openSqlite(join(dir, "botloom.db"));
  db.exec("CREATE TABLE t (b BLOB)");
}

/** About `pages` pages of new rows, committed 100 at a time as the log writer does. */
function write(pages: number) {
  const insert = db.query("INSERT INTO t VALUES (randomblob(3500))");
  for (let i = 0; i < pages; i += 100) db.transaction(() => { for (let k = 0; k < 100; k++) insert.run(); })();
}

const walPages = () => statSync(join(dir, "botloom.db-wal")).size / 4096;

afterEach(async () => {
  for (const c of cps) await c.stop();
  cps = [];
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("WAL checkpoints off the event loop", () => {
  test("the committing connection checkpoints only beyond the fallback", () => {
    setUp();
    cps.push(checkpointOffThread(db, join(dir, "botloom.db"), 3_600_000)); // a thread that will not run in this test
    expect(db.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: FALLBACK_PAGES });
    write(2500);
    // SQLite's default would have checkpointed and restarted the WAL at 1,000 pages
    expect(walPages()).toBeGreaterThan(2400);
  });

  test("the thread checkpoints what the commits wrote", async () => {
    setUp();
    const cp = checkpointOffThread(db, join(dir, "botloom.db"), 20);
    cps.push(cp);
    write(1500);
    // The committing connection does not checkpoint below FALLBACK_PAGES (above), so the database
    // file itself grows only by the thread's checkpoints: wait for them to have copied every page.
    const filePages = () => statSync(join(dir, "botloom.db")).size / 4096;
    let replies = 0;
    while (filePages() < 1500 && replies < 200) {
      expect((await cp.next()).busy).toBe(0);
      replies++;
    }
    expect(filePages()).toBeGreaterThanOrEqual(1500);
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1500 });
  });

  test("stopped, the thread has closed its connection: the server's, the last, removes the WAL on close", async () => {
    setUp();
    const cp = checkpointOffThread(db, join(dir, "botloom.db"), 20);
    write(300);
    await cp.next();
    await cp.stop();
    db.close();
    expect(existsSync(join(dir, "botloom.db-wal"))).toBe(false);
    db = openSqlite(join(dir, "botloom.db"));
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 300 });
  });

  test.if(backgroundCpus() !== null)("the thread runs on the background cores, beside the bots (BOT_NICE nicer); the event loop keeps its own", async () => {
    setUp();
    useBackgroundCpus("auto");
    const before = new Set(readdirSync("/proc/self/task"));
    const cp = checkpointOffThread(db, join(dir, "botloom.db"), 20);
    cps.push(cp);
    await cp.next(); // the thread is up and has run
    const fresh = readdirSync("/proc/self/task").filter((tid) => !before.has(tid));
    const mine = fresh.filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "Worker");
    expect(mine.length).toBe(1);
    expect(coresOfThread(mine[0]!)).toBe(listOf(backgroundCpus()!));
    expect(getPriority(Number(mine[0]))).toBe(Math.min(19, getPriority(0) + BOT_NICE));
    expect(coresOfThisThread()).not.toBe(listOf(backgroundCpus()!));
  });
});
