// Preview sessions beyond the questionnaire: unsaved documents, preview users (admin, second user,
// group), editable variables, limits (count, idle, memory), isolation from the project's data, and
// deliberately bad input.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { PreviewDriver } from "./support";

let t: TestApp;
let owner: string;
let stranger: string;
let projectId: number;

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = (greeting: string) => ({
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [
        node("start", "start", { command: "/start", messageText: `<b>${greeting}</b> {name}`, formatMode: "html", keyboardType: "inline", buttons: [{ id: "b1", text: "Next", action: "goto", target: "step2" }] }),
        node("step2", "message", { messageText: "Second step" }),
        node("secret", "command", { command: "/secret", messageText: "Admin area", adminOnly: true }),
      ],
      edges: [],
    },
  ],
});

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  owner = await loginAs(t, 601);
  stranger = await loginAs(t, 602);
  projectId = (await t.call("POST", "/api/projects", { cookie: owner, json: { name: "Saved" } })).body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

async function start(document?: unknown, cookie = owner) {
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie, json: document === undefined ? {} : { document } });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return new PreviewDriver(t, cookie, r.body.id);
}

const stop = (d: PreviewDriver) => t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });

test("an unsaved document runs; buttons, variables, preview users, group chat and an edited document all work", async () => {
  const d = await start(scenario("Hi"));
  await d.act({ type: "text", text: "/start" });
  const [hi] = await d.botSays((m) => m.includes("Hi "));
  expect(hi).toMatchObject({ node: "start", text: "Hi " });
  expect((hi as any).source).toEqual({ text: "<b>Hi</b> ", parseMode: "HTML" });
  const button = hi!.replyMarkup.inline_keyboard[0][0];
  expect(button.text).toBe("Next");

  await d.act({ type: "button", messageId: hi!.messageId, data: button.callback_data });
  expect((await d.botSays((m) => m.includes("Second step")))[0]!.node).toBe("step2");

  // variables: edited through the API, used by the next reply
  const put = await t.call("PUT", `/api/preview/${d.id}/variables`, { cookie: owner, json: { variables: { name: "Рыжик" } } });
  expect(put.status).toBe(200);
  expect(put.body.variables).toMatchObject({ name: "Рыжик" });
  await d.act({ type: "text", text: "/start" });
  await d.botSays((m) => m.includes("Hi Рыжик"));

  // an ordinary user's /secret gets nothing (updates of a chat run in order: /start answers after it)
  await d.act({ type: "text", text: "/secret" });
  await d.act({ type: "text", text: "/start" });
  expect(await d.botSays((m) => m.includes("Hi Рыжик"))).not.toContainEqual(expect.objectContaining({ text: "Admin area" }));
  const admin = await t.call("PUT", `/api/preview/${d.id}/actor`, { cookie: owner, json: { user: "admin", chat: "private" } });
  expect(admin.body.actor).toMatchObject({ user: "admin", chatId: admin.body.users.find((u: any) => u.admin).id });
  await d.act({ type: "text", text: "/secret" });
  expect((await d.botSays((m) => m.includes("Admin area")))[0]!.node).toBe("secret");

  // a group chat with a second user: its own chat id and transcript
  const group = await t.call("PUT", `/api/preview/${d.id}/actor`, { cookie: owner, json: { user: "second", chat: "group" } });
  expect(group.body.actor.chatId).toBe(group.body.groupChatId);
  await d.act({ type: "text", text: "/start" });
  await d.botSays((m) => m.some((x) => x.startsWith("Hi")));
  const groupChat = await d.transcript();
  expect(groupChat.chatId).toBeLessThan(0);
  expect(groupChat.entries.every((e: any) => e.chatId === groupChat.chatId)).toBe(true);

  // the editor's unsaved edit: the next reply uses it; the saved project is untouched
  const edited = await t.call("PUT", `/api/preview/${d.id}/document`, { cookie: owner, json: { document: scenario("Hello") } });
  expect(edited.status).toBe(200);
  expect(edited.body.status).toBe("running");
  await d.act({ type: "text", text: "/start" });
  await d.botSays((m) => m.some((x) => x.startsWith("Hello")));
  const saved = await t.call("GET", `/api/projects/${projectId}`, { cookie: owner });
  expect(JSON.stringify(saved.body.data)).not.toContain("Hello");

  // nothing reached the project's own database (its bot users, stats, tables)
  expect(existsSync(t.ctx.projectFiles.pathOf(projectId))).toBe(false);
  expect((await stop(d)).status).toBe(200);
}, 60_000);

test("bad input is refused with the one error shape; a stranger cannot see or drive someone's preview", async () => {
  const d = await start(scenario("Hi"));
  const bad: [string, unknown][] = [
    ["wrong type", { type: "text", text: 5 }],
    ["empty text", { type: "text", text: "" }],
    ["too long", { type: "text", text: "x".repeat(5000) }],
    ["unknown action", { type: "sticker", id: "x" }],
    ["no such message", { type: "button", messageId: 999, data: "x" }],
    ["bad base64", { type: "photo", data: "@@@" }],
    ["path in file name", { type: "document", fileName: "../../etc/passwd", data: "aGk=" }],
    ["latitude out of range", { type: "location", latitude: 91, longitude: 0 }],
    ["bad phone", { type: "contact", phone: "<script>" }],
  ];
  for (const [why, body] of bad) {
    const r = await t.call("POST", `/api/preview/${d.id}/actions`, { cookie: owner, json: body });
    expect({ why, status: r.status, error: r.body?.error }).toEqual({ why, status: 400, error: "VALIDATION_FAILED" });
  }
  const malformed = await t.call("POST", `/api/preview/${d.id}/actions`, { cookie: owner, body: "{not json", headers: { "content-type": "application/json" } });
  expect(malformed.status).toBe(400);
  expect((await t.call("PUT", `/api/preview/${d.id}/variables`, { cookie: owner, json: { variables: [1, 2] } })).status).toBe(400);
  expect((await t.call("PUT", `/api/preview/${d.id}/actor`, { cookie: owner, json: { user: "root", chat: "private" } })).status).toBe(400);
  expect((await t.call("GET", `/api/preview/${d.id}/transcript?after=-1`, { cookie: owner })).status).toBe(400);
  expect((await t.call("GET", `/api/preview/${d.id}/files/nope`, { cookie: owner })).status).toBe(404);
  expect((await t.call("GET", "/api/preview/..%2F..%2Fetc", { cookie: owner })).status).toBe(400);

  // an unusable document: 400 naming the problem, and nothing keeps running
  const before = t.ctx.preview.count;
  const unusable = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document: { sheets: "no" } } });
  expect(unusable.status).toBe(400);
  expect(unusable.body.error).toBe("VALIDATION_FAILED");
  expect(t.ctx.preview.count).toBe(before);
  const hostile = await t.call("PUT", `/api/preview/${d.id}/document`, { cookie: owner, json: { document: { sheets: [{ id: "s", nodes: [node("a", "message", {}), node("a", "message", {})] }] } } });
  expect(hostile.status).toBe(400);

  // strangers: 404 for the session, 404 for starting a preview of a project they cannot access
  for (const [method, path] of [["GET", ""], ["GET", "/transcript"], ["GET", "/variables"], ["DELETE", ""]] as const) {
    const r = await t.call(method, `/api/preview/${d.id}${path}`, { cookie: stranger });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe("NOT_FOUND");
  }
  expect((await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: stranger, json: {} })).status).toBe(404);
  expect((await t.call("GET", `/api/preview/${d.id}`)).status).toBe(401);
  expect((await t.call("GET", `/api/preview/${d.id}`, { cookie: owner })).body.status).toBe("running");
  await stop(d);
}, 60_000);

test("limits: a user's oldest preview ends when he starts one too many; idle previews end; logout ends them", async () => {
  const opts = t.ctx.preview.options;
  const first = await start(scenario("A"));
  const second = await start(scenario("B"));
  const third = await start(scenario("C"));
  expect(opts.perUser).toBe(2);
  expect((await t.call("GET", `/api/preview/${first.id}`, { cookie: owner })).status).toBe(404);
  expect((await t.call("GET", `/api/preview/${second.id}`, { cookie: owner })).status).toBe(200);

  // logout ends every preview of the user
  const other = await loginAs(t, 601);
  await t.call("POST", "/api/auth/logout", { cookie: owner });
  owner = other;
  expect(await t.ctx.preview.resourcesOf(second.id)).toBeNull();
  expect(await t.ctx.preview.resourcesOf(third.id)).toBeNull();

  const idleMs = opts.idleMs;
  opts.idleMs = 200;
  try {
    const idle = await start(scenario("Idle"));
    const res = (await t.ctx.preview.resourcesOf(idle.id))!;
    for (let i = 0; i < 100 && (await t.ctx.preview.resourcesOf(idle.id)); i++) await Bun.sleep(50);
    expect(await t.ctx.preview.resourcesOf(idle.id)).toBeNull();
    for (let i = 0; i < 40 && alive(res.pid!); i++) await Bun.sleep(50);
    expect(alive(res.pid!)).toBe(false);
  } finally {
    opts.idleMs = idleMs;
  }
}, 60_000);

test("a preview bot over its memory limit is ended and the preview says why", async () => {
  const limits = { ...t.ctx.preview.options.bot };
  t.ctx.preview.options.bot = { ...limits, maxRssBytes: 1024 * 1024 };
  try {
    const d = await start(scenario("Big"));
    let view: any;
    for (let i = 0; i < 100; i++) {
      view = (await t.call("GET", `/api/preview/${d.id}`, { cookie: owner })).body;
      if (view.status === "error") break;
      await Bun.sleep(50);
    }
    expect(view.status).toBe("error");
    expect(view.error).toContain("memory");
    await stop(d);
  } finally {
    t.ctx.preview.options.bot = limits;
  }
}, 30_000);

test("group moderation: the admin bans the second user by id in the preview group", async () => {
  const d = await start({
    sheets: [{ id: "s", name: "S", nodes: [node("ban-id", "ban_user", { command: "/banid", messageText: "banned by id", userIdSource: "manual", targetUserId: "{victim}" })], edges: [] }],
  });
  const view = (await t.call("PUT", `/api/preview/${d.id}/actor`, { cookie: owner, json: { user: "admin", chat: "group" } })).body;
  const second = view.users.find((u: any) => u.key === "second").id;
  expect((await t.call("PUT", `/api/preview/${d.id}/variables`, { cookie: owner, json: { variables: { victim: String(second) } } })).status).toBe(200);
  await d.act({ type: "text", text: "/banid" });
  const [reply] = await d.botSays((m) => m.includes("banned by id"));
  expect(reply!.node).toBe("ban-id");
  // the emulator's record of the group (internal: no route exposes members)
  expect((await t.ctx.preview.internalsOf(d.id, { chatId: view.groupChatId, userId: second })).memberStatus).toBe("kicked");
  await stop(d);
}, 60_000);

test("reactions of any emoji, leaving the group and becoming its admin reach the bot's triggers", async () => {
  const d = await start({
    sheets: [{ id: "s", name: "S", edges: [], nodes: [
      node("start", "start", { command: "/start", messageText: "hello" }),
      node("loved", "reaction_trigger", { emoji: ["🔥"], messageNodes: ["start"], autoTransitionTo: "lovedSaid" }),
      node("lovedSaid", "message", { messageText: "fire on {reacted_message_id}" }),
      node("moves", "member_trigger", { memberEvents: ["left", "promoted"], autoTransitionTo: "movedSaid" }),
      node("movedSaid", "message", { messageText: "member {member_event}" }),
    ] }],
  });
  await d.act({ type: "text", text: "/start" });
  const [hello] = await d.botSays((m) => m.includes("hello"));
  await d.act({ type: "reaction", messageId: hello!.messageId, emoji: "🔥" });
  await d.botSays((m) => m.includes(`fire on ${hello!.messageId}`));
  expect((await t.call("POST", `/api/preview/${d.id}/actions`, { cookie: owner, json: { type: "reaction", messageId: hello!.messageId, emoji: "fire" } })).status).toBe(400);
  // the group's transcript shows what the member trigger says there
  expect((await t.call("PUT", `/api/preview/${d.id}/actor`, { cookie: owner, json: { user: "user", chat: "group" } })).status).toBe(200);
  await d.act({ type: "promote" });
  await d.botSays((m) => m.includes("member promoted"));
  await d.act({ type: "leave_group" });
  await d.botSays((m) => m.includes("member left"));
  await stop(d);
}, 60_000);

test("project media reach the preview: the bot sends an uploaded picture and the chat serves its bytes", async () => {
  const png = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
  const form = new FormData();
  form.append("file", new File([png], "pixel.png", { type: "image/png" }));
  const media = await t.call("POST", `/api/projects/${projectId}/media`, { cookie: owner, body: form });
  expect(media.status).toBe(201);
  // a listening server, as in production: bots fetch platform media through PLATFORM_URL
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  t.ctx.state.localUrl = `http://127.0.0.1:${t.app.server!.port}`;
  const d = await start({
    sheets: [{ id: "s", name: "S", nodes: [node("start", "start", { command: "/start", messageText: "", imageUrl: media.body.url, mediaCaption: "a pixel" })], edges: [] }],
  });
  await d.act({ type: "text", text: "/start" });
  const [photo] = await d.botSays((m) => m.includes("a pixel"));
  expect(photo).toMatchObject({ node: "start", media: { kind: "photo" } });
  const file = await t.call("GET", `/api/preview/${d.id}/files/${(photo as any).media.fileId}`, { cookie: owner });
  expect(file.status).toBe(200);
  expect(file.headers.get("content-disposition")).toBe("inline");
  expect(file.headers.get("content-type")).toBe("image/png");
  const raw = await t.app.handle(new Request(`http://localhost/api/preview/${d.id}/files/${(photo as any).media.fileId}`, { headers: { cookie: owner } }));
  expect(new Uint8Array(await raw.arrayBuffer())).toEqual(png);
  await stop(d);
  await t.app.server!.stop(true);
  t.ctx.state.localUrl = null;
}, 60_000);

test("the preview API is documented in OpenAPI", async () => {
  const paths = Object.keys((await t.call("GET", "/api/openapi.json")).body.paths);
  for (const p of ["/api/projects/{id}/preview", "/api/preview/{sid}", "/api/preview/{sid}/transcript", "/api/preview/{sid}/actions", "/api/preview/{sid}/actor", "/api/preview/{sid}/document", "/api/preview/{sid}/variables", "/api/preview/{sid}/files/{fileId}"]) {
    expect(paths).toContain(p);
  }
});

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("an unsaved document over the scenario limits is refused before anything runs", async () => {
  const huge = { sheets: [{ id: "s", name: "S", nodes: Array.from({ length: 20_001 }, (_, i) => ({ id: `n${i}`, type: "message", data: {} })), edges: [] }] };
  const deep: Record<string, unknown> = {};
  let at = deep;
  for (let i = 0; i < 70; i++) at = (at.x = {}) as Record<string, unknown>;
  for (const [document, words] of [[huge, "at most 20,000"], [{ sheets: [], extra: deep }, "deeper than 64"]] as const) {
    const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(words);
  }
});
