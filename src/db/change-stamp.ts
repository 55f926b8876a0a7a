// A stamp that changes whenever the database may have changed: rows written through this
// connection (total_changes) or a commit by any other connection (data_version). Reading it costs
// one tiny statement, so a read-mostly answer can be cached until the stamp moves — with no list
// of "which writes invalidate what" to keep in step with the code.
import type { Db } from "./client";
import { statements } from "./prepared";

const stampStatements = statements((db: Db) => ({
  both: () => db.$client.prepare<{ n: number; v: number }, []>("SELECT total_changes() AS n, (SELECT data_version FROM pragma_data_version) AS v"),
}));

export function changeStamp(db: Db): () => string {
  const q = stampStatements(db);
  return () => {
    const r = q.both.get()!;
    return `${r.n}:${r.v}`;
  };
}
