// `generate` and `export` run off the event loop with bounded concurrency
// (src/scenario/codegen/off-thread.ts): eight parallel generates of a large scenario all succeed
// with the program the generator makes, and a health request sent while they run is answered
// before the last of them (on the event loop, every generate ran before the health request).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { generateBot } from "../../src/scenario";
import { synthetic } from "../../bench/codegen-scenarios";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort } from "../support/process";

let t: TestApp;
let server: ReturnType<ReturnType<typeof createApp>["listen"]>;
let url: string;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  const port = await freePort();
  server = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  url = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  server.server?.stop(true);
  t.cleanup();
});

test("eight parallel generates (and exports) of a large scenario all succeed; health is answered meanwhile", async () => {
  const cookie = await loginAs(t, 1901);
  const doc = synthetic(2000);
  const project = await t.call("POST", "/api/projects", { cookie, json: { name: "Large", data: doc } });
  expect(project.status).toBe(201);
  const expected = generateBot(doc, { projectName: "Large", userDatabaseEnabled: project.body.userDatabaseEnabled === 1, mediaCache: {} }).code;
  const plain = generateBot(doc, { projectName: "Large", userDatabaseEnabled: project.body.userDatabaseEnabled === 1 }).code;

  const done: string[] = [];
  const post = (what: "generate" | "export", i: number) =>
    fetch(`${url}/api/projects/${project.body.id}/${what}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{}" }).then(async (r) => {
      done.push(`${what} ${i}`);
      return { status: r.status, body: (await r.json()) as { code: string } };
    });
  const runs = [...Array.from({ length: 6 }, (_, i) => post("generate", i)), ...Array.from({ length: 2 }, (_, i) => post("export", i))];
  const first = Promise.race(runs);
  await first;
  const health = await fetch(`${url}/api/health`);
  done.push("health");
  expect(health.status).toBe(200);
  const results = await Promise.all(runs);

  expect(results.map((r) => r.status)).toEqual(runs.map(() => 200));
  expect(results.slice(0, 6).every((r) => r.body.code === expected)).toBe(true);
  expect(results.slice(6).every((r) => r.body.code === plain)).toBe(true);
  // Sent once the first answer arrived, the health answer comes before the others are all done.
  expect(done.indexOf("health")).toBeLessThan(done.length - 1);
}, 120_000);

test("generate of a stored scenario the generator refuses is a 400 with its issues, off the event loop too", async () => {
  const cookie = await loginAs(t, 1902);
  const project = await t.call("POST", "/api/projects", { cookie, json: { name: "Broken" } });
  t.ctx.db.$client.query("update projects set data = ? where id = ?").run(JSON.stringify({ version: 2, sheets: [{ id: "s", name: "S", nodes: [{ id: "a", type: "message", position: { x: 0, y: 0 }, data: {} }, { id: "a", type: "message", position: { x: 0, y: 0 }, data: {} }], edges: [] }] }), project.body.id);
  const r = await t.call("POST", `/api/projects/${project.body.id}/generate`, { cookie, json: {} });
  expect([r.status, r.body.error]).toEqual([400, "VALIDATION_FAILED"]);
  expect(r.body.issues).toEqual([expect.objectContaining({ nodeId: "a", message: expect.stringContaining("Duplicate node id") })]);
  t.ctx.db.$client.query("update projects set data = ? where id = ?").run("{not json", project.body.id);
  const fallback = await t.call("POST", `/api/projects/${project.body.id}/export`, { cookie });
  expect([fallback.status, typeof fallback.body.code]).toEqual([200, "string"]);
});
