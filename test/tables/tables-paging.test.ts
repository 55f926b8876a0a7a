// Pages by `_id` jumped to anywhere (read from marks, src/modules/tables/queries/pages.ts) are the
// rows a plain OFFSET query answers: on tables with gaps in `_id`, with `_id` as the rowid of a
// table without an INTEGER PRIMARY KEY (which VACUUM renumbers), after the bot (another connection)
// inserts and deletes rows — those at the marks too —, and while it writes at the same moment.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { ORDERS_DDL, tablesApp } from "./helpers";
import type { TestApp } from "../support/app";

/** The rows between two marks (pages.ts MARK_STEP): the tables below span several. */
const STEP = 4096;

let t: TestApp;
let owner: string;
let file: Database;
let base: string;

beforeAll(async () => {
  ({ t, owner, file, base } = await tablesApp());
  file.exec(ORDERS_DDL);
  file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 27000) INSERT INTO orders (name, note) SELECT 'order ' || i, 'n' || (i % 7) FROM n");
});
afterAll(() => {
  file.close();
  t.cleanup();
});

async function page(table: string, q: string): Promise<{ ids: number[]; total: number }> {
  const r = await t.call("GET", `${base}/${table}/rows?${q}`, { cookie: owner });
  expect(r.status).toBe(200);
  return { ids: r.body.items.map((x: { _id: number }) => x._id), total: r.body.total };
}

/** What a plain OFFSET query of the bot's own connection answers. */
function offsetIds(table: string, key: string, desc: boolean, perPage: number, pageNo: number): number[] {
  return file
    .query<{ k: number }, [number, number]>(`SELECT ${key} AS k FROM ${table} ORDER BY ${key} ${desc ? "DESC" : "ASC"} LIMIT ? OFFSET ?`)
    .all(perPage, (pageNo - 1) * perPage)
    .map((r) => r.k);
}

/** Pages around every mark, in the middle, at both ends and past the end, either way, as the server answers them and as OFFSET does. */
async function expectPagesAsOffset(table: string, key: string) {
  const n = file.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
  for (const perPage of [200, 7]) {
    const last = Math.ceil(n / perPage);
    const near = (pos: number) => [Math.floor(pos / perPage), Math.floor(pos / perPage) + 1, Math.floor(pos / perPage) + 2];
    const pages = new Set([1, 2, last - 1, last, last + 1, ...near(n / 2), ...[1, 2, 3, 4, 5, 6].flatMap((m) => [...near(m * STEP), ...near(n - m * STEP)])]);
    for (const desc of [false, true]) {
      for (const p of [...pages].filter((x) => x >= 1)) {
        const got = await page(table, `perPage=${perPage}&page=${p}&order=${desc ? "desc" : "asc"}`);
        expect({ table, perPage, page: p, desc, ids: got.ids }).toEqual({ table, perPage, page: p, desc, ids: offsetIds(table, key, desc, perPage, p) });
        expect(got.total).toBe(n);
      }
    }
  }
}

/** The _id at an ascending position, as OFFSET finds it. */
const idAt = (table: string, key: string, pos: number) => file.query<{ k: number }, [number]>(`SELECT ${key} AS k FROM ${table} ORDER BY ${key} LIMIT 1 OFFSET ?`).get(pos)!.k;

describe("pages jumped to anywhere are what OFFSET answers", () => {
  test("a dense table, then gaps in _id", async () => {
    await expectPagesAsOffset("orders", "id");
    // gaps: every 7th row gone, and rows far beyond the last id (a scenario may give ids itself)
    file.exec("DELETE FROM orders WHERE id % 7 = 3");
    file.exec("INSERT INTO orders (id, name) VALUES (100000, 'far'), (100005, 'farther'), (9007199254740000, 'huge')");
    await expectPagesAsOffset("orders", "id");
  });

  test("after the bot deletes the rows at the marks and inserts before and after them", async () => {
    // the marks are taken by the pages above: the rows at them, from either end, go
    const n = file.query<{ n: number }, []>("SELECT count(*) AS n FROM orders").get()!.n;
    const atMarks = [1, 2, 3].flatMap((m) => [idAt("orders", "id", m * STEP), idAt("orders", "id", n - 1 - m * STEP)]);
    file.query(`DELETE FROM orders WHERE id IN (${atMarks.join(",")})`).run();
    await expectPagesAsOffset("orders", "id");
    // rows in the gaps, before the first mark and at the end
    file.exec("INSERT INTO orders (id, name) VALUES (10, 'back in a gap'), (5001, 'x'), (0, 'zero'), (-5, 'below zero')");
    file.exec("INSERT INTO orders (name) VALUES ('appended 1'), ('appended 2')");
    await expectPagesAsOffset("orders", "id");
    // one write of the Studio's own (its connection is not the reader's) and one of the bot
    const made = await t.call("POST", `${base}/orders/rows`, { cookie: owner, json: { id: 9012, name: "from the Studio" } });
    expect(made.status).toBe(201);
    await expectPagesAsOffset("orders", "id");
    expect((await t.call("DELETE", `${base}/orders/rows/${idAt("orders", "id", 2 * STEP)}`, { cookie: owner })).status).toBe(200);
    await expectPagesAsOffset("orders", "id");
  });

  test("a table without an INTEGER PRIMARY KEY: _id is its rowid, which VACUUM renumbers", async () => {
    // as a psql_query node may make it
    file.exec("CREATE TABLE notes (body TEXT, n INTEGER)");
    file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 17000) INSERT INTO notes SELECT 'note ' || i, i FROM n");
    file.exec("DELETE FROM notes WHERE n % 5 = 0");
    await expectPagesAsOffset("notes", "rowid");
    const before = await page("notes", "perPage=50&page=40");
    file.exec("VACUUM");
    const after = await page("notes", "perPage=50&page=40");
    expect(after.ids).not.toEqual(before.ids);
    await expectPagesAsOffset("notes", "rowid");
    file.exec("DROP TABLE notes");
  });

  test("a table without a rowid to page by: pages by OFFSET, all rows once", async () => {
    file.exec("CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID");
    file.exec("CREATE TABLE aliased (rowid TEXT, _rowid_ TEXT, oid TEXT)");
    file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) INSERT INTO kv SELECT 'k' || i, i FROM n");
    file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) INSERT INTO aliased SELECT 'r' || i, 'x', 'y' FROM n");
    for (const table of ["kv", "aliased"]) {
      const seen: string[] = [];
      for (let p = 1; p <= 13; p++) {
        const r = await t.call("GET", `${base}/${table}/rows?perPage=200&page=${p}`, { cookie: owner });
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(2500);
        seen.push(...r.body.items.map((x: Record<string, string>) => JSON.stringify(x)));
      }
      expect(seen.length).toBe(2500);
      expect(new Set(seen).size).toBe(2500);
    }
    file.exec("DROP TABLE kv; DROP TABLE aliased");
  });
});

describe("sorted by a column", () => {
  test("with an index or without: nulls, ties, mixed types, either way, from either end, as OFFSET answers", async () => {
    file.exec("CREATE TABLE scores (id INTEGER PRIMARY KEY, player, points)");
    file.exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO scores (player, points) SELECT CASE WHEN i % 11 = 0 THEN NULL WHEN i % 13 = 0 THEN i % 7 ELSE 'p' || (i % 50) END, i % 17 FROM n",
    );
    const n = 3000;
    for (const indexed of [false, true]) {
      if (indexed) file.exec("CREATE INDEX scores_player ON scores (player)");
      for (const desc of [false, true]) {
        const expected = file
          .query<{ id: number }, []>(`SELECT id FROM scores ORDER BY player ${desc ? "DESC" : "ASC"}, id ${desc ? "DESC" : "ASC"}`)
          .all()
          .map((r) => r.id);
        for (const p of [1, 2, 14, 15, 16, 29, 30, 31]) {
          const got = await page("scores", `perPage=100&page=${p}&sort=player&order=${desc ? "desc" : "asc"}`);
          expect({ indexed, desc, p, ids: got.ids }).toEqual({ indexed, desc, p, ids: expected.slice((p - 1) * 100, p * 100) });
          expect(got.total).toBe(n);
        }
      }
    }
    file.exec("DROP TABLE scores");
  });
});

describe("while the bot writes at the same moment", () => {
  test("each page agrees with its own count: one snapshot, whatever is committed meanwhile", async () => {
    // ids 1..n with no gaps, the bot appending: ascending position p holds id p + 1, and the
    // first row of a descending page at offset o holds id total − o, in the page's own snapshot
    file.exec("CREATE TABLE log (id INTEGER PRIMARY KEY, body)");
    file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO log (body) SELECT 'line ' || i FROM n");
    let writing = true;
    let appended = 0;
    const append = file.query("INSERT INTO log (body) VALUES ('appended')");
    const writer = (async () => {
      // the reads run in the worker thread meanwhile; each commit moves the file's data_version
      while (writing) {
        append.run();
        appended++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      for (let round = 0; round < 40; round++) {
        const asc = await page("log", `perPage=37&page=${60 + (round % 20)}`);
        const first = (60 + (round % 20) - 1) * 37 + 1;
        expect(asc.ids).toEqual(Array.from({ length: 37 }, (_, i) => first + i));
        const o = 37 * (10 + round);
        const desc = await page("log", `perPage=37&page=${11 + round}&order=desc`);
        expect(desc.ids).toEqual(Array.from({ length: 37 }, (_, i) => desc.total - o - i));
      }
    } finally {
      writing = false;
      await writer;
    }
    // the bot did write while the pages were read
    expect(appended).toBeGreaterThan(40);
    file.exec("DROP TABLE log");
  });
});
