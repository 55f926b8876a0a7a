// A project file has two writers: the server and the bot's process. A server transaction that reads
// before it writes (markBlocked: was the user blocked already?) must wait for the bot's commit, not
// fail: a deferred BEGIN whose snapshot went stale answers SQLITE_BUSY at once, whatever the
// busy_timeout (src/db/immediate.ts). Real processes: a child writes the file without pause.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectDatabases } from "../../src/db/project-db";
import { markBlocked } from "../../src/modules/dialogs/queries";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

test("markBlocked never fails while the bot's process commits to the same file", async () => {
  dir = mkdtempSync(join(tmpdir(), "botloom-writers-"));
  const files = new ProjectDatabases(dir);
  const db = files.open(1);
  // The bot's side: a small transaction every millisecond or so until its stdin closes.
  const writer = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const { Database } = require("bun:sqlite");
       const d = new Database(${JSON.stringify(files.pathOf(1))});
       d.exec("PRAGMA busy_timeout = 5000");
       const put = d.prepare("INSERT OR REPLACE INTO bot_people (token_id, user_id, first_seen_at, last_seen_at) VALUES (2, ?, 'x', 'x')");
       let stop = false, n = 0;
       (async () => { for await (const _ of Bun.stdin.stream()) {} stop = true; })();
       console.log("ready");
       while (!stop) { put.run(String(n++ % 50)); await Bun.sleep(1); }
       console.log(n);`,
    ],
    { stdin: "pipe", stdout: "pipe", stderr: "inherit" },
  );
  const out = writer.stdout.getReader();
  const first = new TextDecoder().decode((await out.read()).value);
  expect(first).toContain("ready");
  let failures = 0;
  try {
    for (let i = 0; i < 3000; i++) {
      try {
        markBlocked(db, 1, String(i % 100), new Date().toISOString());
      } catch {
        failures++;
      }
      if (i % 10 === 0) await Bun.sleep(0); // turns of the event loop, as a server's requests have
    }
  } finally {
    writer.stdin.end();
    await writer.exited;
    files.close(1);
  }
  expect(failures).toBe(0);
}, 60_000);
