// The log thread (log-thread.ts): writes bot log batches with its own connection to the platform
// database. At the server's priority, on the background cores: it holds the database's write lock
// while it commits, and a thread 19 nicer could be kept from finishing by the very bots whose lines
// it writes while the event loop waited for that lock. Also an entry point of the compiled
// executable (scripts/build.ts).
import { workerData } from "node:worker_threads";
import { databaseOver } from "../db/client";
import { openSqlite } from "../db/sqlite";
import { enterBackground } from "../lib/priority";
import { batchWriter } from "./log-batches";
import type { FromLogThread, ToLogThread } from "./log-thread";

declare const self: Worker;

enterBackground({ nicer: false });

const sqlite = openSqlite((workerData as { path: string }).path);
const write = batchWriter(databaseOver(sqlite, { migrated: true }));
const answer = (m: FromLogThread) => self.postMessage(m);

self.onmessage = (e: MessageEvent<ToLogThread>) => {
  const m = e.data;
  if (Array.isArray(m)) write(m);
  else if (m.kind === "written") answer(m);
  else {
    sqlite.close();
    answer({ kind: "closed" });
  }
};
