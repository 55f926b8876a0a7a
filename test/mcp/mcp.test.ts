// The MCP server through the SDK's own client over real HTTP: an agent builds a 5-node bot with
// node-level tools, validates it, starts it on the fake messenger and a fake user gets its reply;
// versions record the agent; another user's project is invisible; bad arguments are tool errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { until } from "../support/process";

let t: TestApp;
let fake: FakeMessenger;
let base: string;
let cookie: string;
const OWNER = 7101;
const STRANGER = 7102;
const alice: FakeUser = { id: 8101, first_name: "Alice" };
const clients: Client[] = [];

async function connect(pat: string, name = "test-agent", query = ""): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${pat}` } } });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
const ok = async (client: Client, name: string, args: Record<string, unknown>) => {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  return r.structuredContent;
};
const errorText = (r: Result) => {
  expect(r.isError).toBe(true);
  return r.content.map((c) => c.text ?? "").join("\n");
};

beforeAll(async () => {
  fake = await startFakeMessenger();
  t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url } });
  await setUp(t);
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  base = `http://127.0.0.1:${t.app.server!.port}`;
  cookie = await loginAs(t, OWNER);
  await loginAs(t, STRANGER);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t.ctx.bots.shutdown();
  await t.app.server?.stop(true);
  await fake.stop();
  t.cleanup();
});

describe("MCP endpoint", () => {
  test("401 without a bearer PAT (a session cookie is not enough), 401 for a wrong one", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const none = await fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toBe("UNAUTHORIZED");
    const withCookie = await fetch(`${base}/mcp`, { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify(init) });
    expect(withCookie.status).toBe(401);
    const wrong = await fetch(`${base}/mcp`, { method: "POST", headers: { ...headers, authorization: "Bearer mcp_nope" }, body: JSON.stringify(init) });
    expect(wrong.status).toBe(401);
  });

  test("lists every tool with a description and an input schema, and the resources", async () => {
    const { client } = await connect(patFor(t, OWNER));
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    for (const n of ["list_projects", "get_project", "create_project", "update_project_data", "add_node", "update_node", "delete_node", "connect_nodes", "validate_project", "generate_code", "list_templates", "use_template", "list_tokens", "start_bot", "stop_bot", "bot_status", "read_logs", "list_bot_users", "bot_stats", "preview_start", "preview_send", "preview_transcript", "list_chats", "read_chat", "send_as_bot", "edit_bot_message", "set_takeover", "find_bot_users", "bot_user_facets", "tag_bot_user", "bot_analytics", "node_funnel", "create_campaign", "test_campaign", "start_campaign", "pause_campaign", "campaign_status", "list_tables", "read_rows", "insert_row", "update_row", "delete_row"]) {
      expect(names).toContain(n);
    }
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
    }
    const add = tools.find((x) => x.name === "add_node")!;
    expect(add.inputSchema.required).toEqual(expect.arrayContaining(["projectId", "type"]));
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(["botloom://docs/scenario", "botloom://nodes/catalogue"]);
    const textOf = async (uri: string) => {
      const c = (await client.readResource({ uri })).contents[0]!;
      return "text" in c ? c.text : "";
    };
    expect(await textOf("botloom://docs/scenario")).toContain("autoTransitionTo");
    const catalogue = JSON.parse(await textOf("botloom://nodes/catalogue"));
    expect(catalogue.types.map((x: { type: string }) => x.type)).toEqual(expect.arrayContaining(["command_trigger", "message", "http_request", "broadcast", "ban_user"]));
    expect(catalogue.types.find((x: { type: string }) => x.type === "message").runs).toBe(true);
    expect(catalogue.types.find((x: { type: string }) => x.type === "client_auth")).toMatchObject({ runs: false });
  });

  test("an agent builds a 5-node bot node by node, validates it, starts it, and a user gets the replies", async () => {
    const { client, transport } = await connect(patFor(t, OWNER), "Claude Test");
    const events: number[] = [];
    const off = t.ctx.events.on("projects-changed", (e) => e.kind === "updated" && events.push(e.projectId));
    const project = await ok(client, "create_project", { name: "Agent bot" });
    const projectId = project.id as number;
    await ok(client, "add_node", { projectId, id: "start", type: "command_trigger", data: { command: "/start", description: "Start", showInMenu: true } });
    await ok(client, "add_node", {
      projectId,
      id: "hello",
      type: "message",
      data: { messageText: "Hello {first_name}!", keyboardType: "inline", buttons: [{ id: "b_about", text: "About", action: "goto", target: "" }, { id: "b_help", text: "Help", action: "goto", target: "" }] },
    });
    await ok(client, "add_node", { projectId, id: "about", type: "message", data: { messageText: "Made by an agent." } });
    await ok(client, "add_node", { projectId, id: "help", type: "message", data: { messageText: "Press a button." } });
    const added = await ok(client, "add_node", { projectId, type: "command_trigger", data: { command: "/help", description: "Help", showInMenu: true } });
    expect(added.node.id).toBe("command_trigger_1");
    await ok(client, "connect_nodes", { projectId, sourceId: "start", targetId: "hello" });
    await ok(client, "connect_nodes", { projectId, sourceId: "hello", targetId: "about", via: "button", button: "About" });
    await ok(client, "connect_nodes", { projectId, sourceId: "hello", targetId: "help", via: "button", button: "b_help" });
    await ok(client, "connect_nodes", { projectId, sourceId: "command_trigger_1", targetId: "help" });
    await ok(client, "update_node", { projectId, nodeId: "about", data: { messageText: "Made by an agent, for {first_name}." } });

    const validation = await ok(client, "validate_project", { projectId });
    expect(validation.ok).toBe(true);
    expect(validation.errors).toEqual([]);
    expect(validation.warnings).toEqual([]);
    const stored = await ok(client, "get_project", { projectId });
    expect(stored.data.sheets[0].nodes).toHaveLength(5);
    expect(stored.data.sheets[0].nodes[1].data.buttons.map((b: { target: string }) => b.target)).toEqual(["about", "help"]);
    expect(stored).not.toHaveProperty("botToken");
    const code = await ok(client, "generate_code", { projectId });
    expect(code.code).toContain('from "grammy"');

    // Tried without a token: a preview bot on the built-in emulator.
    const preview = await ok(client, "preview_start", { projectId });
    await ok(client, "preview_send", { previewId: preview.id, action: { type: "text", text: "/start" } });
    const botTexts = async (want: number) => {
      let after = 0;
      for (let i = 0; i < 20; i++) {
        const chat = await ok(client, "preview_transcript", { previewId: preview.id, after, waitMs: 1000 });
        after = chat.version;
        const bot = chat.entries.filter((e: { from: string }) => e.from === "bot");
        if (bot.length >= want) return bot;
      }
      throw new Error("the preview bot did not answer");
    };
    const [greeting] = await botTexts(1);
    expect(greeting.text).toStartWith("Hello ");
    expect(greeting.node).toBe("hello");
    const aboutButton = greeting.replyMarkup.inline_keyboard.flat().find((b: { text: string }) => b.text === "About");
    await ok(client, "preview_send", { previewId: preview.id, action: { type: "button", messageId: greeting.messageId, data: aboutButton.callback_data } });
    const replies = await botTexts(2);
    expect(replies[1].text).toStartWith("Made by an agent, for ");
    expect((await ok(client, "preview_stop", { previewId: preview.id })).stopped).toBe(true);
    expect(errorText(await call(client, "preview_transcript", { previewId: preview.id }))).toMatch(/not found/i);

    // Every change is a version marked as the agent's, and reached /api/events listeners.
    const versions = await t.call("GET", `/api/projects/${projectId}/versions`, { cookie });
    const agentVersions = versions.body.filter((v: { agentEdit: unknown }) => v.agentEdit === true || v.agentEdit === 1);
    expect(agentVersions.length).toBe(10); // a preview is no change of the project
    expect(agentVersions[0].agentDisplayName).toBe("Claude Test");
    const row = t.ctx.db.$client.query("SELECT agent_session_id AS s FROM project_versions WHERE project_id = ? AND agent_edit = 1 LIMIT 1").get(projectId) as { s: string };
    expect(row.s).toBe(transport.sessionId!);
    expect(events.filter((id) => id === projectId).length).toBe(10);
    off();

    // A person adds the token; the agent starts the bot and a user talks to it.
    const bot = fake.addBot({ username: "agent_made_bot", firstName: "Agent" });
    const token = await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } });
    expect(token.status).toBe(200);
    const tokens = await ok(client, "list_tokens", { projectId });
    expect(tokens.items[0].id).toBe(token.body.id);
    expect(JSON.stringify(tokens)).not.toContain(bot.token);
    const started = await ok(client, "start_bot", { projectId });
    expect(started.status).toBe("running");
    fake.sendText(bot.token, alice, "/start");
    const [hello] = await fake.waitForSent(bot.token, alice.id, 1, 15_000);
    expect(hello.params.text).toBe("Hello Alice!");
    const row0 = hello.params.reply_markup.inline_keyboard.flat();
    expect(row0.map((b: { text: string }) => b.text)).toEqual(["About", "Help"]);
    fake.pressButton(bot.token, alice, row0[0].callback_data);
    const [about] = await fake.waitForSent(bot.token, alice.id, 1, 10_000);
    expect(about.params.text).toBe("Made by an agent, for Alice.");
    const status = await ok(client, "bot_status", { projectId });
    expect(status.status).toBe("running");
    const stats = await ok(client, "bot_stats", { projectId });
    expect(stats.total_users).toBeGreaterThanOrEqual(1);
    const users = await ok(client, "list_bot_users", { projectId });
    expect(users.items.map((u: { userId: string }) => String(u.userId))).toContain(String(alice.id));
    // docs/dialogs.md: the conversation is recorded by the running bot (a shared runner) and read,
    // answered and held through the dialogs tools.
    const tokenId = token.body.id;
    const chatId = String(alice.id);
    let chat: any;
    for (let i = 0; i < 100 && !(chat?.items?.length >= 4); i++) {
      if (i > 0) await Bun.sleep(50);
      // "Chat not found" until the bot's first batch is written (50 ms window)
      chat = (await call(client, "read_chat", { tokenId, chatId })).structuredContent;
    }
    expect(chat.items.map((m: any) => [m.direction, m.kind, m.text, m.nodeId])).toEqual([
      ["in", "text", "/start", null],
      ["out", "text", "Hello Alice!", "hello"],
      ["in", "callback", "About", null],
      ["out", "text", "Made by an agent, for Alice.", "about"],
    ]);
    const chats = await ok(client, "list_chats", { tokenId });
    expect(chats.items[0]).toMatchObject({ chatId, kind: "private", firstName: "Alice", takeover: false, blocked: false });
    const sent = await ok(client, "send_as_bot", { tokenId, chatId, text: "A person here", buttons: [[{ text: "Help", goto: "help" }]] });
    expect(sent).toMatchObject({ sentBy: "operator", text: "A person here" });
    const [operator] = await fake.waitForSent(bot.token, alice.id, 1, 10_000);
    expect(operator.params.text).toBe("A person here");
    expect(errorText(await call(client, "send_as_bot", { tokenId, chatId, text: "x", buttons: [[{ text: "x", url: "javascript:alert(1)" }]] }))).toMatch(/http/);
    expect((await ok(client, "set_takeover", { tokenId, chatId, on: true })).takeover).toBe(true);
    fake.sendText(bot.token, alice, "/start");
    await Bun.sleep(400);
    expect(fake.sent(bot.token, alice.id).length).toBe(3);
    const resumed = await ok(client, "set_takeover", { tokenId, chatId, on: false, resumeAt: "about" });
    expect(resumed).toEqual({ chatId, takeover: false, resumed: true });
    const [again] = await fake.waitForSent(bot.token, alice.id, 1, 10_000);
    expect(again.params.text).toBe("Made by an agent, for Alice.");
    expect((await ok(client, "tag_bot_user", { tokenId, userId: chatId, tags: ["vip"] })).tags).toEqual(["vip"]);
    expect((await ok(client, "find_bot_users", { tokenId, tag: "vip" })).items.map((u: any) => u.userId)).toEqual([chatId]);
    // docs/analytics.md: the same run, counted (the batch that holds the resumed walk may still be on its way)
    let funnel: any;
    for (let i = 0; i < 100 && !(funnel?.edges?.some((e: any) => e.to === "about" && e.users === 1) && funnel.items.find((n: any) => n.nodeId === "about")?.visits === 2); i++) {
      if (i > 0) await Bun.sleep(50);
      funnel = await ok(client, "node_funnel", { tokenId });
    }
    expect(funnel.items.find((n: any) => n.nodeId === "hello")).toMatchObject({ users: 1, visits: 1 });
    expect(funnel.items.find((n: any) => n.nodeId === "about")).toMatchObject({ users: 1, visits: 2 });
    expect(funnel.edges).toContainEqual({ from: "hello", to: "about", users: 1 });
    const figures = await ok(client, "bot_analytics", { tokenId, bucket: "hour", from: new Date().toISOString().slice(0, 10) });
    expect(figures.series.length).toBe(24);
    expect(figures.totals).toMatchObject({ users: 1, activeUsers: 1, newUsers: 1 });
    expect(figures.commands).toEqual([{ command: "start", count: 2 }]);
    expect(errorText(await call(client, "bot_analytics", { tokenId, from: "2026-02-30" }))).toMatch(/from must be a date/);
    // what an audience can name: the "vip" tag with its one reachable user
    expect(await ok(client, "bot_user_facets", { tokenId })).toMatchObject({ users: 1, tags: [{ value: "vip", users: 1 }] });
    // a true rolling 24 hours (docs/analytics.md "Range rules")
    const rolling = await ok(client, "bot_analytics", { tokenId, hours: 24 });
    expect(rolling.series.length).toBe(24);
    expect(rolling.range).toMatchObject({ hours: 24, bucket: "hour" });
    expect(rolling.totals).toMatchObject({ newUsers: 1 });
    expect((await ok(client, "node_funnel", { tokenId, hours: 24 })).range).toMatchObject({ hours: 24 });
    // a campaign to the "vip" tag (docs/campaigns.md): a test to Alice, the start, the status; its
    // go-to-node button runs that node in the running bot
    const campaign = await ok(client, "create_campaign", { tokenId, name: "VIP", message: { text: "News for {first_name}", buttons: [[{ text: "About", goto: "about" }]] }, audience: { tags: ["vip"] } });
    expect(campaign).toMatchObject({ status: "draft", currentAudienceSize: 1 });
    expect(await ok(client, "test_campaign", { tokenId, campaignId: campaign.id, userIds: [chatId] })).toEqual({ sent: 1, failed: 0 });
    expect((await fake.waitForSent(bot.token, alice.id, 1, 10_000))[0]!.params.text).toBe("News for Alice");
    expect((await ok(client, "start_campaign", { tokenId, campaignId: campaign.id })).status).toBe("sending");
    const [news] = await fake.waitForSent(bot.token, alice.id, 1, 10_000);
    expect(news.params.reply_markup).toMatchObject({ inline_keyboard: [[{ text: "About", callback_data: "o:about" }]] });
    await until(async () => (await ok(client, "campaign_status", { tokenId, campaignId: campaign.id })).status === "done", "the campaign done");
    expect((await ok(client, "campaign_status", { tokenId, campaignId: campaign.id })).counts).toEqual({ pending: 0, sent: 1, failed: 0, blocked: 0, deactivated: 0, unknown: 0 });
    fake.pressButton(bot.token, alice, "o:about", news.messageId);
    expect((await fake.waitForSent(bot.token, alice.id, 1, 10_000)).at(-1)!.params.text).toBe("Made by an agent, for Alice.");
    expect(errorText(await call(client, "pause_campaign", { tokenId, campaignId: campaign.id }))).toMatch(/being sent/);
    expect(errorText(await call(client, "create_campaign", { tokenId, name: "Past", message: { text: "x" }, scheduledAt: "2001-01-01T00:00:00Z" }))).toMatch(/past/);
    expect(errorText(await call(client, "create_campaign", { tokenId, name: "Bad", message: { text: "x" }, audience: { filter: "sometimes" } }))).toMatch(/filter/);
    // an album and a time zone go through the same checks as over HTTP
    expect(errorText(await call(client, "create_campaign", { tokenId, name: "Album", message: { text: "x", mediaIds: [1] } }))).toMatch(/2\.\.10/);
    expect(errorText(await call(client, "create_campaign", { tokenId, name: "Album", message: { text: "x", mediaIds: [999_998, 999_999] } }))).toMatch(/not in the project/);
    expect(errorText(await call(client, "create_campaign", { tokenId, name: "Zone", message: { text: "x" }, scheduledAt: "2099-01-01T10:00", timeZone: "Mars/Olympus" }))).toMatch(/timeZone/);
    expect(await ok(client, "create_campaign", { tokenId, name: "Zone", message: { text: "x" }, scheduledAt: "2099-01-01T10:00", timeZone: "Europe/Moscow" })).toMatchObject({ scheduledAt: "2099-01-01T07:00:00.000Z", timeZone: "Europe/Moscow" });
    const logs = await ok(client, "read_logs", { projectId, limit: 50 });
    expect(Array.isArray(logs.items)).toBe(true);
    const stopped = await ok(client, "stop_bot", { projectId });
    expect(stopped.status).toBe("stopped");

    // delete_node clears what pointed at it.
    const deleted = await ok(client, "delete_node", { projectId, nodeId: "help" });
    expect(deleted.clearedReferences.sort()).toEqual(["command_trigger_1.autoTransitionTo", "hello.buttons[b_help]"]);
  }, 60_000);

  test("another user's project is invisible and untouchable; sessions are bound to their user", async () => {
    const owner = await connect(patFor(t, OWNER));
    const mine = await ok(owner.client, "create_project", { name: "Private" });
    const stranger = await connect(patFor(t, STRANGER));
    const list = await ok(stranger.client, "list_projects", {});
    expect(list.items.map((p: { id: number }) => p.id)).not.toContain(mine.id);
    for (const [tool, extra] of [
      ["get_project", {}],
      ["update_project_data", { data: { sheets: [] } }],
      ["add_node", { type: "message" }],
      ["delete_node", { nodeId: "x" }],
      ["validate_project", {}],
      ["generate_code", {}],
      ["list_tokens", {}],
      ["start_bot", {}],
      ["read_logs", {}],
      ["preview_start", {}],
    ] as const) {
      const text = errorText(await call(stranger.client, tool, { projectId: mine.id, ...extra }));
      expect(text).toMatch(/not found|no access|forbidden|access/i);
    }
    const after = await ok(owner.client, "get_project", { projectId: mine.id });
    expect(after.data.sheets[0].nodes).toEqual([]);
    // The owner's session id with the stranger's PAT: like an unknown session.
    const hijack = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${patFor(t, STRANGER)}`, "mcp-session-id": owner.transport.sessionId!, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(hijack.status).toBe(404);
  });

  test("bad arguments and bad edits are tool errors in words, never stack traces", async () => {
    const { client } = await connect(patFor(t, OWNER));
    const p = await ok(client, "create_project", { name: "Errors" });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["get_project", { projectId: "abc" }, /projectId/],
      ["add_node", { projectId: p.id }, /type/],
      ["connect_nodes", { projectId: p.id, sourceId: "nope", targetId: "also-nope" }, /No node with id "nope"/],
      ["connect_nodes", { projectId: p.id, sourceId: "a", targetId: "a", via: "sideways" }, /via/],
      ["update_project_data", { projectId: p.id, data: { sheets: "no" } }, /sheets/],
      ["update_node", { projectId: p.id, nodeId: "ghost", data: {} }, /No node with id "ghost"/],
      ["start_bot", { projectId: p.id }, /no bot token/],
      ["use_template", { templateId: 999999 }, /not found/i],
    ];
    for (const [tool, a, pattern] of cases) {
      const text = errorText(await call(client, tool, a));
      expect(text).toMatch(pattern);
      expect(text).not.toMatch(/\bat .*\.ts:\d+|Error:\s+at /);
    }
    await ok(client, "add_node", { projectId: p.id, id: "dup", type: "message" });
    expect(errorText(await call(client, "add_node", { projectId: p.id, id: "dup", type: "message" }))).toContain('A node with id "dup" already exists');
    expect(errorText(await call(client, "connect_nodes", { projectId: p.id, sourceId: "dup", targetId: "dup", via: "button", button: "Go" }))).toContain('has no button "Go"');
  });

  test("malformed calls (arguments not an object, null, unknown tool, no name, nested wrong types) are tool errors in words naming what was expected", async () => {
    // Raw JSON-RPC: the SDK's client refuses to send most of these.
    const { transport } = await connect(patFor(t, OWNER));
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${patFor(t, OWNER)}`, "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-06-18" };
    const rawCall = async (params: unknown) => {
      const res = await fetch(`${base}/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 11, method: "tools/call", params }) });
      expect(res.status).toBe(200);
      const msg = await res.json();
      expect(msg.error).toBeUndefined();
      expect(msg.result.isError).toBe(true);
      return msg.result.content[0].text as string;
    };
    const getProject = "Invalid arguments for tool get_project: expected an object of named arguments (required: projectId)";
    expect(await rawCall({ name: "get_project", arguments: [1, 2] })).toBe(`${getProject}, received an array`);
    expect(await rawCall({ name: "get_project", arguments: "projectId=1" })).toBe(`${getProject}, received a string`);
    expect(await rawCall({ name: "get_project", arguments: null })).toBe(`${getProject}, received null`);
    expect(await rawCall({ name: "get_project", arguments: 7 })).toBe(`${getProject}, received a number`);
    expect(await rawCall({ name: "read_logs", arguments: [] })).toBe("Invalid arguments for tool read_logs: expected an object of named arguments (required: projectId; optional: tokenId, limit), received an array");
    expect(await rawCall({ name: "get_project" })).toBe("Invalid arguments for tool get_project:\n- projectId: missing (expected number)");
    expect(await rawCall({ name: "get_project", arguments: { projectId: "abc" } })).toBe("Invalid arguments for tool get_project:\n- projectId: expected number, received string");
    expect(await rawCall({ name: "add_node", arguments: { projectId: 1, type: 5, position: { x: "a" } } })).toBe(
      "Invalid arguments for tool add_node:\n- type: expected string, received number\n- position.x: expected number, received string\n- position.y: missing (expected number)",
    );
    expect(await rawCall({ name: "rm_rf", arguments: {} })).toBe('Unknown tool "rm_rf": tools/list names the tools');
    expect(await rawCall({ arguments: {} })).toBe("A tool call needs params.name, the name of a tool (tools/list names them); received nothing");
    expect(await rawCall({ name: 5, arguments: {} })).toBe("A tool call needs params.name, the name of a tool (tools/list names them); received a number");
  });

  test("start_bot refusals say why, as the HTTP routes do: an unusable scenario, already running, webhook without a base URL", async () => {
    const { client } = await connect(patFor(t, OWNER));
    const p = await ok(client, "create_project", { name: "Refusals" });
    const addToken = async () => {
      const bot = fake.addBot({ username: `refusal_${Math.random().toString(36).slice(2, 8)}_bot`, firstName: "R" });
      const res = await t.call("POST", `/api/bot/projects/${p.id}/tokens`, { cookie, json: { token: bot.token } });
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    const tokenId = await addToken();

    // A document stored before today's rules (two nodes share an id): the start names the problem.
    const broken = { sheets: [{ id: "s", nodes: [{ id: "x", type: "message", data: {} }, { id: "x", type: "message", data: {} }] }] };
    t.ctx.db.$client.query("UPDATE projects SET data = ? WHERE id = ?").run(JSON.stringify(broken), p.id);
    const invalid = errorText(await call(client, "start_bot", { projectId: p.id, tokenId }));
    expect(invalid).toContain('The scenario cannot run: Duplicate node id "x"');
    expect(invalid).toContain('\n- Duplicate node id "x"');
    expect(invalid).not.toContain("Internal error");

    await ok(client, "update_project_data", { projectId: p.id, data: { sheets: [{ id: "s", nodes: [{ id: "go", type: "command_trigger", data: { command: "/go" } }] }] } });
    expect((await ok(client, "start_bot", { projectId: p.id, tokenId })).status).toBe("running");
    expect(errorText(await call(client, "start_bot", { projectId: p.id, tokenId }))).toBe("This bot is already running");
    await ok(client, "stop_bot", { projectId: p.id, tokenId });

    const hooked = await addToken();
    expect((await t.call("PATCH", `/api/bot/tokens/${hooked}`, { cookie, json: { launchMode: "webhook" } })).status).toBe(200);
    expect(errorText(await call(client, "start_bot", { projectId: p.id, tokenId: hooked }))).toContain("Webhook mode needs WEBHOOK_BASE_URL");
    expect(t.ctx.bots.state(hooked).status).not.toBe("running");
  }, 60_000);

  test("a bot_manager PAT acts for the messenger_id its client names", async () => {
    const manager = patFor(t, 7199, ["bot_manager"]);
    const { client } = await connect(manager, "manager", `?messenger_id=${OWNER}`);
    const created = await ok(client, "create_project", { name: "For the owner" });
    expect(t.ctx.projects.getFull(created.id, OWNER).ownerId).toBe(OWNER);
    const plain = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${manager}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(plain.status).toBe(400);
  });
});
