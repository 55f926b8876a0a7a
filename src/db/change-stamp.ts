// A stamp that changes whenever the database may have changed: rows written through this
// connection (total_changes) or a commit by any other connection (data_version). Reading it costs
// two tiny statements, so a read-mostly answer can be cached until the stamp moves — with no list
// of "which writes invalidate what" to keep in step with the code.
import type { Db } from "./client";

export function changeStamp(db: Db): () => string {
  const changes = db.$client.prepare("SELECT total_changes() AS n");
  const version = db.$client.prepare("PRAGMA data_version");
  return () => {
    const c = changes.get() as { n: number };
    const v = version.get() as { data_version: number };
    return `${c.n}:${v.data_version}`;
  };
}
