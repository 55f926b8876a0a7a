// What a bot process is made of: environment, webhook rules, reserved names, log retention.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BotError } from "../../src/errors";
import { buildBotProgram, webhookSecret } from "../../src/bots/program";
import { LogWriter, LOG_RETAIN_PER_TOKEN, LOG_TRIM_EVERY } from "../../src/bots/log-writer";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { greeterScenario } from "./scenario-fixture";

let t: TestApp;
let projectId: number;
const TOKEN = "123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

function addToken(id: number, launchMode: "polling" | "webhook" = "polling") {
  t.ctx.db.$client.prepare("insert into bot_tokens (id, project_id, token, name, launch_mode) values (?, ?, ?, 'b', ?)").run(id, projectId, `${TOKEN.slice(0, -2)}${id % 100}`.padEnd(TOKEN.length, "A"), launchMode);
}

beforeEach(async () => {
  t = createTestApp({ env: { WEBHOOK_BASE_URL: "https://bots.example.com" } });
  await setUp(t);
  projectId = t.ctx.projects.create(1, { name: "P", data: greeterScenario }).id;
  t.ctx.db.$client.prepare("update projects set admin_ids = '11,12' where id = ?").run(projectId);
});
afterEach(() => t.cleanup());

describe("bot program", () => {
  test("environment: token, ids, database, mode; user variables cannot override platform names", () => {
    addToken(1);
    t.ctx.db.$client.exec(`insert into token_env_vars (token_id, key, value) values (1, 'API_KEY', 'k'), (1, 'BOT_TOKEN', 'hijack'), (1, 'PATH', '/evil'), (1, 'BUN_OPTIONS', '--eval process.exit(7)'), (1, 'LD_PRELOAD', '/evil.so'), (1, 'NODE_EXTRA_CA_CERTS', '/evil.pem'), (1, 'BOTLOOM_X', 'x')`);
    const p = buildBotProgram(t.ctx.config, t.ctx.db, t.ctx.projectFiles, 1);
    expect(p.env).toMatchObject({ ADMIN_IDS: "11,12", PROJECT_ID: String(projectId), TOKEN_ID: "1", LAUNCH_MODE: "polling", DATABASE_PATH: t.ctx.projectFiles.pathOf(projectId), API_KEY: "k" });
    // Least privilege: the project's own file, never the platform database or anything naming it.
    expect(p.env.DATABASE_PATH).toBe(join(t.ctx.config.dataDir, "projects", `${projectId}.db`));
    for (const value of Object.values(p.env)) expect(value).not.toContain(t.ctx.config.databasePath);
    expect(p.env.UPLOADS_DIR).toBeUndefined();
    expect(p.env.MEDIA_DIR).toBe(join(t.ctx.config.uploadsDir, String(projectId)));
    expect(p.env.BOT_TOKEN).not.toBe("hijack");
    expect(p.env.PATH).toBeUndefined();
    // Read by Bun or the loader from the process environment: a user variable must never reach it.
    for (const key of ["BUN_OPTIONS", "LD_PRELOAD", "NODE_EXTRA_CA_CERTS", "BOTLOOM_X"]) expect(p.env[key]).toBeUndefined();
    expect(p.env.PORT).toBeUndefined();
    // the platform's egress allow list reaches the bot; a token variable cannot set it (BOTLOOM_*)
    expect(p.env.BOTLOOM_EGRESS_ALLOW).toBe("");
    const listed = buildBotProgram({ ...t.ctx.config, egressAllow: "10.0.0.0/8,internal.example" }, t.ctx.db, t.ctx.projectFiles, 1);
    expect(listed.env.BOTLOOM_EGRESS_ALLOW).toBe("10.0.0.0/8,internal.example");
    // The default (shared runners): the bot as tables, no program text; BOT_ISOLATION=process gets the program.
    expect("tables" in p.run && p.run.tables.nodes.length).toBeGreaterThan(0);
    const own = buildBotProgram({ ...t.ctx.config, bots: { ...t.ctx.config.bots, isolation: "process" } }, t.ctx.db, t.ctx.projectFiles, p.tokenId);
    expect("code" in own.run && own.run.code).toContain('from "grammy"');
  });

  test("webhook mode: port 9000 + tokenId and a derived secret; refused beyond 65535 or without WEBHOOK_BASE_URL", () => {
    addToken(5, "webhook");
    const p = buildBotProgram(t.ctx.config, t.ctx.db, t.ctx.projectFiles, 5);
    expect(p.env.PORT).toBe("9005");
    expect(p.env.WEBHOOK_SECRET).toBe(webhookSecret(t.ctx.config.sessionSecret, projectId, 5));
    addToken(56536, "webhook");
    expect(() => buildBotProgram(t.ctx.config, t.ctx.db, t.ctx.projectFiles, 56536)).toThrow(/65535/);
    const noBase = { ...t.ctx.config, webhookBaseUrl: null };
    expect(() => buildBotProgram(noBase, t.ctx.db, t.ctx.projectFiles, 5)).toThrow(/WEBHOOK_BASE_URL/);
  });

  test("an unusable scenario is refused (INVALID, answered 400) with the generator's issues", () => {
    addToken(2);
    t.ctx.db.$client.prepare(`update projects set data = '{"sheets":[{"id":"s","nodes":[{"id":"a"}]}]}' where id = ?`).run(projectId);
    try {
      buildBotProgram(t.ctx.config, t.ctx.db, t.ctx.projectFiles, 2);
      throw new Error("expected a failure");
    } catch (e: any) {
      expect(e).toBeInstanceOf(BotError);
      expect(e.kind).toBe("INVALID");
      expect(e.extra.issues.length).toBeGreaterThan(0);
    }
  });

  test("unknown token → NOT_FOUND", () => {
    expect(() => buildBotProgram(t.ctx.config, t.ctx.db, t.ctx.projectFiles, 999)).toThrow(/not found/i);
  });
});

describe("log writer", () => {
  test("batches lines and keeps only the newest entries per token, trimmed every LOG_TRIM_EVERY lines", () => {
    addToken(3);
    addToken(4);
    const count = () => (t.ctx.db.$client.query("select count(*) as n from bot_logs where token_id = 3").get() as { n: number }).n;
    const oldest = () => (t.ctx.db.$client.query("select message from bot_logs where token_id = 3 order by id limit 1").get() as { message: string }).message;
    const w = new LogWriter(t.ctx.db);
    for (let i = 0; i < LOG_RETAIN_PER_TOKEN + 250; i++) w.push(projectId, 3, "stdout", `line ${i}`);
    w.push(projectId, 4, "stderr", "other token");
    w.flush();
    const n = count();
    expect(n).toBeGreaterThanOrEqual(LOG_RETAIN_PER_TOKEN);
    expect(n).toBeLessThan(LOG_RETAIN_PER_TOKEN + LOG_TRIM_EVERY);
    expect(oldest()).toBe(`line ${LOG_RETAIN_PER_TOKEN + 250 - n}`);
    expect(t.ctx.db.$client.query("select count(*) as n from bot_logs where token_id = 4").get()).toEqual({ n: 1 });

    // a writer's first flush of a token trims it (a restarted server does not wait for 500 lines)
    const again = new LogWriter(t.ctx.db);
    again.push(projectId, 3, "stdout", "after a restart");
    again.flush();
    expect(count()).toBe(LOG_RETAIN_PER_TOKEN);
    expect(oldest()).toBe("line 251");
    // then every LOG_TRIM_EVERY lines: one short of it, nothing is deleted; the next line trims
    for (let i = 0; i < LOG_TRIM_EVERY - 1; i++) again.push(projectId, 3, "stdout", `more ${i}`);
    again.flush();
    expect(count()).toBe(LOG_RETAIN_PER_TOKEN + LOG_TRIM_EVERY - 1);
    again.push(projectId, 3, "stdout", "the one that trims");
    again.flush();
    expect(count()).toBe(LOG_RETAIN_PER_TOKEN);
  });

  test("lines of a deleted project are dropped alone: the other bots' lines in the same batch are kept", () => {
    addToken(7);
    const w = new LogWriter(t.ctx.db);
    w.push(projectId, 7, "stdout", "before");
    w.push(987_654, 8, "stdout", "of a deleted project");
    w.push(projectId, 7, "stdout", "after");
    w.flush();
    expect(t.ctx.db.$client.query("select message from bot_logs where token_id = 7 order by id").all()).toEqual([{ message: "before" }, { message: "after" }]);
  });

  test("very long lines are cut", () => {
    addToken(6);
    const w = new LogWriter(t.ctx.db);
    w.push(projectId, 6, "stdout", "x".repeat(10_000));
    w.flush();
    const row = t.ctx.db.$client.query("select length(message) as n from bot_logs where token_id = 6").get() as any;
    expect(row.n).toBeLessThanOrEqual(2001);
  });
});
