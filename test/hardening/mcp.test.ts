// /mcp with a valid PAT and hostile input: malformed and odd JSON-RPC bodies, huge bodies, forged
// session ids, unknown tools, and tool arguments of every wrong kind. Never a 5xx, never server
// internals in the answer; the server stays usable afterwards.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { expectNoLeak } from "./fixture";

let t: TestApp;
let pat: string;
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function post(body: string, extra: Record<string, string> = {}) {
  const res = await t.app.handle(new Request("http://localhost/mcp", { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${pat}`, ...extra }, body }));
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const initialize = (id: number | string = 1) => JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } } });

async function session(): Promise<string> {
  const r = await post(initialize());
  expect(r.status).toBe(200);
  const id = r.headers.get("mcp-session-id")!;
  await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
  return id;
}

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  await loginAs(t, 9301);
  pat = patFor(t, 9301);
});
afterAll(() => t.cleanup());

test("malformed and odd bodies before a session: 4xx, no internals", async () => {
  const bodies = [
    '{"jsonrpc": "2.0",',
    "null",
    "[]",
    "[1,2,3]",
    '"x"',
    "{}",
    "",
    JSON.stringify({ jsonrpc: "1.0", id: 1, method: "initialize" }),
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    JSON.stringify({ jsonrpc: "2.0", id: { evil: true }, method: "initialize", params: "nope" }),
    `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    '{"__proto__": {"polluted": true}, "jsonrpc": "2.0", "id": 1, "method": "initialize"}',
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "x".repeat(2_000_000) } }),
  ];
  for (const body of bodies) {
    const r = await post(body);
    expect(r.status, body.slice(0, 80)).toBeLessThan(500);
    expectNoLeak(r.text, `POST /mcp ${body.slice(0, 60)}`);
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("forged, foreign and malformed session ids are refused with the error shape", async () => {
  for (const id of ["nope", "00000000-0000-0000-0000-000000000000", "../../etc/passwd", "x".repeat(5000)]) {
    const r = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), { "mcp-session-id": id });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text).error).toBe("NOT_FOUND");
  }
});

test("inside a session: unknown methods and tools, and wrong arguments of every kind, are errors in words", async () => {
  const sid = await session();
  const h = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  const unknownMethod = await post(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/explode" }), h);
  expect(unknownMethod.status).toBeLessThan(500);
  expect(JSON.parse(unknownMethod.text).error.message).toMatch(/not found/i);
  const callTool = (name: string, args: unknown) => post(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name, arguments: args } }), h);
  const unknownTool = JSON.parse((await callTool("rm_rf", {})).text);
  expect(JSON.stringify(unknownTool)).toMatch(/rm_rf/);
  const wrong: unknown[] = [{}, { projectId: "1 OR 1=1" }, { projectId: -1 }, { projectId: 1e308 }, { projectId: null }, { projectId: [1] }, { projectId: { $gt: 0 } }, "not an object", [1, 2]];
  for (const tool of ["get_project", "add_node", "update_node", "delete_node", "connect_nodes", "update_project_data", "start_bot", "read_logs", "list_bot_users"]) {
    for (const a of wrong) {
      const r = await callTool(tool, a);
      expect(r.status).toBeLessThan(500);
      expectNoLeak(r.text, `${tool} ${JSON.stringify(a)}`);
      const msg = JSON.parse(r.text);
      const isError = msg.result?.isError === true || msg.error !== undefined;
      expect(isError, `${tool} ${JSON.stringify(a)}: ${r.text.slice(0, 200)}`).toBe(true);
    }
  }
  // Still usable afterwards.
  const list = JSON.parse((await callTool("list_projects", {})).text);
  expect(list.result.structuredContent.items).toEqual([]);
});
