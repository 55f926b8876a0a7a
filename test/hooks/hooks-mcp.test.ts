// docs/mcp.md: list_hooks shows a project's webhook nodes and URL paths (never a secret; another
// user's project is refused), and preview_fire_hook runs a webhook node in a preview chat.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/mcp/server";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { hookScenario } from "./scenario";

const OWNER = 7201;
const STRANGER = 7202;
let t: TestApp;
let cookie: string;
const clients: Client[] = [];

/** An agent of `userId` on the same tools an MCP session gets (the HTTP door is test/mcp's). */
async function connect(userId: number): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ ctx: t.ctx, userId, sessionId: () => "hooks-test", clientName: () => "hooks-agent" }).connect(serverSide);
  const client = new Client({ name: "hooks-agent", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}
type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  cookie = await loginAs(t, OWNER);
  await loginAs(t, STRANGER);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t.ctx.preview.stopAll();
  t.cleanup();
});

test("list_hooks: the node, its path once a person made the secret, never the secret; another user's project is an error", async () => {
  const project = (await t.call("POST", "/api/projects", { cookie, json: { name: "Agent hooks", data: hookScenario } })).body.id;
  const agent = await connect(OWNER);
  const before = await call(agent, "list_hooks", { projectId: project });
  expect(before.structuredContent.items).toMatchObject([{ nodeId: "paid", path: null, userField: "customer.telegram_id" }]);
  const made = await t.call("POST", `/api/projects/${project}/hooks/paid/secret`, { cookie });
  const after = await call(agent, "list_hooks", { projectId: project });
  expect(after.structuredContent.items[0].path).toBe(made.body.path);
  expect(JSON.stringify(after)).not.toContain(made.body.secret);
  const stranger = await connect(STRANGER);
  expect((await call(stranger, "list_hooks", { projectId: project })).isError).toBe(true);
});

test("preview_fire_hook runs the node's flow in the preview chat", async () => {
  const project = (await t.call("POST", "/api/projects", { cookie, json: { name: "Agent preview hooks", data: hookScenario } })).body.id;
  const agent = await connect(OWNER);
  const started = await call(agent, "preview_start", { projectId: project });
  const previewId = started.structuredContent.id;
  const fired = await call(agent, "preview_fire_hook", { previewId, nodeId: "paid", body: { order: "M-1", total: 4 } });
  expect(fired.structuredContent).toMatchObject({ status: 200, body: '{"ok":true}' });
  let texts: string[] = [];
  for (let version = 0, i = 0; i < 20 && !texts.some((x) => x.startsWith("Order M-1")); i++) {
    const r = (await call(agent, "preview_transcript", { previewId, after: version, waitMs: 1000 })).structuredContent;
    version = r.version;
    texts = r.entries.map((e: { text?: string }) => e.text ?? "");
  }
  expect(texts).toContain("Order M-1 paid: 4, thanks ");
  expect((await call(agent, "preview_fire_hook", { previewId, nodeId: "thanks", body: {} })).isError).toBe(true);
}, 30_000);
