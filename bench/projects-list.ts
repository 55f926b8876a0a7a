// Throughput and latency of GET /api/projects/list for a user with 100 projects of 50 nodes each,
// through a real listening server, next to a bare Bun.serve answering a JSON of the same size in
// the same run (the floor of this machine). Prints ONE JSON line.
//
//   bun bench/projects-list.ts [--requests 10000] [--concurrency 32]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { buildContext } from "../src/bootstrap";
import { createApp } from "../src/app";
import { createLogger } from "../src/log";

const PROJECTS = 100;
const NODES = 50;
const USER = 424242;

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} must be a positive integer`);
  return v;
}
const REQUESTS = arg("requests", 10_000);
const CONCURRENCY = arg("concurrency", 32);
const WARMUP = Math.min(1000, REQUESTS);

function scenario(p: number) {
  return {
    sheets: [
      {
        id: "sheet-1",
        name: "Main",
        nodes: Array.from({ length: NODES }, (_, i) => ({
          id: `p${p}n${i}`,
          type: "message",
          position: { x: i * 40, y: i * 20 },
          data: { messageText: `Message ${i} of project ${p}: ${"lorem ipsum ".repeat(8)}`, keyboardType: "none", buttons: [] },
        })),
        edges: [],
      },
    ],
  };
}

interface Figures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Fixed number of requests over CONCURRENCY in-flight connections; per-request latency. */
async function load(url: string, headers: Record<string, string>, requests: number): Promise<Figures> {
  const latencies = new Float64Array(requests);
  let next = 0;
  const worker = async () => {
    while (true) {
      const i = next++;
      if (i >= requests) return;
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      latencies[i] = performance.now() - t0;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  const sorted = latencies.sort();
  const pct = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(3));
  return { rps: Math.round(requests / seconds), p50Ms: pct(0.5), p99Ms: pct(0.99), maxMs: Number(sorted[sorted.length - 1].toFixed(3)) };
}

const dir = mkdtempSync(join(tmpdir(), "botloom-bench-"));
try {
  const config = loadConfig({ DATA_DIR: join(dir, "data"), BOTS_DIR: join(dir, "bots"), UPLOADS_DIR: join(dir, "uploads"), SESSION_SECRET: "bench-session-secret-0123456789", LOG_LEVEL: "silent" });
  const ctx = buildContext(config, { log: createLogger("silent") });
  await ctx.settings.update({ auth: { loginMode: "dev_login" } });
  ctx.auth.upsertUser({ id: USER, firstName: "Bench" });
  for (let p = 0; p < PROJECTS; p++) ctx.projects.create(USER, { name: `Project ${p}`, description: `Bench project ${p}`, data: scenario(p) });

  const app = createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server!.port}`;
  const login = await fetch(`${base}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: USER }) });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith("connect.sid="))!.split(";")[0];
  const headers = { cookie };

  const sample = await fetch(`${base}/api/projects/list`, { headers });
  const body = await sample.text();
  const items = JSON.parse(body);
  if (sample.status !== 200 || items.length !== PROJECTS || items[0].nodeCount !== NODES) throw new Error(`unexpected list: ${sample.status}`);

  // The floor: the same JSON (re-serialised per request, like a handler does) from a bare server.
  const bare = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(JSON.stringify(items), { headers: { "content-type": "application/json" } }),
  });
  const bareUrl = `http://127.0.0.1:${bare.port}/`;

  await load(`${base}/api/projects/list`, headers, WARMUP);
  await load(bareUrl, {}, WARMUP);
  const appFig = await load(`${base}/api/projects/list`, headers, REQUESTS);
  const bareFig = await load(bareUrl, {}, REQUESTS);

  await app.stop(true);
  bare.stop(true);
  ctx.db.$client.close();

  console.log(
    JSON.stringify({
      bench: "projects-list",
      projects: PROJECTS,
      nodesPerProject: NODES,
      responseBytes: Buffer.byteLength(body),
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      app: appFig,
      bare: bareFig,
      appVsBare: Number((appFig.rps / bareFig.rps).toFixed(3)),
      bun: Bun.version,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
