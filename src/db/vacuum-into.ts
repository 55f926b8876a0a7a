// A backup's online copy of a database (VACUUM INTO). Imports nothing but SQLite: the backup
// thread runs it, and loading the bots' runtime (closeNow's home, which db/backup.ts imports) would
// cost the thread 22–26 ms and 0.6 MB (docs/database.md).
import { Database } from "bun:sqlite";

/**
 * A consistent copy of a database that others may be writing (the server, bot processes): VACUUM
 * INTO reads one snapshot and writes a compact new file. `target` must not exist.
 */
export function vacuumInto(source: Database | string, target: string) {
  if (typeof source !== "string") {
    source.prepare("VACUUM INTO ?").run(target);
    return;
  }
  const db = new Database(source, { readwrite: true, create: false });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    // The copy is a staging file that goes into an archive: syncing each one to disk (a fsync per
    // project database) made a backup of 150 projects take 5 s instead of well under one.
    db.exec("PRAGMA synchronous = OFF");
    db.prepare("VACUUM INTO ?").run(target);
  } finally {
    // With its statement: a plain close would leave the file open until the statement is collected (docs/database.md).
    db.close(true);
  }
}
