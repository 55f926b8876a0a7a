// A stamp that changes whenever the database may have changed: rows written through this
// connection (total_changes) or a commit by any other connection (data_version). Reading it costs
// one tiny statement, so a read-mostly answer can be cached until the stamp moves — with no list
// of "which writes invalidate what" to keep in step with the code.
import type { Db } from "./client";

export function changeStamp(db: Db): () => string {
  let both: ReturnType<Db["$client"]["prepare"]> | undefined;
  return () => {
    // Prepared on first use: nothing at start.
    both ??= db.$client.prepare("SELECT total_changes() AS n, (SELECT data_version FROM pragma_data_version) AS v");
    const r = both.get() as { n: number; v: number };
    return `${r.n}:${r.v}`;
  };
}
