// Scenario tables (docs/tables.md): server time of the Tables reads on a table of --rows rows
// (default 1,000,000) beside the same-run baseline, a table of 1,000 rows in the same project file,
// made as bot_table makes them (an INTEGER PRIMARY KEY id, created_at, untyped columns). For each:
//  - the listing with its row count: cold (counted) and warm (kept until a commit moves the file);
//  - a page of 50 by _id: the first, one in the middle, the last, and the next page after one
//    read (as the Studio's Next button asks);
//  - pages jumped to anywhere in the middle half by _id: the first-ever jump into the table, the
//    first after each commit by the bot (no marks yet), and later ones (marks kept), each beside
//    the same page read by a plain OFFSET as before the marks (same run, interleaved);
//  - a page in the middle sorted by a column with an index (OFFSET over the index);
//  - a page sorted by a column without an index, and a search of the text columns;
//  - the HTTP round trip of the first page on loopback (the route, the access check, JSON);
//  - an import of --import CSV rows (default 100,000) beside one of 1,000: the write lock it holds;
//  - /api/health while searches of the big table run back to back, beside /api/health idle.
// Target: a page of the big table ≤ 20 ms server time. Prints ONE JSON line.
//
//   bun bench/tables.ts [--rows 1000000] [--samples 30] [--import 100000]
import { Database } from "bun:sqlite";
import { scenarioTablesPath } from "../src/db/project-db";
import { closeTablesFiles } from "../src/modules/tables/queries";
import { readOffThread } from "../src/modules/tables/reads";
import { TablesService } from "../src/modules/tables/service";
import { arg, latency, ratio, round, runBench, startPlatform } from "./lib";

const ROWS = arg("rows", 1_000_000);
const SAMPLES = Math.max(3, arg("samples", 30));
const IMPORT = arg("import", 100_000);
/** Scans of the whole table: fewer samples (each is one full pass). */
const SCAN_SAMPLES = Math.max(3, Math.min(SAMPLES, 5));
const OWNER = 1;
const TARGET_PAGE_MS = 20;

async function time(n: number, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return latency(samples);
}

/** The same pages every run: positions in the middle half of a table (a 32-bit LCG). */
function positions(seed: number) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return 0.25 + (0.5 * x) / 2 ** 32;
  };
}

function fill(file: Database, name: string, rows: number) {
  file.exec(`CREATE TABLE ${name} (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL DEFAULT (datetime('now')), customer, item, qty, note)`);
  // One statement: a recursive CTE writes the rows without a round trip per row.
  file.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
     INSERT INTO ${name} (customer, item, qty, note) SELECT 'customer ' || (i * 7919 % ${rows}), 'item ' || (i % 97), i % 13, CASE WHEN i % 50000 = 0 THEN 'needle' ELSE 'note ' || i END FROM n`,
  );
  // a psql_query node may index a column the Studio then sorts by
  file.exec(`CREATE INDEX ${name}_item ON ${name} (item)`);
}

await runBench("tables", async () => {
  const p = await startPlatform();
  const cookie = await p.login(OWNER);
  const projectId = p.ctx.projects.create(OWNER, { name: "Tables bench" }).id;
  p.ctx.projectFiles.open(projectId);
  const path = scenarioTablesPath(p.ctx.projectFiles.pathOf(projectId));
  const file = new Database(path, { create: true });
  file.exec("PRAGMA journal_mode = WAL");
  const t0 = performance.now();
  fill(file, "big", ROWS);
  fill(file, "small", 1000);
  const fillMs = round(performance.now() - t0, 0);
  const service = new TablesService(p.ctx);
  const page = (name: string, pageNo: number, extra: Partial<{ sort: string; search: string }> = {}) =>
    service.rows(projectId, name, { page: pageNo, perPage: 50, order: "asc", search: "", ...extra });

  // The page the Studio read before marks, on a connection as it opened them (file not mapped).
  const plain = new Database(path, { readonly: true });
  const plainOffset = (name: string, pageNo: number) => {
    const t0 = performance.now();
    plain.query(`SELECT id AS _id, * FROM ${name} ORDER BY id LIMIT 50 OFFSET ?`).all((pageNo - 1) * 50);
    return performance.now() - t0;
  };
  const timed = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };

  const measure = async (name: string, rows: number) => {
    // a write by "another connection" (the bot) moves data_version: the next listing counts again
    let n = 0;
    const touch = () => file.exec(`UPDATE ${name} SET qty = ${++n} WHERE id = 1`);
    const last = Math.ceil(rows / 50);
    const at = positions(rows);
    const pick = () => Math.ceil(last * at());
    // the first read of the table ever in this server: a jump into its middle
    const firstEverJumpMs = round(await timed(() => page(name, pick())), 2);
    // after each commit of the bot the marks are taken again, from the nearer end up to the page
    const afterWrite: number[] = [];
    const afterWriteOffset: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const p = pick();
      touch();
      afterWrite.push(await timed(() => page(name, p)));
      afterWriteOffset.push(plainOffset(name, p));
    }
    // marks kept: jumps anywhere once one jump on each side of the middle took them
    await page(name, Math.floor(last / 2) - 1);
    await page(name, Math.floor(last / 2) + 2);
    const kept: number[] = [];
    const keptOffset: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const p = pick();
      kept.push(await timed(() => page(name, p)));
      keptOffset.push(plainOffset(name, p));
    }
    const jumps = {
      firstEverMs: firstEverJumpMs,
      afterBotWrite: latency(afterWrite),
      afterBotWritePlainOffset: latency(afterWriteOffset),
      marksKept: latency(kept),
      marksKeptPlainOffset: latency(keptOffset),
    };
    const cold = await time(SCAN_SAMPLES, async () => {
      touch();
      await service.list(projectId);
    });
    const warm = await time(SAMPLES, () => service.list(projectId));
    const figures = {
      listCold: cold,
      listWarm: warm,
      jumps,
      firstPage: await time(SAMPLES, () => page(name, 1)),
      middlePage: await time(SAMPLES, () => page(name, Math.ceil(last / 2))),
      sortedIndexedMiddle: await time(SCAN_SAMPLES, () => page(name, Math.ceil(last / 2), { sort: "item" })),
      lastPage: await time(SAMPLES, () => page(name, last)),
      // paging on from the middle, as the Next button does: each page starts where the last ended
      nextFromMiddle: await (async () => {
        let at = Math.ceil(last / 3);
        await page(name, at);
        return time(SAMPLES, () => page(name, ++at));
      })(),
      sortedUnindexed: await time(SCAN_SAMPLES, () => page(name, 1, { sort: "customer" })),
      search: await time(SCAN_SAMPLES, () => page(name, 1, { search: "needle" })),
      http: await time(SAMPLES, async () => {
        const r = await fetch(`${p.url}/api/projects/${projectId}/tables/${name}/rows?perPage=50`, { headers: { cookie } });
        if (r.status !== 200) throw new Error(`rows answered ${r.status}`);
        await r.arrayBuffer();
      }),
    };
    return figures;
  };

  // An import holds the file's write lock for its one transaction: the bot's writes wait that long
  // (busy_timeout 5 s). A CSV of IMPORT rows into an empty table made like bot_table's, beside 1,000.
  const importOf = async (rows: number) => {
    file.exec(`DROP TABLE IF EXISTS imp; CREATE TABLE imp (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL DEFAULT (datetime('now')), customer, item, qty, note)`);
    let csv = "customer,item,qty,note\n";
    for (let i = 0; i < rows; i++) csv += `customer ${i},"item, ${i % 97}",${i % 13},"a note\nwith a line break"\n`;
    const t0 = performance.now();
    // the service's own job, for the lock time it reports
    const r = await readOffThread({ kind: "import", path, table: "imp", format: "csv", text: csv, replace: false });
    const ms = round(performance.now() - t0, 1);
    if (!("inserted" in r) || r.inserted !== rows) throw new Error(`import answered ${JSON.stringify(r).slice(0, 200)}`);
    return { rows, bytes: csv.length, ms, lockMs: round(r.lockMs, 1) };
  };
  const imports = { big: await importOf(IMPORT), baseline1000: await importOf(1000) };
  // The reads run in a worker: the event loop answers meanwhile. /api/health while searches of the
  // big table run back to back, beside /api/health idle.
  const health = () =>
    time(SAMPLES, async () => {
      const r = await fetch(`${p.url}/api/health`);
      await r.arrayBuffer();
    });
  const healthIdle = await health();
  let scanning = true;
  const scans = (async () => {
    while (scanning) await page("big", 1, { search: "needle" });
  })();
  const healthDuringScans = await health();
  scanning = false;
  await scans;
  const small = await measure("small", 1000);
  const big = await measure("big", ROWS);
  file.close();
  plain.close();
  closeTablesFiles();
  const pageP99 = Math.max(big.firstPage.p99Ms, big.lastPage.p99Ms, big.nextFromMiddle.p99Ms, big.jumps.marksKept.p99Ms, big.jumps.afterBotWrite.p99Ms);
  return {
    rows: ROWS,
    fillMs,
    imports,
    health: { idle: healthIdle, duringSearches: healthDuringScans, p99Ratio: ratio(healthDuringScans.p99Ms, healthIdle.p99Ms) },
    target: { pageP99Ms: TARGET_PAGE_MS },
    big,
    baseline1000: small,
    /** first, last and next pages, and pages jumped to in the middle half (after a bot's commit, and with marks kept) */
    pageP99Ms: round(pageP99),
    pageWithinTarget: pageP99 <= TARGET_PAGE_MS,
    /** a jump after a bot's commit and with marks kept, against the plain OFFSET read of the same pages (p50) */
    jumpAfterWriteVsOffset: ratio(big.jumps.afterBotWrite.p50Ms, big.jumps.afterBotWritePlainOffset.p50Ms),
    jumpMarksKeptVsOffset: ratio(big.jumps.marksKept.p50Ms, big.jumps.marksKeptPlainOffset.p50Ms),
    firstPageRatio: ratio(big.firstPage.p99Ms, small.firstPage.p99Ms),
    sortedUnindexedRatio: ratio(big.sortedUnindexed.p50Ms, small.sortedUnindexed.p50Ms),
  };
});
