// First load of the Studio's projects page in Chromium, cold cache, over loopback: first
// contentful paint and the time until the project list is on screen, the bytes and the gzip size
// of the JavaScript shipped for that page. Same-run baseline: a static HTML page served by a bare
// Bun.serve, loaded the same way. Median of --runs (default 7). Prints ONE JSON line.
//
//   bun bench/studio.ts [--runs 7]
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
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
    budgets: { shellGzipKB: SHELL_BUDGET_KB, fcpMs: FCP_BUDGET_MS, shellWithin: shellKB <= SHELL_BUDGET_KB, fcpWithin: fcp.p50Ms <= FCP_BUDGET_MS },
  };
});
