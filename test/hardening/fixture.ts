// Shared set-up of the hardening suite: one app (in-memory database, fake messenger, a bot runtime
// that only records), the four kinds of callers, a fixture that gives every kind of resource an id,
// and the catalogue of every route of the product with its path template.
import { expect } from "bun:test";
import { Database } from "bun:sqlite";
import { scenarioTablesPath } from "../../src/db/project-db";
import { join } from "node:path";
import { projectBotChats, projectBotUsers as botUsers } from "../../src/db/project-schema";
import type { App } from "../../src/app";
import { FakeBots } from "../bot-api/support";
import { adminLogin, createTestApp, loginAs, patFor, setUp, type CallOptions, type CallResult, type TestApp } from "../support/app";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";

export const OWNER = 701;
export const COLLAB = 702;
export const STRANGER = 703;
export const MANAGER = 704; // holds the bot_manager PAT
export const ENCRYPTION_KEY = "hardening-storage-key-0123456789abcdef";
export const S3_KEY_ID = "AKIAHARDENINGKEYID01";
export const S3_SECRET = "hardening-object-store-secret-key-9f8e7d";

/** A real 1×1 PNG (media uploads sniff the content). */
export const PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"),
);

export interface Recorded {
  method: string;
  path: string;
  status: number;
  text: string;
  /** every response header but Set-Cookie (the one place a session id belongs) */
  headers: string;
}

export interface Hardening {
  t: TestApp;
  fake: FakeMessenger;
  bots: FakeBots;
  owner: string;
  collab: string;
  stranger: string;
  admin: string;
  ownerPat: string;
  managerPat: string;
  /** every response seen through `call` (secret scans read them) */
  responses: Recorded[];
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export async function hardening(opts: { env?: Record<string, string> } = {}): Promise<Hardening> {
  const fake = await startFakeMessenger();
  const bots = new FakeBots();
  // Fixtures name one backup: it may not be pruned by the archives the matrix's POST calls make.
  const t = createTestApp({ env: { MESSENGER_API_ROOT: fake.url, STORAGE_ENCRYPTION_KEY: ENCRYPTION_KEY, BACKUP_KEEP: "1000", ...opts.env }, bots });
  // The fixture's owner is also the platform operator (docs/api.md#storage-configs):
  // storage configs are managed by operators only, and the matrix's owner column stands for one.
  await setUp(t, { operators: [OWNER] });
  const responses: Recorded[] = [];
  const h: Hardening = {
    t,
    fake,
    bots,
    owner: await loginAs(t, OWNER),
    collab: await loginAs(t, COLLAB),
    stranger: await loginAs(t, STRANGER),
    admin: await adminLogin(t),
    ownerPat: patFor(t, OWNER),
    managerPat: patFor(t, MANAGER, ["bot_manager"]),
    responses,
    async call(method, path, o) {
      const r = await t.call(method, path, o);
      const headers = [...r.headers].filter(([k]) => k !== "set-cookie").map(([k, v]) => `${k}: ${v}`).join("\n");
      responses.push({ method, path, status: r.status, text: r.text, headers });
      return r;
    },
    async close() {
      await t.ctx.preview.stopAll();
      t.cleanup();
      await fake.stop();
    },
  };
  return h;
}

export interface Ids {
  project: number;
  token: number;
  botToken: string;
  env: number;
  envSecret: string;
  botUser: string;
  /** the bot user's private chat (docs/dialogs.md) */
  chat: string;
  /** an operator's message in that chat */
  chatMessage: number;
  /** a draft campaign of the token for the bot user (docs/campaigns.md) */
  campaign: number;
  /** an operator's message with a media file in that chat */
  chatMediaMessage: number;
  collab: number;
  media: number;
  version: number;
  template: number;
  /** a public template of OWNER */
  publicTemplate: number;
  /** the media file's path under /uploads/ */
  upload: string;
  storage: string;
  /** the test app's folder (a storage root must lie inside it: STORAGE_LOCAL_BASE) */
  dir: string;
  pat: number;
  adminPat: number;
  user: number;
  /** a backup archive's name in DATA_DIR/backups */
  backup: string;
  /** OWNER's preview session of a fixture project (one per suite, started again after a stop) */
  preview: string;
  /** a file the preview user sent in that session */
  previewFile: string;
  /** the inbound webhook of the project's webhook_trigger node "hookNode" (docs/hooks.md) */
  hook: string;
  hookNode: string;
  /** a project of OWNER (COLLAB invited) in OWNER's trash (docs/api.md "Trash") */
  trashed: number;
  /** a scenario table of the project (docs/tables.md) and one of its rows */
  table: string;
  tableRow: number;
}

let serial = 0;

/** One backup per app serves every fixture: an archive per fixture made the corpus seconds slower. */
const backups = new WeakMap<object, Promise<string>>();
function sharedBackup(t: { ctx: { backups: { create(): Promise<{ name: string }> } } }): Promise<string> {
  let b = backups.get(t);
  if (!b) {
    b = t.ctx.backups.create().then((x) => x.name);
    backups.set(t, b);
  }
  return b;
}

/** One of everything, owned by OWNER, with COLLAB invited. Made through the API where it matters. */
export async function makeFixture(h: Hardening): Promise<Ids> {
  const n = ++serial;
  const { t } = h;
  const project = t.ctx.projects.create(OWNER, { name: `Fixture ${n}`, data: { sheets: [{ id: "s", name: "S", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { messageText: "hi" } }, { id: "hookNode", type: "webhook_trigger", position: { x: 0, y: 0 }, data: { autoTransitionTo: "start" } }], edges: [] }] } }).id;
  expect((await h.call("POST", `/api/bot/projects/${project}/collaborators`, { cookie: h.owner, json: { user_id: COLLAB } })).status).toBe(200);
  const bot = h.fake.addBot({ firstName: `Fixture${n}` });
  const token = await h.call("POST", `/api/bot/projects/${project}/tokens`, { cookie: h.owner, json: { token: bot.token } });
  expect(token.status).toBe(200);
  const envSecret = `fixture-secret-${n}-5a4b3c2d1e`;
  const env = await h.call("POST", `/api/bot/tokens/${token.body.id}/env`, { cookie: h.owner, json: { key: "API_KEY", value: envSecret, isSecret: 1 } });
  expect(env.status).toBe(201);
  const botUser = String(880_000 + n);
  t.ctx.projectFiles.open(project).insert(botUsers).values({ tokenId: token.body.id, userId: botUser, firstName: "Bot", username: "botuser", firstSeenAt: new Date().toISOString(), lastSeenAt: new Date().toISOString(), interactionCount: 1 }).run();
  // the bot user wrote to the bot (the fake messenger knows the chat) and an operator answered
  h.fake.sendText(bot.token, { id: Number(botUser), first_name: "Bot" } as never, "hi");
  t.ctx.projectFiles.open(project).insert(projectBotChats).values({ tokenId: token.body.id, chatId: botUser, kind: "private", userId: botUser, firstName: "Bot", lastMessageAt: new Date().toISOString() }).run();
  const chatMessage = await h.call("POST", `/api/bot/tokens/${token.body.id}/chats/${botUser}/messages`, { cookie: h.owner, json: { text: "hello" } });
  expect(chatMessage.status).toBe(201);
  const campaign = await h.call("POST", `/api/bot/tokens/${token.body.id}/campaigns`, { cookie: h.owner, json: { name: "News", message: { text: "News for {first_name}" }, audience: { userIds: [botUser] } } });
  expect(campaign.status).toBe(201);
  const fd = new FormData();
  fd.append("file", new File([PNG], "pixel.png", { type: "image/png" }));
  const media = await h.call("POST", `/api/projects/${project}/media`, { cookie: h.owner, body: fd });
  expect(media.status).toBe(201);
  const chatMediaMessage = await h.call("POST", `/api/bot/tokens/${token.body.id}/chats/${botUser}/messages`, { cookie: h.owner, json: { text: "a picture", mediaId: media.body.id } });
  expect(chatMediaMessage.status).toBe(201);
  expect((await h.call("PUT", `/api/projects/${project}`, { cookie: h.owner, json: { description: `v${n}` } })).status).toBe(200);
  const versions = await h.call("GET", `/api/projects/${project}/versions`, { cookie: h.owner });
  const template = await h.call("POST", "/api/templates", { cookie: h.owner, json: { name: `Tpl ${n}`, data: { sheets: [] }, isPublic: 0 } });
  expect(template.status).toBe(201);
  const publicTemplate = await h.call("POST", "/api/templates", { cookie: h.owner, json: { name: `Public ${n}`, data: { sheets: [] }, isPublic: 1 } });
  expect(publicTemplate.status).toBe(201);
  const storage = await h.call("POST", "/api/storage-configs", { cookie: h.owner, json: { name: `Store ${n}`, backend: "local", config: { rootPath: join(t.dir, `store-${n}`) } } });
  expect(storage.status).toBe(201);
  const preview = await sharedPreview(h, project);
  const hook = await h.call("POST", `/api/projects/${project}/hooks/hookNode/secret`, { cookie: h.owner });
  expect(hook.status).toBe(201);
  const pat = t.ctx.auth.createPat(OWNER, `fixture ${n}`, []);
  const adminPat = t.ctx.auth.createPat(OWNER, `admin-made ${n}`, []);
  const backup = await sharedBackup(t);
  const tableRow = scenarioTable(t.ctx.projectFiles.pathOf(project));
  const trashed = t.ctx.projects.create(OWNER, { name: `Trashed ${n}` }).id;
  expect((await h.call("POST", `/api/bot/projects/${trashed}/collaborators`, { cookie: h.owner, json: { user_id: COLLAB } })).status).toBe(200);
  expect((await h.call("DELETE", `/api/projects/${trashed}`, { cookie: h.owner })).status).toBe(200);
  return {
    trashed,
    table: "orders",
    tableRow,
    project,
    token: token.body.id,
    botToken: bot.token,
    env: env.body.id,
    envSecret,
    botUser,
    chat: botUser,
    chatMessage: chatMessage.body.id,
    campaign: campaign.body.id,
    chatMediaMessage: chatMediaMessage.body.id,
    collab: COLLAB,
    media: media.body.id,
    version: versions.body[0].id,
    template: template.body.id,
    publicTemplate: publicTemplate.body.id,
    upload: String(media.body.url).replace(/^\/uploads\//, ""),
    storage: storage.body.id,
    dir: t.dir,
    pat: pat.id,
    adminPat: adminPat.id,
    user: OWNER,
    backup,
    hook: hook.body.hookId,
    hookNode: "hookNode",
    ...preview,
  };
}

/** The table a bot_table node would have made, with one row: its id. */
function scenarioTable(botFile: string): number {
  const d = new Database(scenarioTablesPath(botFile), { create: true });
  d.exec("PRAGMA journal_mode = WAL");
  d.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL DEFAULT (datetime('now')), name)");
  const id = Number(d.query("INSERT INTO orders (name) VALUES ('first')").run().lastInsertRowid);
  d.close();
  return id;
}

const previews = new WeakMap<Hardening, { preview: string; previewFile: string }>();

/** `ids` with a running preview: logging out (a matrix row) ends the owner's previews. */
export async function withLivePreview(h: Hardening, ids: Ids): Promise<Ids> {
  return { ...ids, ...(await sharedPreview(h, ids.project)) };
}

/** Preview sessions run a bot process each: the suite shares one and starts it again when a test stopped it. */
async function sharedPreview(h: Hardening, project: number) {
  const known = previews.get(h);
  if (known && (await h.t.ctx.preview.resourcesOf(known.preview))) return known;
  h.t.ctx.preview.options.perUser = 1000; // the matrix starts previews of its own beside the shared one
  const created = await h.call("POST", `/api/projects/${project}/preview`, { cookie: h.owner, json: {} });
  expect(created.status).toBe(201);
  const sent = await h.call("POST", `/api/preview/${created.body.id}/actions`, { cookie: h.owner, json: { type: "photo" } });
  expect(sent.status).toBe(200);
  const ids = { preview: String(created.body.id), previewFile: String(sent.body.entry.media.fileId) };
  previews.set(h, ids);
  return ids;
}

/**
 * Every route of the product: method, path template, and who may call it ("public", "user",
 * "admin"). Placeholders name the fixture id they take. `coverage()` compares this list with the
 * app's own routes, so a new route cannot slip past the suite.
 */
/** "operator": a signed-in user the admin named in platform.operatorIds (the fixture's owner). */
export type Level = "public" | "user" | "operator" | "admin";

export const ROUTES: { method: string; path: string; level: Level }[] = [
  // health and auth
  { method: "GET", path: "/api/health", level: "public" },
  { method: "HEAD", path: "/api/health", level: "public" },
  { method: "GET", path: "/api/auth/config", level: "public" },
  { method: "POST", path: "/api/auth/dev-login", level: "public" },
  { method: "POST", path: "/api/auth/messenger-login", level: "public" },
  { method: "POST", path: "/api/auth/login-state", level: "public" },
  { method: "GET", path: "/api/auth/me", level: "user" },
  { method: "POST", path: "/api/auth/logout", level: "public" },
  { method: "GET", path: "/api/auth/pats", level: "user" },
  { method: "POST", path: "/api/auth/pats", level: "user" },
  { method: "DELETE", path: "/api/auth/pats/{pat}", level: "user" },
  // projects
  { method: "GET", path: "/api/projects", level: "user" },
  { method: "GET", path: "/api/projects/list", level: "user" },
  { method: "POST", path: "/api/projects", level: "user" },
  { method: "PUT", path: "/api/projects/reorder", level: "user" },
  { method: "GET", path: "/api/projects/trash", level: "user" },
  { method: "POST", path: "/api/projects/trash/{trashed}/restore", level: "user" },
  { method: "DELETE", path: "/api/projects/trash/{trashed}", level: "user" },
  { method: "POST", path: "/api/projects/{project}/leave", level: "user" },
  { method: "GET", path: "/api/projects/{project}", level: "user" },
  { method: "PUT", path: "/api/projects/{project}", level: "user" },
  { method: "DELETE", path: "/api/projects/{project}", level: "user" },
  { method: "GET", path: "/api/projects/{project}/collaborators", level: "user" },
  { method: "GET", path: "/api/projects/{project}/admin-ids", level: "user" },
  { method: "PUT", path: "/api/projects/{project}/admin-ids", level: "user" },
  { method: "POST", path: "/api/projects/{project}/admin-ids/remove", level: "user" },
  { method: "POST", path: "/api/projects/{project}/archive", level: "user" },
  { method: "POST", path: "/api/projects/{project}/unarchive", level: "user" },
  { method: "POST", path: "/api/projects/{project}/duplicate", level: "user" },
  { method: "POST", path: "/api/projects/{project}/export", level: "user" },
  { method: "POST", path: "/api/projects/{project}/generate", level: "user" },
  { method: "POST", path: "/api/projects/{project}/http-test", level: "user" },
  { method: "GET", path: "/api/projects/{project}/launches/all", level: "user" },
  { method: "GET", path: "/api/projects/{project}/logs/all", level: "user" },
  { method: "GET", path: "/api/projects/{project}/versions", level: "user" },
  { method: "GET", path: "/api/projects/{project}/versions/{version}", level: "user" },
  { method: "POST", path: "/api/projects/{project}/versions/{version}/restore", level: "user" },
  { method: "POST", path: "/api/projects/{project}/bot/start", level: "user" },
  { method: "POST", path: "/api/projects/{project}/bot/stop", level: "user" },
  { method: "POST", path: "/api/projects/{project}/bot/restart", level: "user" },
  // media and uploads
  { method: "POST", path: "/api/projects/{project}/media", level: "user" },
  { method: "GET", path: "/api/projects/{project}/media", level: "user" },
  { method: "DELETE", path: "/api/projects/{project}/media/{media}", level: "user" },
  // scenario tables (docs/tables.md)
  { method: "GET", path: "/api/projects/{project}/tables", level: "user" },
  { method: "GET", path: "/api/projects/{project}/tables/{table}/rows", level: "user" },
  { method: "POST", path: "/api/projects/{project}/tables/{table}/rows", level: "user" },
  { method: "PATCH", path: "/api/projects/{project}/tables/{table}/rows/{tableRow}", level: "user" },
  { method: "DELETE", path: "/api/projects/{project}/tables/{table}/rows/{tableRow}", level: "user" },
  { method: "GET", path: "/api/projects/{project}/tables/{table}/export", level: "user" },
  { method: "POST", path: "/api/projects/{project}/tables/{table}/import", level: "user" },
  { method: "GET", path: "/uploads/{upload}", level: "public" },
  { method: "HEAD", path: "/uploads/{upload}", level: "public" },
  // live events (WebSocket upgrade; a plain GET is a 400)
  { method: "GET", path: "/api/events", level: "user" },
  // bot API: projects and collaborators
  { method: "GET", path: "/api/bot/projects", level: "user" },
  { method: "POST", path: "/api/bot/projects", level: "user" },
  { method: "POST", path: "/api/bot/projects/import", level: "user" },
  { method: "GET", path: "/api/bot/projects/{project}", level: "user" },
  { method: "PATCH", path: "/api/bot/projects/{project}", level: "user" },
  { method: "DELETE", path: "/api/bot/projects/{project}", level: "user" },
  { method: "PUT", path: "/api/bot/projects/{project}/data", level: "user" },
  { method: "GET", path: "/api/bot/projects/{project}/export", level: "user" },
  { method: "GET", path: "/api/bot/projects/{project}/collaborators", level: "user" },
  { method: "POST", path: "/api/bot/projects/{project}/collaborators", level: "user" },
  { method: "DELETE", path: "/api/bot/projects/{project}/collaborators/{collab}", level: "user" },
  // bot API: tokens, lifecycle, env, bot users
  { method: "GET", path: "/api/bot/projects/{project}/tokens", level: "user" },
  { method: "POST", path: "/api/bot/projects/{project}/tokens", level: "user" },
  { method: "PATCH", path: "/api/bot/tokens/{token}", level: "user" },
  { method: "DELETE", path: "/api/bot/tokens/{token}", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/photo", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/stats", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/stats/daily", level: "user" },
  { method: "PUT", path: "/api/bot/tokens/{token}/profile", level: "user" },
  { method: "PUT", path: "/api/bot/tokens/{token}/profile/photo", level: "user" },
  { method: "DELETE", path: "/api/bot/tokens/{token}/profile/photo", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/status", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/start", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/stop", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/restart", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/env", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/env", level: "user" },
  { method: "PATCH", path: "/api/bot/env/{env}", level: "user" },
  { method: "DELETE", path: "/api/bot/env/{env}", level: "user" },
  { method: "GET", path: "/api/bot/env/{env}/reveal", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/users", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/users/{botUser}", level: "user" },
  // people and dialogs (docs/dialogs.md)
  { method: "GET", path: "/api/bot/tokens/{token}/users/facets", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/users/export", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/users/{botUser}/payments", level: "user" },
  { method: "PUT", path: "/api/bot/tokens/{token}/users/{botUser}/tags", level: "user" },
  { method: "DELETE", path: "/api/bot/tokens/{token}/users/{botUser}", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/chats", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/chats/{chat}/messages", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/chats/{chat}/messages", level: "user" },
  { method: "PATCH", path: "/api/bot/tokens/{token}/chats/{chat}/messages/{chatMessage}", level: "user" },
  { method: "DELETE", path: "/api/bot/tokens/{token}/chats/{chat}/messages/{chatMessage}", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/chats/{chat}/messages/{chatMediaMessage}/media", level: "user" },
  { method: "PUT", path: "/api/bot/tokens/{token}/chats/{chat}/takeover", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/chats/{chat}/read", level: "user" },
  // analytics (docs/analytics.md)
  { method: "GET", path: "/api/bot/tokens/{token}/analytics", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/analytics/nodes", level: "user" },
  // campaigns (docs/campaigns.md)
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/audience-size", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns/{campaign}", level: "user" },
  { method: "PATCH", path: "/api/bot/tokens/{token}/campaigns/{campaign}", level: "user" },
  { method: "DELETE", path: "/api/bot/tokens/{token}/campaigns/{campaign}", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/test", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/start", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/pause", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/resume", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/cancel", level: "user" },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/delete-sent", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns/{campaign}/recipients", level: "user" },
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns/{campaign}/recipients/export", level: "user" },
  // webhook intake
  { method: "POST", path: "/api/webhook/{project}/{token}", level: "public" },
  // inbound webhooks (docs/hooks.md): the public path is authenticated by the hook's secret only
  { method: "POST", path: "/api/hooks/{hook}", level: "public" },
  { method: "GET", path: "/api/projects/{project}/hooks", level: "user" },
  { method: "POST", path: "/api/projects/{project}/hooks/{hookNode}/secret", level: "user" },
  // storage configs
  { method: "GET", path: "/api/storage-configs", level: "user" },
  { method: "POST", path: "/api/storage-configs", level: "operator" },
  { method: "PATCH", path: "/api/storage-configs/{storage}", level: "operator" },
  { method: "DELETE", path: "/api/storage-configs/{storage}", level: "operator" },
  { method: "POST", path: "/api/storage-configs/{storage}/test", level: "operator" },
  // templates
  { method: "GET", path: "/api/templates", level: "user" },
  { method: "GET", path: "/api/templates/{template}", level: "user" },
  { method: "POST", path: "/api/templates", level: "user" },
  { method: "PUT", path: "/api/templates/{template}", level: "user" },
  { method: "DELETE", path: "/api/templates/{template}", level: "user" },
  { method: "POST", path: "/api/templates/{template}/use", level: "user" },
  { method: "POST", path: "/api/templates/{template}/rate", level: "user" },
  // admin
  { method: "POST", path: "/admin/api/login", level: "public" },
  { method: "POST", path: "/admin/api/logout", level: "public" },
  { method: "GET", path: "/admin/api/status", level: "public" },
  { method: "GET", path: "/admin/api/app-settings", level: "admin" },
  { method: "PUT", path: "/admin/api/app-settings", level: "admin" },
  { method: "GET", path: "/admin/api/pats", level: "admin" },
  { method: "POST", path: "/admin/api/pats", level: "admin" },
  { method: "DELETE", path: "/admin/api/pats/{adminPat}", level: "admin" },
  { method: "GET", path: "/admin/api/users", level: "admin" },
  { method: "GET", path: "/admin/api/users/{user}", level: "admin" },
  { method: "GET", path: "/admin/api/version", level: "admin" },
  { method: "GET", path: "/admin/api/update-check", level: "admin" },
  { method: "GET", path: "/admin/api/storage-configs", level: "admin" },
  { method: "POST", path: "/admin/api/storage-configs", level: "admin" },
  { method: "PATCH", path: "/admin/api/storage-configs/{storage}", level: "admin" },
  { method: "DELETE", path: "/admin/api/storage-configs/{storage}", level: "admin" },
  { method: "POST", path: "/admin/api/storage-configs/{storage}/test", level: "admin" },
  { method: "POST", path: "/admin/api/bot-folders/cleanup", level: "admin" },
  { method: "GET", path: "/admin/api/templates", level: "admin" },
  { method: "PATCH", path: "/admin/api/templates/{template}/featured", level: "admin" },
  { method: "POST", path: "/admin/api/templates/refresh", level: "admin" },
  { method: "POST", path: "/admin/api/templates/recreate", level: "admin" },
  { method: "GET", path: "/admin/api/backups", level: "admin" },
  { method: "POST", path: "/admin/api/backups", level: "admin" },
  { method: "GET", path: "/admin/api/backups/{backup}", level: "admin" },
  // preview sessions (docs/preview.md): a session is its starter's alone
  { method: "POST", path: "/api/projects/{project}/preview", level: "user" },
  { method: "POST", path: "/api/templates/{template}/preview", level: "user" },
  { method: "GET", path: "/api/preview/{preview}", level: "user" },
  { method: "POST", path: "/api/preview/{preview}/hooks/{hookNode}", level: "user" },
  { method: "DELETE", path: "/api/preview/{preview}", level: "user" },
  { method: "GET", path: "/api/preview/{preview}/transcript", level: "user" },
  { method: "POST", path: "/api/preview/{preview}/actions", level: "user" },
  { method: "PUT", path: "/api/preview/{preview}/actor", level: "user" },
  { method: "PUT", path: "/api/preview/{preview}/document", level: "user" },
  { method: "GET", path: "/api/preview/{preview}/variables", level: "user" },
  { method: "PUT", path: "/api/preview/{preview}/variables", level: "user" },
  { method: "GET", path: "/api/preview/{preview}/log", level: "user" },
  { method: "GET", path: "/api/preview/{preview}/files/{previewFile}", level: "user" },
  // MCP: PAT-only; the corpus's cookie calls meet the 401, test/hardening/mcp.test.ts sends the bad
  // bodies and queries with a PAT.
  { method: "POST", path: "/mcp", level: "user" },
  { method: "GET", path: "/mcp", level: "user" },
  { method: "DELETE", path: "/mcp", level: "user" },
];

/** Routes of the app that the catalogue does not name (docs, the WebSocket itself and HTML pages are exempt). */
export function uncovered(app: App): string[] {
  const norm = (p: string) => p.replace(/\/$/, "").replace(/\{[^}]+\}|:[A-Za-z]+|\*/g, ":p") || "/";
  const known = new Set(ROUTES.map((r) => `${r.method} ${norm(r.path)}`));
  // Pages and static files are not API routes: the admin pages, the API docs and the Studio app
  // (test/studio/serving.test.ts covers its routes and headers).
  const studio = (m: string, p: string) => m === "GET" && (p === "/" || /^\/(login|projects|templates|account|assets)(\/|$)/.test(p));
  const exempt = (m: string, p: string) => m === "WS" || p.startsWith("/api/docs") || p === "/api/openapi.json" || (p.startsWith("/admin") && !p.startsWith("/admin/api")) || studio(m, p);
  return ((app as any).routes as { method: string; path: string }[])
    .filter((r) => !exempt(r.method, r.path))
    .map((r) => `${r.method} ${norm(r.path)}`)
    .filter((k) => !known.has(k));
}

/** Fills a path template with fixture ids; `override` replaces one placeholder with a raw segment. */
export function fill(path: string, ids: Ids, override?: { name: string; value: string }): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (override && override.name === name) return override.value;
    if (name === "upload") return ids.upload;
    return encodeURIComponent(String((ids as unknown as Record<string, unknown>)[name]));
  });
}

/** The credentials a route of this level needs for a call that should get past authentication. */
export function credentialsFor(h: Hardening, level: Level): CallOptions {
  if (level === "admin") return { cookie: h.admin };
  if (level === "user" || level === "operator") return { cookie: h.owner };
  return {};
}

/** Signs of a stack trace, a source path or an SQL error in an error body. */
const LEAKS = [/\bat (\S+ )?\(?\/[^\s)]+:\d+/, /\.ts:\d/, /\.js:\d/, /SQLITE/i, /node_modules/, /\w*Error: /];

/** A 4xx in the one error shape, with nothing of the server's insides in it. */
export function expectCleanError(r: { status: number; text: string; body: any }, where: string) {
  if (r.status >= 500 || r.status < 400) throw new Error(`${where}: expected a 4xx, got ${r.status}: ${r.text.slice(0, 300)}`);
  expectNoLeak(r.text, where);
  if (r.status === 405 || r.text === "") return; // HEAD and method mismatches carry no body
  if (typeof r.body !== "object" || r.body === null || typeof r.body.error !== "string" || typeof r.body.message !== "string") {
    throw new Error(`${where}: ${r.status} without the {error, message} shape: ${r.text.slice(0, 300)}`);
  }
}

export function expectNoLeak(text: string, where: string) {
  for (const re of LEAKS) if (re.test(text)) throw new Error(`${where}: the body shows server internals (${re}): ${text.slice(0, 300)}`);
}
