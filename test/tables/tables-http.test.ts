// The scenario tables routes through app.handle: listing, paging, sort, search, edits, and the bad
// input the issue names (unknown tables, SQL-looking names, bad columns, CSV shapes, formulas,
// 50 MB bodies, a replace that fails half way).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { ORDERS_DDL, tablesApp } from "./helpers";
import type { TestApp } from "../support/app";
import { bomCount, expectOneBom } from "../support/bom";

let t: TestApp;
let owner: string;
let stranger: string;
let file: Database;
let base: string;
let project: number;

beforeAll(async () => {
  ({ t, owner, stranger, file, base, project } = await tablesApp());
  file.exec(ORDERS_DDL);
  const ins = file.query("INSERT INTO orders (name, note) VALUES (?, ?)");
  for (let i = 1; i <= 30; i++) ins.run(`order ${String(i).padStart(2, "0")}`, i % 3 === 0 ? "Срочно" : `n${31 - i}`);
  file.exec("CREATE TABLE prices (sku TEXT NOT NULL, amount INTEGER, ratio REAL)");
  file.exec("INSERT INTO prices VALUES ('a', 1, 0.5)");
});
afterAll(() => {
  file.close();
  t.cleanup();
});

const csv = (body: string) => ({ cookie: owner, body, headers: { "content-type": "text/csv" } });

describe("listing and reading", () => {
  test("lists scenario tables with columns and counts, never the bot's own tables", async () => {
    t.ctx.projectFiles.open(project); // the bot's file exists too, with bot_users and the rest
    const r = await t.call("GET", base, { cookie: owner });
    expect(r.status).toBe(200);
    expect(r.body.items.map((x: { name: string }) => x.name)).toEqual(["orders", "prices"]);
    const orders = r.body.items[0];
    expect(orders.rows).toBe(30);
    expect(orders.key).toBe("id");
    expect(orders.readOnly).toBeNull();
    expect(orders.columns.map((c: { name: string }) => c.name)).toEqual(["id", "created_at", "name", "note"]);
    expect(r.body.items[1].columns[1]).toEqual({ name: "amount", type: "INTEGER", notNull: false, primaryKey: false });
  });

  test("a project without a tables file has no tables; strangers are refused", async () => {
    const other = t.ctx.projects.create(7101, { name: "Empty" }).id;
    expect((await t.call("GET", `/api/projects/${other}/tables`, { cookie: owner })).body).toEqual({ items: [] });
    expect((await t.call("GET", base, { cookie: stranger })).status).toBe(403);
    expect((await t.call("GET", base)).status).toBe(401);
  });

  test("pages, sorts by a column either way, and searches text in any letter case", async () => {
    const p1 = await t.call("GET", `${base}/orders/rows?perPage=10&page=2`, { cookie: owner });
    expect(p1.status).toBe(200);
    expect(p1.body.items.length).toBe(10);
    expect(p1.body.items[0]._id).toBe(11);
    expect(p1.body.total).toBe(30);
    const sorted = await t.call("GET", `${base}/orders/rows?sort=name&order=desc&perPage=3`, { cookie: owner });
    expect(sorted.body.items.map((r: { name: string }) => r.name)).toEqual(["order 30", "order 29", "order 28"]);
    const found = await t.call("GET", `${base}/orders/rows?search=${encodeURIComponent("СРОЧНО")}`, { cookie: owner });
    expect(found.body.total).toBe(10);
    expect(found.body.items.every((r: { note: string }) => r.note === "Срочно")).toBe(true);
    const percent = await t.call("GET", `${base}/orders/rows?search=%25`, { cookie: owner });
    expect(percent.body.total).toBe(0);
  });

  test("pages past the middle (read from the other end) hold the same rows in the same order", async () => {
    const ids = async (q: string) => (await t.call("GET", `${base}/orders/rows?${q}`, { cookie: owner })).body.items.map((r: { _id: number }) => r._id);
    expect(await ids("perPage=7&page=4")).toEqual([22, 23, 24, 25, 26, 27, 28]);
    expect(await ids("perPage=7&page=5")).toEqual([29, 30]);
    expect(await ids("perPage=7&page=6")).toEqual([]);
    expect(await ids("perPage=7&page=4&order=desc")).toEqual([9, 8, 7, 6, 5, 4, 3]);
    // next and previous pages start from the _id where the page read before ended or began
    for (const order of ["asc", "desc"]) {
      const all = await ids(`perPage=30&order=${order}`);
      for (const p of [2, 3, 4, 3, 2, 1, 2, 5, 4]) expect(await ids(`perPage=6&page=${p}&order=${order}`)).toEqual(all.slice((p - 1) * 6, p * 6));
    }
    expect(await ids("perPage=7&page=4&sort=note")).toEqual((await ids("perPage=30&sort=note")).slice(21, 28));
    const full = await t.call("GET", `${base}/orders/rows?perPage=4&search=order`, { cookie: owner });
    expect([full.body.items.length, full.body.total, full.body.totalCapped]).toEqual([4, 30, false]);
    const tail = await t.call("GET", `${base}/orders/rows?perPage=4&page=8&search=order`, { cookie: owner });
    expect([tail.body.items.length, tail.body.total]).toEqual([2, 30]);
  });

  test("names that are not tables or columns are refused, whatever they look like", async () => {
    for (const name of ["x; DROP TABLE orders", 'orders"', "bot_users", "sqlite_schema", "ORDERS", "orders --"]) {
      const r = await t.call("GET", `${base}/${encodeURIComponent(name)}/rows`, { cookie: owner });
      expect(r.status).toBe(404);
      expect(r.body.error).toBe("NOT_FOUND");
    }
    const badSort = await t.call("GET", `${base}/orders/rows?sort=${encodeURIComponent("name; DROP TABLE orders")}`, { cookie: owner });
    expect(badSort.status).toBe(400);
    expect((await t.call("GET", `${base}/orders/rows?order=sideways`, { cookie: owner })).status).toBe(400);
    expect((await t.call("GET", `${base}/orders/rows?page=0`, { cookie: owner })).status).toBe(400);
    expect(file.query("SELECT count(*) AS n FROM orders").get()).toEqual({ n: 30 });
  });
});

describe("editing rows", () => {
  test("insert, patch and delete a row; the bot's file sees each at once", async () => {
    const made = await t.call("POST", `${base}/orders/rows`, { cookie: owner, json: { name: "new", note: null } });
    expect(made.status).toBe(201);
    expect(made.body.name).toBe("new");
    expect(made.body.created_at).toMatch(/^\d{4}-/);
    const id = made.body._id;
    expect(made.body.id).toBe(id);
    const patched = await t.call("PATCH", `${base}/orders/rows/${id}`, { cookie: owner, json: { note: "edited" } });
    expect(patched.status).toBe(200);
    expect(patched.body.note).toBe("edited");
    expect(file.query("SELECT note FROM orders WHERE id = ?").get(id)).toEqual({ note: "edited" });
    expect((await t.call("GET", base, { cookie: owner })).body.items[0].rows).toBe(31);
    expect((await t.call("DELETE", `${base}/orders/rows/${id}`, { cookie: owner })).body).toEqual({ success: true });
    expect((await t.call("DELETE", `${base}/orders/rows/${id}`, { cookie: owner })).status).toBe(404);
    expect((await t.call("PATCH", `${base}/orders/rows/${id}`, { cookie: owner, json: { note: "x" } })).status).toBe(404);
    expect((await t.call("GET", base, { cookie: owner })).body.items[0].rows).toBe(30);
  });

  test("a row counted after the bot wrote one", async () => {
    file.query("INSERT INTO prices VALUES ('b', 2, 1)").run();
    expect((await t.call("GET", base, { cookie: owner })).body.items[1].rows).toBe(2);
    file.query("DELETE FROM prices WHERE sku = 'b'").run();
  });

  test("bad rows: unknown columns, wrong types, objects, NOT NULL, the key", async () => {
    const unknown = await t.call("POST", `${base}/orders/rows`, { cookie: owner, json: { "name; DROP TABLE orders": "x" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("is not a column");
    const wrongType = await t.call("POST", `${base}/prices/rows`, { cookie: owner, json: { sku: "c", amount: "lots" } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain("amount");
    expect((await t.call("POST", `${base}/prices/rows`, { cookie: owner, json: { sku: { a: 1 } } })).status).toBe(400);
    const notNull = await t.call("POST", `${base}/prices/rows`, { cookie: owner, json: { amount: 3 } });
    expect(notNull.status).toBe(400);
    expect(notNull.body.message).toContain("NOT NULL");
    expect((await t.call("PATCH", `${base}/orders/rows/1`, { cookie: owner, json: { id: 99 } })).status).toBe(400);
    expect((await t.call("PATCH", `${base}/orders/rows/abc`, { cookie: owner, json: {} })).status).toBe(400);
    expect((await t.call("POST", `${base}/orders/rows`, { cookie: owner, json: [1, 2] })).status).toBe(400);
    expect(file.query("SELECT count(*) AS n FROM prices").get()).toEqual({ n: 1 });
  });

  test("a table whose schema would run code on a write is read-only; its generated columns are never read", async () => {
    file.exec("CREATE TABLE hostile (a TEXT, b TEXT GENERATED ALWAYS AS (printf('%.*c', 1000, 'x')) VIRTUAL)");
    file.exec("INSERT INTO hostile (a) VALUES ('one')");
    file.exec("CREATE TABLE logged (a TEXT)");
    file.exec("CREATE TRIGGER logged_t AFTER INSERT ON logged BEGIN UPDATE logged SET a = 'changed'; END");
    const list = (await t.call("GET", base, { cookie: owner })).body.items;
    const hostile = list.find((x: { name: string }) => x.name === "hostile");
    expect(hostile.readOnly).toContain("generated");
    expect(hostile.columns.map((c: { name: string }) => c.name)).toEqual(["a"]);
    expect(list.find((x: { name: string }) => x.name === "logged").readOnly).toContain("triggers");
    const rows = await t.call("GET", `${base}/hostile/rows`, { cookie: owner });
    expect(rows.body.items).toEqual([{ _id: 1, a: "one" }]);
    const refused = await t.call("POST", `${base}/logged/rows`, { cookie: owner, json: { a: "x" } });
    expect(refused.status).toBe(409);
    expect(file.query("SELECT count(*) AS n FROM logged").get()).toEqual({ n: 0 });
    file.exec("DROP TABLE hostile; DROP TABLE logged");
  });
});

describe("export and import", () => {
  test("CSV export prefixes formulas; quotes, commas and newlines survive; export → import is equal", async () => {
    file.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body, n INTEGER)");
    const tricky = ['=cmd|" /C calc"!A0', "+1", "-2", "@SUM(A1)", "\tTab", "'=quoted", 'He said "hi", twice\nand\r\nagain', "", "plain", null];
    const ins = file.query("INSERT INTO notes (body, n) VALUES (?, ?)");
    tricky.forEach((b, i) => ins.run(b, i - 3));
    const exported = await t.call("GET", `${base}/notes/export?format=csv`, { cookie: owner });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toContain("text/csv");
    const lines = exported.text.split("\r\n");
    expect(lines[0]).toBe("id,body,n");
    expect(lines[1]).toBe(`1,"'=cmd|"" /C calc""!A0",-3`);
    expect(lines[2]).toBe("2,'+1,-2");
    expect(lines[4]).toBe("4,'@SUM(A1),0");
    expect(lines[6]).toBe("6,''=quoted,2");
    expect(exported.text).not.toMatch(/(^|,)[=+@]/m);
    const before = file.query("SELECT * FROM notes ORDER BY id").all();
    const replaced = await t.call("POST", `${base}/notes/import?mode=replace`, csv(exported.text));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ inserted: tricky.length });
    expect(file.query("SELECT * FROM notes ORDER BY id").all()).toEqual(before);
    const json = await t.call("GET", `${base}/notes/export?format=json`, { cookie: owner });
    expect(json.body).toEqual(before);
    const again = await t.call("POST", `${base}/notes/import?mode=replace`, { cookie: owner, json: json.body });
    expect(again.status).toBe(200);
    expect(file.query("SELECT * FROM notes ORDER BY id").all()).toEqual(before);
  });

  test("integers beyond 2^53 (a group's chat id) read, export and import back exactly", async () => {
    file.exec("CREATE TABLE chats (id INTEGER PRIMARY KEY, chat INTEGER, note TEXT)");
    file.exec("INSERT INTO chats (chat, note) VALUES (9007199254740993, 'a'), (-9223372036854775808, 'b'), (42, 'c')");
    const exact = () => file.query("SELECT id, chat, note FROM chats ORDER BY id").safeIntegers(true).all();
    const before = exact();
    // past 2^53 a JSON number cannot hold the value: it travels as its decimal text
    const page = await t.call("GET", `${base}/chats/rows`, { cookie: owner });
    expect(page.body.items.map((r: { chat: unknown }) => r.chat)).toEqual(["9007199254740993", "-9223372036854775808", 42]);
    expect(page.body.items[0]._id).toBe(1);
    const exported = await t.call("GET", `${base}/chats/export?format=csv`, { cookie: owner });
    expect(exported.text.split("\r\n").slice(1, 3)).toEqual(["1,9007199254740993,a", "2,-9223372036854775808,b"]);
    expect((await t.call("POST", `${base}/chats/import?mode=replace`, csv(exported.text))).status).toBe(200);
    expect(exact()).toEqual(before);
    const json = await t.call("GET", `${base}/chats/export?format=json`, { cookie: owner });
    expect(JSON.parse(json.text)[0].chat).toBe("9007199254740993");
    expect((await t.call("POST", `${base}/chats/import?mode=replace`, { cookie: owner, json: json.body })).status).toBe(200);
    expect(exact()).toEqual(before);
    const patched = await t.call("PATCH", `${base}/chats/rows/3`, { cookie: owner, json: { chat: "9007199254740995" } });
    expect(patched.body.chat).toBe("9007199254740995");
  });

  test("an export streams from its own snapshot while rows are edited; a dropped download lets go", async () => {
    file.exec("CREATE TABLE big (id INTEGER PRIMARY KEY, v TEXT)");
    file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO big (v) SELECT 'v' || i FROM n");
    const res = await t.app.handle(new Request(`http://localhost${base}/big/export?format=csv`, { headers: { cookie: owner } }));
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith("id,v\r\n1,v1\r\n")).toBe(true);
    // an edit and a bot's write while the download is half read
    expect((await t.call("PATCH", `${base}/big/rows/2999`, { cookie: owner, json: { v: "edited" } })).status).toBe(200);
    file.exec("INSERT INTO big (v) VALUES ('late')");
    let text = first;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const lines = text.trimEnd().split("\r\n");
    expect(lines.length).toBe(3001);
    expect(lines[2999]).toBe("2999,v2999");
    // a download dropped half way ends its read
    const dropped = await t.app.handle(new Request(`http://localhost${base}/big/export?format=json`, { headers: { cookie: owner } }));
    const r2 = dropped.body!.getReader();
    await r2.read();
    await r2.cancel();
    expect((await t.call("DELETE", `${base}/big/rows/1`, { cookie: owner })).status).toBe(200);
    file.exec("DROP TABLE big");
  });

  test("a table named in another alphabet exports under its name", async () => {
    file.exec('CREATE TABLE "заказы" (id INTEGER PRIMARY KEY, "товар")');
    file.exec("INSERT INTO \"заказы\" (\"товар\") VALUES ('чай')");
    const r = await t.call("GET", `${base}/${encodeURIComponent("заказы")}/export`, { cookie: owner });
    expect(r.status).toBe(200);
    expect(r.text).toBe("id,товар\r\n1,чай\r\n");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="______.csv"; filename*=UTF-8''${encodeURIComponent("заказы.csv")}`);
    file.exec('DROP TABLE "заказы"');
  });

  test("a CSV download starts with the UTF-8 BOM once, in its first chunk, however many it streams in; JSON has none", async () => {
    file.exec("CREATE TABLE bom_empty (id INTEGER PRIMARY KEY, v TEXT)");
    file.exec("CREATE TABLE bom_big (id INTEGER PRIMARY KEY, v TEXT)");
    file.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) INSERT INTO bom_big (v) SELECT 'ряд ' || i FROM n");
    // [table, rows, chunks at least] (500 rows a chunk)
    const cases: [string, number, number][] = [
      ["bom_empty", 0, 1],
      ["orders", 30, 1],
      ["bom_big", 1200, 3],
    ];
    for (const [table, rows, chunks] of cases) {
      const res = await t.app.handle(new Request(`http://localhost${base}/${table}/export?format=csv`, { headers: { cookie: owner } }));
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const parts: Uint8Array[] = [];
      for await (const part of res.body!) parts.push(part);
      expect({ table, chunks: parts.length >= chunks, firstChunkBoms: bomCount(parts[0]!) }).toEqual({ table, chunks: true, firstChunkBoms: 1 });
      const bytes = Buffer.concat(parts);
      expectOneBom(bytes, table);
      expect(new TextDecoder().decode(bytes).trimEnd().split("\r\n").length).toBe(rows + 1);
    }
    const json = await t.call("GET", `${base}/orders/export?format=json`, { cookie: owner });
    expect(json.bytes[0]).toBe("[".charCodeAt(0));
    expect(bomCount(json.bytes)).toBe(0);
    file.exec("DROP TABLE bom_empty; DROP TABLE bom_big");
  });

  test("a CSV with Cyrillic text, imported byte for byte as it was downloaded (BOM and all) into another table, gives the same rows", async () => {
    for (const name of ["ru_from", "ru_to"]) file.exec(`CREATE TABLE ${name} (id INTEGER PRIMARY KEY, "имя" TEXT NOT NULL, "заметка" TEXT, n INTEGER)`);
    const ins = file.query('INSERT INTO ru_from ("имя", "заметка", n) VALUES (?, ?, ?)');
    ins.run("Мария Иванова", "Привет, мир", 1);
    ins.run("Ёжик", 'Он сказал "да"\nи ушёл', 2);
    ins.run("=СУММ(A1)", null, 3);
    ins.run("Ли", "", null);
    ins.run("Ана", "пицца 🍕 — «две по цене одной»", -4);
    const out = await t.call("GET", `${base}/ru_from/export`, { cookie: owner });
    expect(out.status).toBe(200);
    expectOneBom(out.bytes, "ru_from");
    expect(out.text.startsWith("id,имя,заметка,n\r\n1,Мария Иванова,\"Привет, мир\",1\r\n")).toBe(true);
    const back = await t.call("POST", `${base}/ru_to/import`, { cookie: owner, body: out.bytes, headers: { "content-type": "text/csv" } });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ inserted: 5 });
    const all = (table: string) => file.query(`SELECT * FROM ${table} ORDER BY id`).all();
    expect(all("ru_to")).toEqual(all("ru_from"));
    expect((all("ru_to")[0] as Record<string, unknown>)["имя"]).toBe("Мария Иванова");
    file.exec("DROP TABLE ru_from; DROP TABLE ru_to");
  });

  test("append adds rows; a bad record names itself and nothing is written", async () => {
    const n = () => (file.query("SELECT count(*) AS n FROM notes").get() as { n: number }).n;
    const start = n();
    const ok = await t.call("POST", `${base}/notes/import`, csv('body,n\n"a, b",1\n"multi\nline",2\n'));
    expect(ok.body).toEqual({ inserted: 2 });
    expect(n()).toBe(start + 2);
    const cases: [string, RegExp][] = [
      ["body,n\nx,1\ny,2,3\n", /^row 2: 3 fields/],
      ["body,n\nx,1\ny\n", /^row 2: 1 fields/],
      ["body,n\nx,1\nx,two\n", /^row 2: n is INTEGER/],
      ["body,nope\nx,1\n", /^header: "nope" is not a column/],
      ['body,n\n"open,1\n', /^row 1: a quoted field is not closed/],
      ["id,body\n900,x\n1.5,y\n", /^row 2: datatype mismatch/],
    ];
    for (const [text, message] of cases) {
      const r = await t.call("POST", `${base}/notes/import`, csv(text));
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(message);
      expect(n()).toBe(start + 2);
    }
    const badJson = await t.call("POST", `${base}/notes/import`, { cookie: owner, json: [{ body: "ok" }, { body: "x", ghost: 1 }] });
    expect(badJson.status).toBe(400);
    expect(badJson.body.row).toBe(2);
    expect((await t.call("POST", `${base}/notes/import`, { cookie: owner, json: { body: "x" } })).status).toBe(400);
    expect((await t.call("POST", `${base}/notes/import`, { cookie: owner, body: "x", headers: { "content-type": "application/xml" } })).status).toBe(400);
    expect((await t.call("POST", `${base}/notes/import?mode=merge`, csv("body\nx\n"))).status).toBe(400);
    expect(n()).toBe(start + 2);
  });

  test("replace mode rolls back when a later row is bad: the old rows stay", async () => {
    const before = file.query("SELECT * FROM notes ORDER BY id").all();
    const r = await t.call("POST", `${base}/notes/import?mode=replace`, csv("id,body\n500,a\n501,b\n500,dup\n"));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^row 3: UNIQUE constraint failed/);
    expect(r.body.row).toBe(3);
    expect(file.query("SELECT * FROM notes ORDER BY id").all()).toEqual(before);
  });

  test("a 50 MB import is refused with 413 before anything is read or written", async () => {
    const before = file.query("SELECT count(*) AS n FROM notes").get();
    const big = "body\n" + "x".repeat(50 * 1024 * 1024);
    const r = await t.app.handle(
      new Request(`http://localhost${base}/notes/import`, { method: "POST", headers: { cookie: owner, "content-type": "text/csv", "content-length": String(big.length) }, body: big }),
    );
    expect(r.status).toBe(413);
    expect((await r.json()).error).toBe("PAYLOAD_TOO_LARGE");
    expect(file.query("SELECT count(*) AS n FROM notes").get()).toEqual(before);
    // the same body without a length announced stops at the cap too
    const chunked = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const r2 = await t.app.handle(new Request(`http://localhost${base}/notes/import`, { method: "POST", headers: { cookie: owner, "content-type": "text/csv" }, body: chunked, duplex: "half" } as RequestInit));
    expect(r2.status).toBe(413);
    expect(file.query("SELECT count(*) AS n FROM notes").get()).toEqual(before);
  });
});
