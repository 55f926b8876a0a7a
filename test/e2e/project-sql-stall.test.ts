// The stall of issue 29 item 1, with real processes: a preview bot's psql_query drops bot_state and
// puts in its place 400 rows and a generated column that costs a 40 MB string per row read.
// GET /api/preview/{sid}/variables read that table on the server's event loop (7.9 s of
// /api/health unanswered). Now the bot's file is read-only to scenario SQL: the statements fail in
// the preview, the variables read the real bot_state, and health answers throughout.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { unexpectedSchema } from "../../src/db/project-schema-check";
import { commandNode, hostileNodes, scenarioOf } from "../support/hostile-sql";
import { devLoginOnServer, freePort, startProcessServer, until, type ProcessServer } from "../support/process";

const ADMIN_KEY = "stall-admin-key-0123456789";
const scenario = scenarioOf(
  commandNode("c", "/start", "v"),
  { id: "v", type: "set_variable", position: { x: 0, y: 0 }, data: { assignments: [{ id: "a", variable: "kept", value: "yes" }], autoTransitionTo: "h1" } },
  ...hostileNodes("bot_state", 400).filter((n) => n.id !== "hostile"),
);

let server: ProcessServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "botloom-sql-stall-"));
  const env = { ADMIN_KEY, SESSION_SECRET: "stall-session-secret-0123456789", MESSENGER_API_ROOT: "http://127.0.0.1:9" };
  server = await startProcessServer([process.execPath, resolve(import.meta.dir, "../../src/main.ts"), "serve"], { cwd: dir, env, port: await freePort(), timeoutMs: 30_000 });
}, 60_000);

// A stalled server (the failure this test catches) takes its time to stop: stop() waits, then kills.
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** A health probe that must answer within a bound far above any healthy answer (the stall was 7.9 s). */
async function health(): Promise<number> {
  const r = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(4000) });
  await r.arrayBuffer();
  return r.status;
}

test("a preview's hostile psql_query cannot replace bot_state; its variables answer correctly while health keeps answering", async () => {
  const url = server.url;
  const cookie = await devLoginOnServer(url, ADMIN_KEY, 1);
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${url}${path}`, { method, headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as any };
  };

  const project = await call("POST", "/api/projects", { name: "Hostile", data: scenario });
  expect(project.status).toBe(201);
  const created = await call("POST", `/api/projects/${project.body.id}/preview`, {});
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const sent = await call("POST", `/api/preview/${id}/actions`, { type: "text", text: "/start" });
  let version = sent.body.version;
  await until(async () => {
    const t = await call("GET", `/api/preview/${id}/transcript?after=${version}&wait=1000`);
    version = t.body.version;
    return t.body.entries.some((e: any) => e.from === "bot" && e.text === "done");
  }, "the preview's reply", 20_000);

  // The chat's variables (saved at the end of the turn) come from the bot's own bot_state; health
  // probes sent alongside each read all answer.
  const vars = await until(async () => {
    const [v, ...probes] = await Promise.all([call("GET", `/api/preview/${id}/variables`), health(), health(), health()]);
    expect(probes).toEqual([200, 200, 200]);
    expect(v.status).toBe(200);
    return v.body.variables?.kept ? v.body.variables : null;
  }, "the chat's variables", 20_000);
  expect(vars).toMatchObject({ kept: "yes" });

  // The preview's file holds Botloom's schema: the DROP and the CREATE went nowhere near it.
  const file = new Database(join(dir, "bots", ".preview", id, "preview.db"), { readonly: true });
  expect(unexpectedSchema(file)).toEqual([]);
  file.close();
  expect((await call("DELETE", `/api/preview/${id}`)).status).toBe(200);
}, 90_000);
