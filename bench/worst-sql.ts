// The worst scenario SQL of issue 29's probe, as one user's bot may run it: bench/health-under-load.ts
// sends it to a bot and a preview, bench/health-floor.ts runs it beside a server that does nothing.
//
// On /setup a table whose generated column is expensive to compute; then, one command per statement
// (a flow runs its nodes without yielding, and a runner blocked 5 s has its bot named and killed), a
// sort of every row by that column, a recursive CTE, and TEMP filled to 48 MB (its cap is 64 MB) and
// emptied. A round of BURN is the user sending each in turn; each statement takes about 0.1 s of CPU.
import { commandNode, messageNode, scenarioOf, sqlNode } from "../test/support/hostile-sql";
const FILL = "INSERT INTO temp.spill WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 12) SELECT randomblob(1048576) FROM c";
export const STATEMENTS: Record<string, string> = {
  setup0: "DROP TABLE IF EXISTS heavy",
  setup1: "CREATE TABLE heavy (n INTEGER, t TEXT, x AS (length(hex(zeroblob(3000 + n % 1000)))))",
  setup2: "INSERT INTO heavy (n, t) WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 20000) SELECT n, hex(randomblob(16)) FROM c",
  sort: "SELECT count(*) AS n, max(x) AS m FROM (SELECT x, t FROM heavy ORDER BY x DESC, t LIMIT 100000)",
  count: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 500000) SELECT sum(n) AS s FROM c",
  spill: "CREATE TEMP TABLE IF NOT EXISTS spill (b BLOB)",
  fill1: FILL,
  fill2: FILL,
  fill3: FILL,
  fill4: FILL,
  empty: "DROP TABLE temp.spill",
};
export const SETUP = ["/setup0", "/setup1", "/setup2"];

/** The scenario that runs them: one command per statement, each answering "done". */
export const WORST_SQL = scenarioOf(
  ...Object.entries(STATEMENTS).flatMap(([name, query]) => [commandNode(`c_${name}`, `/${name}`, `q_${name}`), sqlNode(`q_${name}`, "done", query)]),
  messageNode("done", "done"),
);
export const BURN = ["/sort", "/count", "/spill", "/fill1", "/fill2", "/fill3", "/fill4", "/empty"];
