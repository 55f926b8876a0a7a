// The bot-manager client of the older platform (compat/{current,legacy}/bot-manager.json, a
// scenario that manages projects by calling /api/bot/* with a bot_manager PAT and telegram_id).
// Every HTTP request its http_request nodes send to the platform is listed below (extracted from
// the two files, which stay outside the repository) and replayed here in the order the client's
// flows send them: method, path, query, headers and body templates filled the way the bot fills
// them, with values taken from earlier responses. Each response is checked for every field the
// client reads later ({var.path} in texts, condition variables, dynamic buttons, pagination).
//
// Where docs/api.md disagrees with the client, the documents win and the test says so: requests that
// carry no credentials (the whole legacy form; the lifecycle and admin-ids calls of the current
// form) are 401, and are then repeated with a credential to check what the client reads.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { patFor, type CallResult } from "../support/app";
import { botApiEnv, expectNoSecrets, seedBotUser, type BotApiEnv } from "./support";

type Form = "current" | "legacy";

interface ClientRequest {
  node: string;
  method: string;
  /** httpRequestUrl without the client's `http://localhost:5000` */
  url: string;
  /** httpRequestHeaders (a JSON string) */
  headers: string;
  /** httpRequestBody template; "" sends no body */
  body: string;
  /** current form: httpRequestAuthType "bearer" with {STUDIO_BOT_MANAGER_TOKEN}; the legacy form never sends credentials */
  bearer: boolean;
  response: string;
  status: string;
  /** the node exists (with the same request, without credentials) in the legacy form */
  legacy: boolean;
}

// prettier-ignore
const REQUESTS: ClientRequest[] = [
  { node: "fetch-projects", method: "GET", url: "/api/bot/projects?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "projects", status: "projects_status", legacy: true },
  { node: "import-create-project", method: "POST", url: "/api/bot/projects/import?telegram_id={user_id}", headers: "{\"Content-Type\": \"text/plain\"}", body: "{import_json_data}", bearer: true, response: "import_result", status: "import_status", legacy: true },
  { node: "fetch-project-detail", method: "GET", url: "/api/bot/projects/{callback_data}?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "project_detail", status: "detail_status", legacy: true },
  { node: "fetch-project-tokens", method: "GET", url: "/api/bot/projects/{project_detail.id}/tokens?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "project_tokens", status: "project_tokens_status", legacy: true },
  { node: "reload-project", method: "GET", url: "/api/bot/projects/{project_detail.id}?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "project_detail", status: "detail_status", legacy: true },
  { node: "action-start", method: "POST", url: "/api/projects/{project_detail.id}/bot/start", headers: "{\"Content-Type\":\"application/json\"}", body: "{}", bearer: false, response: "start_response", status: "start_status", legacy: true },
  { node: "action-stop", method: "POST", url: "/api/projects/{project_detail.id}/bot/stop", headers: "{\"Content-Type\":\"application/json\"}", body: "{}", bearer: false, response: "stop_response", status: "stop_status", legacy: true },
  { node: "action-restart", method: "POST", url: "/api/projects/{project_detail.id}/bot/restart", headers: "{\"Content-Type\":\"application/json\"}", body: "{}", bearer: false, response: "restart_response", status: "restart_status", legacy: true },
  { node: "rename-project-action", method: "PATCH", url: "/api/bot/projects/{project_detail.id}?telegram_id={user_id}", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"name\": \"{new_project_name}\"}", bearer: true, response: "rename_response", status: "rename_status", legacy: true },
  { node: "delete-project-action", method: "DELETE", url: "/api/bot/projects/{project_detail.id}?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "delete_response", status: "delete_status", legacy: true },
  { node: "create-project-action", method: "POST", url: "/api/bot/projects?telegram_id={user_id}", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"name\": \"Новый проект\"}", bearer: true, response: "new_project", status: "create_status", legacy: true },
  { node: "create-project-with-token", method: "POST", url: "/api/bot/projects?telegram_id={user_id}", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"name\": \"{new_project_name}\"}", bearer: true, response: "new_project", status: "new_project_status", legacy: true },
  { node: "create-token-for-project", method: "POST", url: "/api/bot/projects/{new_project.id}/tokens?telegram_id={user_id}", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"token\": \"{new_token_value}\", \"name\": \"Основной токен\"}", bearer: true, response: "new_token", status: "new_token_status", legacy: true },
  { node: "load-new-project", method: "GET", url: "/api/bot/projects/{new_project.id}?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "project_detail", status: "detail_status", legacy: true },
  { node: "fetch-tokens", method: "GET", url: "/api/bot/projects/{project_detail.id}/tokens?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "tokens", status: "tokens_status", legacy: true },
  { node: "add-token-to-project", method: "POST", url: "/api/bot/projects/{project_detail.id}/tokens?telegram_id={user_id}", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"token\": \"{new_token_value}\", \"name\": \"Токен\"}", bearer: true, response: "added_token", status: "add_token_status", legacy: true },
  { node: "delete-token-action", method: "DELETE", url: "/api/bot/tokens/{callback_data}?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "delete_token_response", status: "delete_token_status", legacy: true },
  { node: "fetch-token-status", method: "GET", url: "/api/bot/tokens/{callback_data}/status?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "token_status", status: "token_status_code", legacy: true },
  { node: "token-action-start", method: "POST", url: "/api/projects/{project_detail.id}/bot/start", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"tokenId\": \"{callback_data}\"}", bearer: false, response: "token_start_response", status: "token_start_status", legacy: true },
  { node: "token-action-stop", method: "POST", url: "/api/projects/{project_detail.id}/bot/stop", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"tokenId\": \"{callback_data}\"}", bearer: false, response: "token_stop_response", status: "token_stop_status", legacy: true },
  { node: "token-action-restart", method: "POST", url: "/api/projects/{project_detail.id}/bot/restart", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"tokenId\": \"{callback_data}\"}", bearer: false, response: "token_restart_response", status: "token_restart_status", legacy: false },
  { node: "fetch-bot-photo", method: "GET", url: "/api/bot/tokens/{callback_data}/photo?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "bot_photo", status: "bot_photo_status", legacy: true },
  { node: "reload-token-status", method: "GET", url: "/api/bot/tokens/{token_status.instance.tokenId}/status?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "token_status", status: "token_status_code", legacy: false },
  { node: "reload-token-photo", method: "GET", url: "/api/bot/tokens/{token_status.instance.tokenId}/photo?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "bot_photo", status: "bot_photo_status", legacy: false },
  { node: "fetch-token-admins", method: "GET", url: "/api/projects/{project_detail.id}/admin-ids?telegram_id={user_id}", headers: "{}", body: "", bearer: false, response: "admins_data", status: "admins_status", legacy: true },
  { node: "add-admin-action", method: "PUT", url: "/api/projects/{project_detail.id}/admin-ids", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"adminIds\": \"{admins_data.adminIds},{new_admin_id}\"}", bearer: false, response: "add_admin_response", status: "add_admin_status", legacy: true },
  { node: "del-admin-action", method: "POST", url: "/api/projects/{project_detail.id}/admin-ids/remove?telegram_id={user_id}", headers: "{\"Content-Type\": \"application/json\"}", body: "{\"adminId\": \"{callback_data}\"}", bearer: false, response: "del_admin_response", status: "del_admin_status", legacy: true },
  { node: "fetch-bot-users", method: "GET", url: "/api/bot/tokens/{token_status.instance.tokenId}/users?telegram_id={user_id}&limit=10&offset={users_offset}", headers: "{}", body: "", bearer: true, response: "users_data", status: "users_status", legacy: false },
  { node: "fetch-user-detail", method: "GET", url: "/api/bot/tokens/{token_status.instance.tokenId}/users/{callback_data}?telegram_id={user_id}", headers: "{}", body: "", bearer: true, response: "user_detail", status: "user_detail_status", legacy: false },
];

type Kind = "number" | "string" | "array" | "string|null" | "number|null";

/**
 * Every field the client reads from a platform response, by response variable. `items[].x` is a
 * field of each element of a dynamic-button source array.
 */
const READS: Record<string, Record<string, Kind>> = {
  projects: { count: "number", items: "array", "items[].name": "string", "items[].id": "number" },
  project_detail: { id: "number", name: "string" },
  project_tokens: { items: "array", "items[].id": "number", "items[].botStatus": "string", "items[].botFirstName": "string", "items[].botUsername": "string" },
  tokens: { count: "number" },
  new_project: { id: "number", name: "string" },
  import_result: { name: "string" },
  token_status: {
    status: "string",
    "instance.botName": "string",
    "instance.botUsername": "string",
    "instance.tokenId": "number",
    "instance.status": "string",
    "instance.statusLabel": "string",
    "instance.uptime": "string",
    "userStats.total": "number",
    "userStats.active_24h": "number",
    "userStats.active_7d": "number",
    "userStats.new_today": "number",
  },
  bot_photo: { photoUrl: "string|null", total_count: "number" },
  admins_data: { adminIds: "string", items: "array", "items[].id": "string" },
  users_data: { count: "number", items: "array", nextOffset: "number|null", prevOffset: "number|null", "items[].userId": "string", "items[].firstName": "string", "items[].userName": "string" },
  user_detail: {
    firstName: "string",
    userName: "string",
    registeredAt: "string",
    lastInteraction: "string",
    interactionCount: "number",
    photoUrl: "string",
  },
};

const COMPAT_DIR = process.env.BOTLOOM_COMPAT_DIR ?? resolve(import.meta.dir, "../../../shared/compat");
const fileOf = (form: Form) => join(COMPAT_DIR, form, "bot-manager.json");
const haveCompat = existsSync(fileOf("current")) && existsSync(fileOf("legacy"));
if (!haveCompat) console.warn(`bot-manager client test: ${COMPAT_DIR} not found; the check of the request list against the client files is SKIPPED`);

const PLACEHOLDER = /\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}/gu;

function lookup(vars: Record<string, unknown>, name: string): unknown {
  if (name in vars) return vars[name];
  let v: unknown = vars;
  for (const part of name.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** What the bot does with a template: `{a.b}` → the value as text; missing or null → "". */
function fill(template: string, vars: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const v = lookup(vars, name);
    return v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  });
}

function kindOk(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
      return typeof value === "string";
    case "array":
      return Array.isArray(value);
    case "string|null":
      return value === null || typeof value === "string";
    case "number|null":
      return value === null || (typeof value === "number" && Number.isFinite(value));
  }
}

/** The bot-manager bot of one user, talking to the app the way the scenario does. */
class ManagerClient {
  readonly vars: Record<string, unknown> = {};
  /** READS paths seen with a real value (arrays: with at least one element). */
  readonly verified = new Set<string>();
  /** nodes whose literal request was answered 401 as docs/api.md asks (no credentials) */
  readonly unauthenticated = new Set<string>();
  readonly sent = new Set<string>();
  private readonly ownPat: string;

  constructor(
    private readonly env: BotApiEnv,
    readonly form: Form,
    readonly userId: number,
  ) {
    this.vars.user_id = String(userId);
    // The env variable of the bot-manager's token (the bot substitutes it from the server).
    this.vars.STUDIO_BOT_MANAGER_TOKEN = env.managerPat;
    this.ownPat = patFor(env.t, userId);
  }

  has(node: string) {
    return REQUESTS.some((r) => r.node === node && (this.form === "current" || r.legacy));
  }

  private async raw(spec: ClientRequest, authorization: string | null): Promise<CallResult> {
    const headers: Record<string, string> = JSON.parse(spec.headers);
    if (authorization) headers.Authorization = authorization;
    const body = spec.body === "" ? undefined : fill(spec.body, this.vars);
    const path = fill(spec.url, this.vars);
    const res = await this.env.t.app.handle(new Request(`http://localhost${path}`, { method: spec.method, headers, body }));
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    this.env.responses.push({ method: spec.method, path, status: res.status, text });
    return { status: res.status, headers: res.headers, text, body: parsed, bytes };
  }

  /**
   * Sends the node's request as the client does. A request without credentials must be 401 (docs/api.md);
   * it is then repeated with a credential (the manager PAT for /api/bot/*, the user's own PAT for
   * /api/projects/*, where the bot-manager actor rules do not apply) so the flow can go on.
   */
  async send(node: string, expectStatus = 200): Promise<CallResult> {
    const spec = REQUESTS.find((r) => r.node === node);
    if (!spec || !this.has(node)) throw new Error(`the ${this.form} client has no request node ${node}`);
    this.sent.add(node);
    const sendsBearer = spec.bearer && this.form === "current";
    let r: CallResult;
    if (sendsBearer) {
      r = await this.raw(spec, `Bearer ${fill("{STUDIO_BOT_MANAGER_TOKEN}", this.vars)}`);
    } else {
      const literal = await this.raw(spec, null);
      expect({ node, status: literal.status, error: literal.body?.error }).toEqual({ node, status: 401, error: "UNAUTHORIZED" });
      this.unauthenticated.add(node);
      r = await this.raw(spec, `Bearer ${spec.url.startsWith("/api/bot/") ? this.env.managerPat : this.ownPat}`);
    }
    expect({ node, status: r.status, body: r.status === expectStatus ? undefined : r.body }).toEqual({ node, status: expectStatus, body: undefined });
    this.vars[spec.response] = r.body ?? r.text;
    this.vars[spec.status] = String(r.status);
    if (r.status === 200) this.checkReads(node, spec.response, r.body);
    return r;
  }

  private checkReads(node: string, variable: string, body: any) {
    const reads = READS[variable];
    if (!reads) return;
    for (const [path, kind] of Object.entries(reads)) {
      const [arrayPath, field] = path.split("[].");
      if (field !== undefined) {
        const items = lookup(body, arrayPath);
        expect({ node, path: arrayPath, ok: Array.isArray(items) }).toEqual({ node, path: arrayPath, ok: true });
        for (const item of items as unknown[]) {
          expect({ node, path, value: (item as any)?.[field], ok: kindOk((item as any)?.[field], kind) }).toMatchObject({ node, path, ok: true });
          this.verified.add(`${variable}.${path}`);
        }
        continue;
      }
      const value = lookup(body, path);
      expect({ node, path, value, ok: kindOk(value, kind) }).toMatchObject({ node, path, ok: true });
      if (value !== null && !(Array.isArray(value) && value.length === 0)) this.verified.add(`${variable}.${path}`);
    }
  }

  /** A dynamic button as the keyboard renders it from `sourceVariable.items`. */
  buttons(source: string, textTemplate: string, callbackTemplate: string) {
    const items = lookup(this.vars, `${source}.items`) as Record<string, unknown>[];
    return items.map((item) => ({ text: fill(textTemplate, item), data: fill(callbackTemplate, item) }));
  }

  /** An incoming_callback_trigger caught the pressed button: {callback_data} is its data. */
  press(data: string) {
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    this.vars.callback_data = data;
  }
}

/** The client's flows, sheet by sheet, in the order a user walks them. */
async function walk(env: BotApiEnv, form: Form) {
  const USER = 7_012_345_678; // a real-sized Telegram id (above 2^32)
  const c = new ManagerClient(env, form, USER);
  const tokenA = env.fake.addBot({ firstName: "Цветы", username: "flowers_shop_bot" });
  const tokenB = env.fake.addBot({ firstName: "Анкета", username: "kotik_form_bot", hasPhoto: true });

  // Список проектов: a new user has none.
  await c.send("fetch-projects");
  expect(c.vars.projects).toEqual({ items: [], count: 0 });

  // Управление проектом → ➕ Создать проект.
  await c.send("create-project-action");
  expect((c.vars.new_project as any).name).toBe("Новый проект");
  const plainProjectId = (c.vars.new_project as any).id as number;

  // Создание с токеном: a name, then a bot credential from @BotFather.
  c.vars.new_project_name = "Цветочный магазин";
  await c.send("create-project-with-token");
  c.vars.new_token_value = tokenA.token;
  await c.send("create-token-for-project");
  await c.send("load-new-project");
  expect(c.vars.project_detail).toEqual({ id: (c.vars.new_project as any).id, name: "Цветочный магазин", description: "" });

  // Back to the list: one button per project, `project_{id}`.
  await c.send("fetch-projects");
  expect((c.vars.projects as any).count).toBe(2);
  const projectButtons = c.buttons("projects", "📁 {name}", "project_{id}");
  const flowers = projectButtons.find((b) => b.text === "📁 Цветочный магазин")!;
  expect(flowers).toBeDefined();

  // Карточка проекта.
  c.press(flowers.data);
  await c.send("fetch-project-detail");
  await c.send("fetch-project-tokens");
  const projectId = (c.vars.project_detail as any).id as number;
  expect(c.buttons("project_tokens", "{botStatus} {botFirstName} (@{botUsername})", "token_{id}").map((b) => b.text)).toEqual(["🔴 Цветы (@flowers_shop_bot)"]);
  await c.send("reload-project");

  // Токены: count, then ➕ Добавить токен (the same credential again answers the existing record).
  await c.send("fetch-tokens");
  expect((c.vars.tokens as any).count).toBe(1);
  c.vars.new_token_value = tokenB.token;
  await c.send("add-token-to-project");
  const tokenBId = (c.vars.added_token as any).id as number;
  await c.send("add-token-to-project");
  expect((c.vars.added_token as any).id).toBe(tokenBId);
  await c.send("fetch-project-tokens");
  const tokenButtons = c.buttons("project_tokens", "{botStatus} {botFirstName} (@{botUsername})", "token_{id}");
  expect(tokenButtons.map((b) => b.text)).toEqual(["🔴 Цветы (@flowers_shop_bot)", "🔴 Анкета (@kotik_form_bot)"]);

  // Карточка токена: status and avatar of the second bot.
  c.press(tokenButtons[1].data);
  await c.send("fetch-token-status");
  expect((c.vars.token_status as any).instance).toMatchObject({ tokenId: tokenBId, status: "stopped", botUsername: "kotik_form_bot" });
  await c.send("fetch-bot-photo");
  expect(c.vars.bot_photo).toMatchObject({ total_count: 1, photoUrl: expect.stringMatching(new RegExp(`^/uploads/${projectId}/bot_photos/`)) });

  // ▶️ Запустить / ⏹ Остановить / 🔄 (the body names the token as `token_<id>`).
  await c.send("token-action-start");
  expect(c.vars.token_start_response).toMatchObject({ tokenId: tokenBId, status: "running" });
  if (c.has("reload-token-status")) {
    await c.send("reload-token-status");
    expect((c.vars.token_status as any).instance.status).toBe("running");
    await c.send("reload-token-photo");
  }
  await c.send("token-action-stop");
  if (c.has("token-action-restart")) await c.send("token-action-restart");

  // 👤 Пользователи: 12 users; pages of 10 through `pg_<offset>` buttons; a user's card.
  for (let n = 1; n <= 12; n++) {
    seedBotUser(env, projectId, tokenBId, { userId: String(100_000 + n), firstName: `Гость${n}`, username: `guest${n}`, firstSeenAt: new Date(Date.UTC(2026, 0, n, 9, 30)).toISOString(), interactionCount: n });
  }
  env.fake.setUserPhoto(100_012, true);
  if (c.has("fetch-bot-users")) {
    await c.send("fetch-bot-users");
    expect(c.vars.users_data).toMatchObject({ count: 12, nextOffset: 10, prevOffset: null });
    c.press(`pg_${(c.vars.users_data as any).nextOffset}`);
    c.vars.users_offset = String(c.vars.callback_data).slice("pg_".length); // callbackDataStripPrefix
    await c.send("fetch-bot-users");
    expect(c.vars.users_data).toMatchObject({ count: 12, nextOffset: null, prevOffset: 0 });
    c.vars.users_offset = "0";
    await c.send("fetch-bot-users");
    const userButtons = c.buttons("users_data", "{firstName} (@{userName})", "user_{userId}");
    expect(userButtons[0]).toEqual({ text: "Гость12 (@guest12)", data: "user_100012" });
    c.press(userButtons[0].data);
    await c.send("fetch-user-detail");
    expect(c.vars.user_detail).toMatchObject({ registeredAt: "12.01.2026 09:30", interactionCount: 12, photoUrl: expect.stringMatching(/^\/uploads\//) });
    c.press(userButtons[1].data);
    await c.send("fetch-user-detail");
    expect((c.vars.user_detail as any).photoUrl).toBe(""); // the client's "no photo" test is `= ""`
  }

  // 👥 Администраторы: add one (the body is "<current list>,<new id>"), then remove it by its button.
  await c.send("fetch-token-admins");
  expect(c.vars.admins_data).toEqual({ adminIds: "", items: [], count: 0 });
  c.vars.new_admin_id = "123456789";
  await c.send("add-admin-action");
  await c.send("fetch-token-admins");
  expect((c.vars.admins_data as any).adminIds).toBe("123456789");
  const adminButtons = c.buttons("admins_data", "🗑 {id}", "del_admin_{id}");
  expect(adminButtons).toEqual([{ text: "🗑 123456789", data: "del_admin_123456789" }]);
  c.press(adminButtons[0].data);
  await c.send("del-admin-action");
  await c.send("fetch-token-admins");
  expect((c.vars.admins_data as any).items).toEqual([]);

  // Действия с ботом: project-level start/stop/restart with `{}` act on the first token.
  await c.send("action-start");
  expect(c.vars.start_response).toMatchObject({ tokenId: (c.vars.new_token as any).id, status: "running" });
  await c.send("action-stop");
  await c.send("action-restart");

  // ✏️ Переименовать.
  c.vars.new_project_name = "Магазин цветов";
  await c.send("rename-project-action");
  await c.send("reload-project");
  expect((c.vars.project_detail as any).name).toBe("Магазин цветов");

  // 📥 Импортировать: the client downloads the sent .json file and posts its text as text/plain.
  const exported = await env.call("GET", `/api/bot/projects/${projectId}/export?messenger_id=${USER}`, { bearer: env.managerPat });
  c.vars.import_json_data = Buffer.from(exported.body.data, "base64").toString("utf8");
  await c.send("import-create-project");
  expect(typeof (c.vars.import_result as any).id).toBe("number");

  // 🗑 Удалить токен, then 🗑 Удалить проект (the first, plain one).
  c.press(tokenButtons[1].data);
  await c.send("delete-token-action");
  await c.send("fetch-token-status", 404);
  c.press(`project_${plainProjectId}`);
  await c.send("fetch-project-detail");
  await c.send("delete-project-action");
  await c.send("fetch-projects");
  expect((c.vars.projects as any).items.map((p: any) => p.name)).toEqual(["Магазин цветов", (c.vars.import_result as any).name]);

  return { c, botTokens: [tokenA.token, tokenB.token] };
}

describe("the bot-manager client's requests, replayed", () => {
  for (const form of ["current", "legacy"] as const) {
    describe(`${form} form`, () => {
      let env: BotApiEnv;
      beforeAll(async () => {
        env = await botApiEnv();
      });
      afterAll(() => env.close());

      test("every flow succeeds and every field the client reads is there with its type", async () => {
        const { c, botTokens } = await walk(env, form);
        const sent = REQUESTS.filter((r) => c.has(r.node)).map((r) => r.node);
        const readable = Object.entries(READS)
          .filter(([variable]) => REQUESTS.some((r) => r.response === variable && c.has(r.node)))
          .flatMap(([variable, reads]) => Object.keys(reads).map((p) => `${variable}.${p}`));
        // Every request node of this form was sent, and every read was checked on a real value.
        expect(sent.filter((n) => !c.sent.has(n))).toEqual([]);
        expect(readable.filter((p) => !c.verified.has(p))).toEqual([]);
        // Documented deviation from the client: docs/api.md requires credentials everywhere here.
        const withoutCredentials = REQUESTS.filter((r) => c.has(r.node) && (form === "legacy" || !r.bearer)).map((r) => r.node);
        expect([...c.unauthenticated].sort()).toEqual(withoutCredentials.sort());
        expectNoSecrets(env, [...botTokens, env.managerPat]);
      });
    });
  }
});

/** Request nodes of a client file that talk to the platform, in the shape of REQUESTS. */
function requestsIn(form: Form) {
  const doc = JSON.parse(readFileSync(fileOf(form), "utf8"));
  const out: Omit<ClientRequest, "legacy">[] = [];
  for (const sheet of doc.data.sheets) {
    for (const n of sheet.nodes) {
      const d = n.data;
      if (n.type !== "http_request" || !String(d.httpRequestUrl).startsWith("http://localhost:5000/")) continue;
      out.push({
        node: n.id,
        method: d.httpRequestMethod,
        url: d.httpRequestUrl.slice("http://localhost:5000".length),
        headers: d.httpRequestHeaders,
        body: d.httpRequestBody,
        bearer: d.httpRequestAuthType === "bearer" && d.httpRequestAuthBearerToken === "{STUDIO_BOT_MANAGER_TOKEN}",
        response: d.httpRequestResponseVariable,
        status: d.httpRequestStatusVariable,
      });
    }
  }
  return { doc, requests: out };
}

/** Every `variable.path` the client reads from a platform response (texts, conditions, dynamic buttons, pagination). */
function readsIn(doc: any, responseVars: Set<string>): Set<string> {
  const reads = new Set<string>();
  const note = (ref: string) => {
    const [root, ...rest] = ref.split(".");
    if (responseVars.has(root) && rest.length > 0) reads.add(`${root}.${rest.join(".")}`);
  };
  for (const sheet of doc.data.sheets) {
    for (const n of sheet.nodes) {
      for (const m of JSON.stringify(n.data).matchAll(PLACEHOLDER)) note(m[1]);
      if (n.type === "condition" && typeof n.data.variable === "string") note(n.data.variable);
      const db = n.data.dynamicButtons;
      if (n.data.enableDynamicButtons && db && responseVars.has(db.sourceVariable)) {
        reads.add(`${db.sourceVariable}.${db.arrayPath}`);
        for (const t of [db.textTemplate, db.callbackTemplate]) for (const m of String(t).matchAll(PLACEHOLDER)) reads.add(`${db.sourceVariable}.${db.arrayPath}[].${m[1]}`);
      }
      if (n.type === "http_request" && n.data.httpRequestEnablePagination) {
        reads.add(`${n.data.httpRequestResponseVariable}.${n.data.httpRequestPaginationItemsField}`);
        reads.add(`${n.data.httpRequestResponseVariable}.${n.data.httpRequestPaginationTotalField}`);
      }
    }
  }
  return reads;
}

describe.if(haveCompat)("the lists above match the client files", () => {
  for (const form of ["current", "legacy"] as const) {
    test(`${form}: every platform request and every field read`, () => {
      const { doc, requests } = requestsIn(form);
      const expected = REQUESTS.filter((r) => form === "current" || r.legacy).map(({ legacy, ...r }) => (form === "legacy" ? { ...r, bearer: false } : r));
      expect(requests).toEqual(expected);
      const responseVars = new Set(requests.map((r) => r.response));
      const listed = new Set(Object.entries(READS).flatMap(([v, reads]) => (responseVars.has(v) ? Object.keys(reads).map((p) => `${v}.${p}`) : [])));
      const reads = [...readsIn(doc, responseVars)].sort();
      // The current form reads everything listed; the older form a part of it.
      if (form === "current") expect(reads).toEqual([...listed].sort());
      else expect(reads.filter((p) => !listed.has(p))).toEqual([]);
    });
  }
});
