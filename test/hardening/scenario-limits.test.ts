// Issue 12 item 4 (limits, docs/scenario.md): JSON nested deeper than 64 levels and more than 20,000
// nodes per project are a 400 with a clear message on every path that accepts a scenario, and
// never a 500; rows stored before the limits existed cannot make generate or export blow up.
// Reproductions: 20,000-level nesting (exported as 1 GB), 40,000 levels (create was a 500 stack
// overflow), a 200k-node scenario (5.4 s and a stalled health check).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createApp } from "../../src/app";
import { botTokens, projects, projectVersions } from "../../src/db/schema";
import { SERVER_BODY_LIMIT } from "../../src/http/body-size";
import { MAX_JSON_DEPTH, MAX_SCENARIO_NODES, tooDeep } from "../../src/lib/json-limits";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

let t: TestApp;
let cookie: string;
let projectId: number;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  cookie = await loginAs(t, 1301);
  projectId = t.ctx.projects.create(1301, { name: "Limits" }).id;
});
afterAll(() => t.cleanup());

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const node = (i: number, extra = "") => `{"id":"n${i}","type":"message","position":{"x":0,"y":0},"data":{"messageText":"m"${extra}}}`;
/** A scenario document as JSON text: `nodes` message nodes, the first carrying `extra` (JSON text) in its data. */
function scenario(nodes: number, extra?: string): string {
  const list = Array.from({ length: nodes }, (_, i) => node(i, i === 0 && extra ? `,"extra":${extra}` : ""));
  return `{"sheets":[{"id":"s1","name":"Main","nodes":[${list.join(",")}],"edges":[]}]}`;
}

/** Every path that takes a scenario, with the body carrying `doc` (JSON text). */
const PATHS: { name: string; method: string; path: () => string; body: (doc: string) => string }[] = [
  { name: "project create", method: "POST", path: () => "/api/projects", body: (d) => `{"name":"x","data":${d}}` },
  { name: "project PUT", method: "PUT", path: () => `/api/projects/${projectId}`, body: (d) => `{"data":${d}}` },
  { name: "project create, json_data as a string", method: "POST", path: () => "/api/projects", body: (d) => JSON.stringify({ name: "x", data: { json_data: d } }) },
  { name: "bot API import", method: "POST", path: () => "/api/bot/projects/import", body: (d) => d },
  { name: "bot API import (a JSON string)", method: "POST", path: () => "/api/bot/projects/import", body: (d) => JSON.stringify(d) },
  { name: "bot API data", method: "PUT", path: () => `/api/bot/projects/${projectId}/data`, body: (d) => d },
  { name: "template create", method: "POST", path: () => "/api/templates", body: (d) => `{"name":"x","data":${d}}` },
];

async function send(p: (typeof PATHS)[number], doc: string) {
  return t.call(p.method, p.path(), { cookie, body: p.body(doc), headers: { "content-type": "application/json" } });
}

describe("nesting depth", () => {
  test("the walk is iterative and exact at the limit", () => {
    expect(tooDeep(JSON.parse(nested(MAX_JSON_DEPTH)))).toBeNull();
    expect(tooDeep(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).not.toBeNull();
    expect(tooDeep(JSON.parse(nested(200_000)))).not.toBeNull();
    expect(tooDeep({ a: [{ b: 1 }], c: "x" }, 3)).toBeNull();
    expect(tooDeep({ a: [{ b: {} }] }, 3)).toBe("a.0.b");
    expect(tooDeep({ x: JSON.parse(nested(100)) })).toContain("(level 65)");
  });

  for (const levels of [65, 20_000, 40_000]) {
    test(`${levels} levels: 400 naming the limit on every path, nothing stored`, async () => {
      const before = t.ctx.db.select().from(projects).all().length;
      for (const p of PATHS) {
        const r = await send(p, scenario(1, nested(levels)));
        expect([p.name, r.status, r.body?.error]).toEqual([p.name, 400, "VALIDATION_FAILED"]);
        expect(r.body.message).toContain("deeper than 64 levels");
      }
      expect(t.ctx.db.select().from(projects).all().length).toBe(before);
      expect(t.logs.filter((l) => l.startsWith("error"))).toEqual([]);
    });
  }

  test("a body exactly at the limit is accepted, one level more is not", async () => {
    // the node's data object is level 7 of the create body: extra arrays take levels 8..
    expect((await send(PATHS[0], scenario(1, nested(MAX_JSON_DEPTH - 7)))).status).toBe(201);
    expect((await send(PATHS[0], scenario(1, nested(MAX_JSON_DEPTH - 6)))).status).toBe(400);
  });
});

describe("node count", () => {
  test(`${MAX_SCENARIO_NODES + 1} nodes: 400 on every path; ${MAX_SCENARIO_NODES} are accepted`, async () => {
    const over = scenario(MAX_SCENARIO_NODES + 1);
    for (const p of PATHS) {
      const r = await send(p, over);
      expect([p.name, r.status]).toEqual([p.name, 400]);
      expect(r.body.message).toContain("at most 20,000");
    }
    expect((await send(PATHS[0], scenario(MAX_SCENARIO_NODES))).status).toBe(201);
  }, 60_000);
});

describe("rows stored before the limits", () => {
  test("generate, export, bot API export, restoring a version and starting a bot answer 400, never 500 or a gigabyte", async () => {
    const deep = scenario(1, nested(20_000));
    const id = t.ctx.projects.create(1301, { name: "Legacy" }).id;
    t.ctx.db.update(projects).set({ data: deep }).where(eq(projects.id, id)).run();
    const version = t.ctx.db.insert(projectVersions).values({ projectId: id, data: deep, nodesCount: 1 }).returning().get();
    const token = t.ctx.db.insert(botTokens).values({ projectId: id, token: "123456:legacy-token-for-limits", name: "Legacy" }).returning().get();
    for (const [method, path] of [
      ["POST", `/api/projects/${id}/generate`],
      ["POST", `/api/projects/${id}/export`],
      ["GET", `/api/bot/projects/${id}/export`],
      ["POST", `/api/projects/${id}/versions/${version.id}/restore`],
      ["POST", `/api/bot/tokens/${token.id}/start`],
    ] as const) {
      const r = await t.call(method, path, { cookie, json: method === "POST" ? {} : undefined });
      expect([path, r.status]).toEqual([path, 400]);
      expect(r.text.length).toBeLessThan(2000);
      expect(r.body.message).toContain("64 levels");
    }
    expect(t.logs.filter((l) => l.startsWith("error"))).toEqual([]);
  });
});

describe("a 200k-node scenario on a real server", () => {
  test("is refused with 400 and the health check answers meanwhile", async () => {
    const server = createApp(t.ctx).listen({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: SERVER_BODY_LIMIT });
    try {
      const base = `http://127.0.0.1:${server.server!.port}`;
      // minimal nodes, so that 200,000 of them fit the 10 MB body limit
      const body = `{"sheets":[{"id":"s","name":"S","nodes":[${Array.from({ length: 200_000 }, (_, i) => `{"id":"${i}","type":"x"}`).join(",")}]}]}`;
      expect(body.length).toBeLessThan(10 * 1024 * 1024);
      const t0 = performance.now();
      const big = fetch(`${base}/api/bot/projects/import`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body });
      const health = fetch(`${base}/api/health`);
      const [r, h] = await Promise.all([big, health]);
      const ms = performance.now() - t0;
      expect(r.status).toBe(400);
      expect((await r.json()).message).toContain("200000 nodes");
      expect(h.status).toBe(200);
      console.log(`200k-node import: 400 after ${Math.round(ms)} ms (body ${(body.length / 1048576).toFixed(1)} MB)`);
    } finally {
      server.stop(true);
    }
  }, 60_000);
});
