// First load of the Studio's projects page in Chromium, cold cache, over loopback: first
// contentful paint and the time until the project list is on screen, the bytes and the gzip size
// of the JavaScript shipped for that page. Same-run baseline: a static HTML page served by a bare
// Bun.serve, loaded the same way. Median of --runs (default 7). Prints ONE JSON line.
//
//   bun bench/studio.ts [--runs 7]
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { botLogs } from "../src/db/schema";
import { arg, bareServer, latency, ratio, ROOT, round, runBench, startPlatform } from "./lib";

const RUNS = arg("runs", 7);
const CHROMIUM = "/usr/bin/chromium";
const SHELL_BUDGET_KB = 250;
const FCP_BUDGET_MS = 500;

const STATIC_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title>
<style>body{font:15px system-ui;margin:2rem}</style></head><body><h1>Projects</h1><ul><li>One</li><li>Two</li></ul></body></html>`;

interface Load {
  fcpMs: number;
  readyMs: number;
  jsUrls: string[];
}

await runBench("studio", async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install -y chromium)`);
  const { chromium } = await import("playwright-core");
  const p = await startPlatform();
  const cookie = await p.login(4242);
  for (let i = 0; i < 20; i++) {
    await fetch(`${p.url}/api/projects`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name: `Project ${i}` }) });
  }
  const logs = await logsPollCost(p, cookie);
  const bare = bareServer(STATIC_PAGE, "text/html; charset=utf-8");
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  const [name, value] = cookie.split("=");

  /** One cold load: a fresh context has an empty cache. */
  const load = async (url: string, ready: string): Promise<Load> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    if (url.startsWith(p.url)) await context.addCookies([{ name: name!, value: value!, url: p.url }]);
    const page = await context.newPage();
    const jsUrls: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") jsUrls.push(new URL(r.url()).pathname);
    });
    const t0 = Date.now();
    await page.goto(url);
    await page.locator(ready).first().waitFor({ timeout: 20_000 });
    const readyMs = Date.now() - t0;
    const fcpMs = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const e = performance.getEntriesByName("first-contentful-paint")[0];
          if (e) return resolve(e.startTime);
          new PerformanceObserver((l) => resolve(l.getEntries()[0]!.startTime)).observe({ type: "paint", buffered: true });
        }),
    );
    await context.close();
    return { fcpMs, readyMs, jsUrls };
  };

  // One warm-up of each so the browser process itself is not what is measured.
  await load(`${bare.url}/`, "h1");
  await load(`${p.url}/projects`, "[data-testid=project-list] li");
  const app: Load[] = [];
  const base: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(await load(`${bare.url}/`, "h1"));
    app.push(await load(`${p.url}/projects`, "[data-testid=project-list] li"));
  }
  await browser.close();

  const dist = join(ROOT, "web", "dist");
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  const js = [...new Set(app[0]!.jsUrls)];
  const jsBytes = js.reduce((a, u) => a + size(join(dist, u)), 0);
  const jsGzipBytes = js.reduce((a, u) => a + size(join(dist, `${u}.gz`)), 0);
  const css = [...new Bun.Glob("assets/index-*.css.gz").scanSync(dist)];
  const cssGzipBytes = css.reduce((a, f) => a + size(join(dist, f)), 0);
  const fcp = latency(app.map((x) => x.fcpMs));
  const fcpBase = latency(base.map((x) => x.fcpMs));
  const ready = latency(app.map((x) => x.readyMs));
  const readyBase = latency(base.map((x) => x.readyMs));
  const shellKB = round((jsGzipBytes + cssGzipBytes) / 1024, 1);
  return {
    runs: RUNS,
    projectsPage: { fcpMs: round(fcp.p50Ms, 1), fcpMaxMs: round(fcp.maxMs, 1), listReadyMs: round(ready.p50Ms, 1) },
    staticHtml: { fcpMs: round(fcpBase.p50Ms, 1), readyMs: round(readyBase.p50Ms, 1) },
    fcpVsStatic: ratio(fcp.p50Ms, fcpBase.p50Ms),
    shipped: { scripts: js.length, jsKB: round(jsBytes / 1024, 1), jsGzipKB: round(jsGzipBytes / 1024, 1), cssGzipKB: round(cssGzipBytes / 1024, 1) },
    shellGzipKB: shellKB,
    logsPoll: logs,
    budgets: { shellGzipKB: SHELL_BUDGET_KB, fcpMs: FCP_BUDGET_MS, shellWithin: shellKB <= SHELL_BUDGET_KB, fcpWithin: fcp.p50Ms <= FCP_BUDGET_MS },
  };
});

/**
 * What one poll of the Logs tab costs: GET /api/projects/{id}/logs/all?limit=200 on a project with
 * 5,000 log lines of 150+ characters (the tab's request), median latency over 50 polls and bytes
 * per poll; the baseline is GET /api/auth/me, the smallest authenticated request.
 */
async function logsPollCost(p: Awaited<ReturnType<typeof startPlatform>>, cookie: string) {
  const project = await (await fetch(`${p.url}/api/projects`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name: "Logs" }) })).json();
  const rows = Array.from({ length: 5000 }, (_, i) => ({ projectId: project.id as number, tokenId: 1, level: i % 10 ? "stdout" : "stderr", message: `[chat ${100000 + i}] node message_${i} (message) ${"x".repeat(140)}` }));
  for (let i = 0; i < rows.length; i += 500) p.ctx.db.insert(botLogs).values(rows.slice(i, i + 500)).run();
  const time = async (path: string) => {
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      const r = await fetch(`${p.url}${path}`, { headers: { cookie, "accept-encoding": "identity" } });
      bytes = (await r.arrayBuffer()).byteLength;
      samples.push(performance.now() - t0);
    }
    return { p50Ms: round(latency(samples).p50Ms, 2), kb: round(bytes / 1024, 1) };
  };
  const poll = await time(`/api/projects/${project.id}/logs/all?limit=200`);
  const me = await time("/api/auth/me");
  return { poll, authMe: me, pollVsAuthMe: ratio(poll.p50Ms, me.p50Ms), intervalMs: 2000 };
}
