// The tables tools through the SDK's client over real HTTP: list, read, insert, update, delete,
// the project's access check, and bad names as tool errors.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Database } from "bun:sqlite";
import { patFor, type TestApp } from "../support/app";
import { ORDERS_DDL, OWNER, STRANGER, tablesApp } from "./helpers";

let t: TestApp;
let file: Database;
let project: number;
const clients: Client[] = [];

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };

async function connect(userId: number): Promise<(name: string, args: Record<string, unknown>) => Promise<Result>> {
  const url = new URL(`http://127.0.0.1:${t.app.server!.port}/mcp`);
  const client = new Client({ name: "tables-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${patFor(t, userId)}` } } }));
  clients.push(client);
  return async (name, args) => (await client.callTool({ name, arguments: args })) as Result;
}

beforeAll(async () => {
  ({ t, file, project } = await tablesApp());
  file.exec(ORDERS_DDL);
  file.exec("INSERT INTO orders (name) VALUES ('first'), ('second')");
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t.app.server?.stop(true);
  file.close();
  t.cleanup();
});

test("an agent lists, reads and edits a scenario table; the file holds its edits", async () => {
  const call = await connect(OWNER);
  const list = await call("list_tables", { projectId: project });
  expect(list.structuredContent.items.map((x: { name: string; rows: number }) => [x.name, x.rows])).toEqual([["orders", 2]]);
  const rows = await call("read_rows", { projectId: project, table: "orders", sort: "name", order: "desc" });
  expect(rows.structuredContent.items.map((r: { name: string }) => r.name)).toEqual(["second", "first"]);
  const made = await call("insert_row", { projectId: project, table: "orders", row: { name: "third", note: "via MCP" } });
  expect(made.isError).toBeFalsy();
  const id = made.structuredContent._id;
  expect((await call("update_row", { projectId: project, table: "orders", rowId: id, row: { note: "changed" } })).structuredContent.note).toBe("changed");
  expect(file.query("SELECT note FROM orders WHERE id = ?").get(id)).toEqual({ note: "changed" });
  expect((await call("delete_row", { projectId: project, table: "orders", rowId: id })).structuredContent).toEqual({ success: true });
  expect(file.query("SELECT count(*) AS n FROM orders").get()).toEqual({ n: 2 });
  const bad = await call("read_rows", { projectId: project, table: "orders; DROP TABLE orders" });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]!.text).toContain("not found");
  const badColumn = await call("insert_row", { projectId: project, table: "orders", row: { ghost: 1 } });
  expect(badColumn.isError).toBe(true);
});

test("a stranger's agent reaches nothing", async () => {
  const call = await connect(STRANGER);
  for (const [name, args] of [
    ["list_tables", { projectId: project }],
    ["read_rows", { projectId: project, table: "orders" }],
    ["delete_row", { projectId: project, table: "orders", rowId: 1 }],
  ] as const) {
    const r = await call(name, args);
    expect(r.isError).toBe(true);
  }
  expect(file.query("SELECT count(*) AS n FROM orders").get()).toEqual({ n: 2 });
});
