// Test harness for HTTP tests: an app over a fresh in-memory database and temporary folders,
// plus small helpers to log users in and call endpoints (`app.handle`, no port).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config";
import { buildContext } from "../../src/bootstrap";
import { createApp, type App } from "../../src/app";
import { openDatabase } from "../../src/db/client";
import type { AppContext } from "../../src/context";
import type { BotController } from "../../src/bots/controller";
import type { Logger } from "../../src/log";
import type { SupervisionPolicy } from "../../src/bots/policy";

export const ADMIN_KEY = "test-admin-key-0123456789";

export interface TestApp {
  app: App;
  ctx: AppContext;
  dir: string;
  /** Recorded log lines (all levels), for secret scans. */
  logs: string[];
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  cleanup(): void;
}

export interface CallOptions {
  cookie?: string;
  bearer?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** the body decoded as fetch's text() does: a leading BOM dropped */
  text: string;
  body: any;
  /** the body as sent, byte for byte (a CSV's BOM is here) */
  bytes: Uint8Array<ArrayBuffer>;
}

/** A logger that records instead of printing (secret scans read `logs`). */
export function recordingLogger(lines: string[]): Logger {
  const rec =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push(`${level} ${args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : typeof a === "string" ? a : JSON.stringify(a))).join(" ")}`);
  return { error: rec("error"), warn: rec("warn"), info: rec("info"), debug: rec("debug"), trace: rec("trace"), success: rec("success"), start: rec("start"), log: rec("log") };
}

export function createTestApp(opts: { env?: Record<string, string>; bots?: BotController; dbPath?: string; fileDb?: boolean; botPolicy?: SupervisionPolicy } = {}): TestApp {
  const dir = mkdtempSync(join(tmpdir(), "botloom-test-"));
  const config: Config = loadConfig({
    DATA_DIR: join(dir, "data"),
    BOTS_DIR: join(dir, "bots"),
    UPLOADS_DIR: join(dir, "uploads"),
    ADMIN_KEY,
    SESSION_SECRET: "test-session-secret-0123456789",
    LOG_LEVEL: "silent",
    // Feature tests log in and create tokens far faster than a person; the abuse limits have their
    // own tests (test/hardening/abuse-limits.test.ts), which set the production defaults back.
    LOGIN_ATTEMPTS_PER_MINUTE: "1000000",
    ADMIN_LOGIN_FREE_FAILURES: "1000000",
    PAT_CREATIONS_PER_HOUR: "1000000",
    MAX_PATS_PER_USER: "1000000",
    MAX_PROJECTS_PER_USER: "1000000",
    ...opts.env,
  });
  const logs: string[] = [];
  const ctx = buildContext(config, { db: openDatabase(opts.dbPath ?? (opts.fileDb ? config.databasePath : ":memory:")), log: recordingLogger(logs), bots: opts.bots, botPolicy: opts.botPolicy });
  const app = createApp(ctx);
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.cookie) headers.cookie = o.cookie;
    if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
    let body = o.body;
    if (o.json !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(o.json);
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let parsed: any = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, headers: res.headers, text, body: parsed, bytes };
  };
  return {
    app,
    ctx,
    dir,
    logs,
    call,
    cleanup() {
      try {
        ctx.projectFiles.closeAll();
        ctx.db.$client.close();
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Finishes first-run setup with dev login (the usual state for feature tests); `operators` may manage storage configs. */
export async function setUp(t: TestApp, opts: { operators?: number[] } = {}) {
  await t.ctx.settings.update({ auth: { loginMode: "dev_login" }, ...(opts.operators ? { platform: { operatorIds: opts.operators.join(",") } } : {}) });
}

/** Logs a user in through dev-login and returns the `cookie` header value. */
export async function loginAs(t: TestApp, userId: number, profile: { firstName?: string; lastName?: string; username?: string } = {}): Promise<string> {
  const res = await t.app.handle(
    new Request("http://localhost/api/auth/dev-login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId, firstName: profile.firstName ?? `User${userId}`, ...profile }),
    }),
  );
  if (res.status !== 200) throw new Error(`dev-login failed: ${res.status} ${await res.text()}`);
  return cookieFrom(res.headers, "connect.sid");
}

/** Admin cookie via the real login endpoint. */
export async function adminLogin(t: TestApp): Promise<string> {
  const res = await t.app.handle(new Request("http://localhost/admin/api/login", { method: "POST", body: new URLSearchParams({ key: ADMIN_KEY }) }));
  if (res.status !== 302) throw new Error(`admin login failed: ${res.status}`);
  return cookieFrom(res.headers, "admin_auth");
}

export function cookieFrom(headers: Headers, name: string): string {
  for (const c of headers.getSetCookie()) if (c.startsWith(`${name}=`)) return c.split(";")[0];
  throw new Error(`no ${name} cookie in response`);
}

/** A PAT for `userId` (scope bot_manager when asked), created like the admin/CLI would. */
export function patFor(t: TestApp, userId: number, scopes: "bot_manager"[] = []): string {
  t.ctx.auth.ensureUser(userId);
  return t.ctx.auth.createPat(userId, "test", scopes).token;
}
