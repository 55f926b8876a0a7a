// A small HTTP load generator that runs as its OWN process, so the server under test does not
// share an event loop (or a CPU) with the client. N concurrent keep-alive fetch loops, bounded by
// time and by a request count; a weighted mix of requests; one JSON line of figures on stdout.
//
//   bun bench/loadgen.ts '<json spec>'      (spec: see LoadSpec in bench/lib.ts)
//
// Each loop i uses `clients[i % clients.length]` for its headers and `{client}` substitutions,
// so a test can spread the load over many users. `{n}` in a path or body is a per-run counter.
import type { LoadSpec, LoadFigures, TargetFigures } from "./lib";

const spec = JSON.parse(process.argv[2] ?? process.env.LOADGEN_SPEC ?? "null") as LoadSpec | null;
if (!spec || !Array.isArray(spec.targets) || spec.targets.length === 0) {
  console.error("usage: bun bench/loadgen.ts '<json spec>'");
  process.exit(2);
}

const clients = spec.clients?.length ? spec.clients : [{}];
const weights = spec.targets.map((t) => t.weight ?? 1);
const totalWeight = weights.reduce((a, b) => a + b, 0);
let counter = 0;

// One latency buffer per target; grown by doubling (no per-request allocation).
const lat = spec.targets.map(() => ({ buf: new Float64Array(4096), n: 0 }));
const errors = spec.targets.map(() => 0);
const statusCounts: Record<string, number> = {};
const errorSamples: string[] = [];

function pick(): number {
  if (spec!.targets.length === 1) return 0;
  let r = Math.random() * totalWeight;
  for (let i = 0; i < weights.length; i++) if ((r -= weights[i]) < 0) return i;
  return weights.length - 1;
}

function fill(s: string, vars: Record<string, string>): string {
  return s.includes("{") ? s.replace(/\{(\w+)\}/g, (m, k) => vars[k] ?? m) : s;
}

function push(i: number, ms: number) {
  const l = lat[i];
  if (l.n === l.buf.length) {
    const next = new Float64Array(l.buf.length * 2);
    next.set(l.buf);
    l.buf = next;
  }
  l.buf[l.n++] = ms;
}

function figures(buf: Float64Array, n: number) {
  const s = buf.slice(0, n).sort();
  const at = (q: number) => (n ? Number(s[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))].toFixed(3)) : 0);
  return { p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99), maxMs: n ? Number(s[n - 1].toFixed(3)) : 0 };
}

const okStatus = (status: number, t: LoadSpec["targets"][number]) => (t.expect ? t.expect.includes(status) : status >= 200 && status < 400);

async function loop(id: number, deadline: number, measuring: () => boolean, budget: { left: number }) {
  const client = clients[id % clients.length];
  while (performance.now() < deadline && budget.left > 0) {
    budget.left--;
    const ti = pick();
    const t = spec!.targets[ti];
    const vars = { ...(client.vars ?? {}), n: String(counter++) };
    const headers = { ...(spec!.headers ?? {}), ...(client.headers ?? {}), ...(t.headers ?? {}) };
    const body = t.body === undefined ? undefined : fill(typeof t.body === "string" ? t.body : JSON.stringify(t.body), vars);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await fetch(fill(spec!.base + t.path, vars), { method: t.method ?? "GET", headers, body, signal: AbortSignal.timeout(spec!.timeoutMs ?? 30_000) });
      await res.arrayBuffer();
      status = res.status;
    } catch (e) {
      if (errorSamples.length < 5) errorSamples.push(`${t.method ?? "GET"} ${t.path}: ${e instanceof Error ? e.message : e}`);
    }
    const ms = performance.now() - t0;
    if (!measuring()) continue;
    push(ti, ms);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    if (!okStatus(status, t)) {
      errors[ti]++;
      if (status && errorSamples.length < 5) errorSamples.push(`${t.method ?? "GET"} ${t.path}: HTTP ${status}`);
    }
  }
}

const warmupMs = (spec.warmupSeconds ?? 0) * 1000;
const start = performance.now();
const measureFrom = start + warmupMs;
const deadline = measureFrom + spec.seconds * 1000;
const budget = { left: spec.maxRequests ?? Number.MAX_SAFE_INTEGER };
let measureStart = measureFrom;
let warmed = warmupMs === 0;
const measuring = () => {
  if (warmed) return true;
  if (performance.now() >= measureFrom) {
    warmed = true;
    measureStart = performance.now();
    budget.left = spec.maxRequests ?? Number.MAX_SAFE_INTEGER;
  }
  return warmed;
};
await Promise.all(Array.from({ length: spec.connections }, (_, i) => loop(i, deadline, measuring, budget)));
const seconds = (performance.now() - measureStart) / 1000;

const all = new Float64Array(lat.reduce((a, l) => a + l.n, 0));
let off = 0;
for (const l of lat) {
  all.set(l.buf.subarray(0, l.n), off);
  off += l.n;
}
const perTarget: TargetFigures[] = spec.targets.map((t, i) => ({
  name: t.name ?? `${t.method ?? "GET"} ${t.path}`,
  requests: lat[i].n,
  errors: errors[i],
  ...figures(lat[i].buf, lat[i].n),
}));
const out: LoadFigures = {
  requests: all.length,
  errors: errors.reduce((a, b) => a + b, 0),
  seconds: Number(seconds.toFixed(2)),
  rps: Math.round(all.length / seconds),
  ...figures(all, all.length),
  connections: spec.connections,
  statusCounts,
  ...(spec.targets.length > 1 ? { targets: perTarget } : {}),
  ...(errorSamples.length ? { errorSamples } : {}),
};
console.log(JSON.stringify(out));
