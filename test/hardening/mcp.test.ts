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
  expect(unknownTool.result.isError).toBe(true);
  expect(unknownTool.result.content[0].text).toMatch(/rm_rf/);
  const wrong: unknown[] = [{}, { projectId: "1 OR 1=1" }, { projectId: -1 }, { projectId: 1e308 }, { projectId: null }, { projectId: [1] }, { projectId: { $gt: 0 } }, "not an object", [1, 2]];
  for (const tool of ["get_project", "add_node", "update_node", "delete_node", "connect_nodes", "update_project_data", "start_bot", "read_logs", "list_bot_users", "list_tables", "read_rows", "insert_row", "update_row", "delete_row"]) {
    for (const a of wrong) {
      const r = await callTool(tool, a);
      expect(r.status).toBeLessThan(500);
      expectNoLeak(r.text, `${tool} ${JSON.stringify(a)}`);
      // A tool error in words naming the tool, never a JSON-RPC error with zod's raw issue list.
      const msg = JSON.parse(r.text);
      expect(msg.result?.isError, `${tool} ${JSON.stringify(a)}: ${r.text.slice(0, 200)}`).toBe(true);
      expect(msg.result.content[0].text).toStartWith(`Invalid arguments for tool ${tool}:`);
    }
  }
  // Still usable afterwards.
  const list = JSON.parse((await callTool("list_projects", {})).text);
  expect(list.result.structuredContent.items).toEqual([]);
});

test("scenario limits hold through MCP too: 40,000 levels and 20,001 nodes are tool errors in words, nothing stored", async () => {
  const sid = await session();
  const h = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  const raw = (name: string, args: string) => post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`, h);
  const deep = `{"sheets":[{"id":"s","name":"S","nodes":[{"id":"n","type":"message","data":{"x":${"[".repeat(40_000)}${"]".repeat(40_000)}}}]}]}`;
  const many = `{"sheets":[{"id":"s","name":"S","nodes":[${Array.from({ length: 20_001 }, (_, i) => `{"id":"n${i}","type":"message"}`).join(",")}]}]}`;
  const before = t.ctx.projects.listItems(9301, false).length;
  for (const [data, says] of [[deep, "64 levels"], [many, "at most 20,000"]] as const) {
    const r = await raw("create_project", `{"name":"x","data":${data}}`);
    expect(r.status).toBeLessThan(500);
    expectNoLeak(r.text, "create_project over the limits");
    const msg = JSON.parse(r.text);
    expect(msg.result?.isError === true || msg.error !== undefined).toBe(true);
    expect(r.text).toContain(says);
  }
  expect(t.ctx.projects.listItems(9301, false).length).toBe(before);
}, 30_000);

test("node data nested 200,000 levels deep is refused with the reason, not an internal error", async () => {
  const sid = await session();
  const h = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  const call = (name: string, args: string) => post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`, h);
  const created = JSON.parse((await call("create_project", '{"name":"Deep"}')).text).result.structuredContent.id as number;
  expect((await call("add_node", `{"projectId":${created},"type":"message","id":"m1","data":{"messageText":"hi"}}`)).status).toBe(200);
  // Built as text: the value is too deep for JSON.stringify itself.
  const deep = '{"a":'.repeat(200_000) + "{}" + "}".repeat(200_000);
  for (const [tool, args] of [
    ["update_node", `{"projectId":${created},"nodeId":"m1","data":{"x":${deep}}}`],
    ["add_node", `{"projectId":${created},"type":"message","data":{"x":${deep}}}`],
  ] as const) {
    const r = await call(tool, args);
    expect(r.status).toBeLessThan(500);
    const result = JSON.parse(r.text).result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/nested deeper than 64 levels/);
  }
  const project = JSON.parse((await call("get_project", `{"projectId":${created}}`)).text).result.structuredContent;
  expect(project.data.sheets[0].nodes).toEqual([expect.objectContaining({ id: "m1", data: { messageText: "hi" } })]);
});

test("sessions are bounded over all users too: the least recently used goes beyond the cap", async () => {
  // A bot_manager PAT opens sessions for any messenger_id; each costs ~370 KB.
  const { McpSessions } = await import("../../src/mcp/sessions");
  const sessions = new McpSessions(t.ctx, 60_000, 5);
  const open = async (userId: number) => {
    const res = await sessions.handle(new Request("http://localhost/mcp", { method: "POST", headers: HEADERS, body: initialize() }), userId);
    expect(res.status).toBe(200);
    return res.headers.get("mcp-session-id")!;
  };
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    ids.push(await open(880_000 + i));
    await Bun.sleep(2); // distinct last-use times
  }
  expect(sessions.size).toBe(5);
  const list = (id: string, userId: number) =>
    sessions.handle(new Request("http://localhost/mcp", { method: "POST", headers: { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" }, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) }), userId);
  expect((await list(ids[0]!, 880_000)).status).toBe(404);
  expect((await list(ids[7]!, 880_007)).status).toBe(200);
  await sessions.closeAll();
});
