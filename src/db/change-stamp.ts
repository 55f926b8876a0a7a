// A stamp that changes whenever the database may have changed: rows written through this
// connection (total_changes) or a commit by any other connection (data_version). Reading it costs
// one tiny statement, so a read-mostly answer can be cached until the stamp moves — with no list
// of "which writes invalidate what" to keep in step with the code.
import type { Db } from "./client";
import { statements } from "./prepared";

// Two statements, not one select of both: read through the table-valued pragma_data_version, the
// version cost a signed-in request 80 µs of the event loop on a core that had been idle, the pragma
// itself and total_changes() 50 µs (docs/performance.md "The figure, nineteenth stop").
const stampStatements = statements((db: Db) => ({
  changes: () => db.$client.prepare<{ n: number }, []>("SELECT total_changes() AS n"),
  version: () => db.$client.prepare<{ data_version: number }, []>("PRAGMA data_version"),
}));

export function changeStamp(db: Db): () => string {
  const q = stampStatements(db);
  return () => `${q.changes.get()!.n}:${q.version.get()!.data_version}`;
}
