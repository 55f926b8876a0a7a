// The scenario editor in Chromium (built web app, real server on loopback). Prints ONE JSON line:
//  - open → interactive for vprogulke-admin-panel.json (216 nodes, 8 sheets), next to the same
//    path for an empty project (the same-run baseline: app shell + editor chunk, no nodes);
//  - open → interactive for every compat file (../shared/compat/*/*.json), freshly imported each run;
//  - the drawing walk of issue 27 (test/browser/drawing-walk.ts): the user actions it takes to draw
//    the small bot from an empty project, next to the text entries no editor can spare;
//  - pan and zoom frame rate of a generated 1,000-node sheet, measured with requestAnimationFrame
//    deltas while the pointer drags and the wheel zooms, next to the same gestures on an empty canvas.
// "Interactive": the sheet's node cards are all in the DOM and the main thread answers a task.
//
//   bun bench/editor.ts [--runs 5]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { loadConfig } from "../src/config";
import { buildContext } from "../src/bootstrap";
import { createApp } from "../src/app";
import { createLogger } from "../src/log";
import { haveChromium, launchBrowser } from "../test/support/browser";
import { drawWalk, WALK } from "../test/browser/drawing-walk";

const USER = 515151;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 5;
const COMPAT = join(import.meta.dir, "..", "..", "shared", "compat");
const VPROGULKE = join(COMPAT, "current", "vprogulke-admin-panel.json");
const compatFiles = existsSync(COMPAT) ? ["current", "legacy"].flatMap((d) => readdirSync(join(COMPAT, d)).filter((n) => n.endsWith(".json")).map((n) => `${d}/${n}`)) : [];

if (!haveChromium) {
  console.log(JSON.stringify({ bench: "editor", skipped: "no /usr/bin/chromium" }));
  process.exit(0);
}
// the built app is what users get; build it when missing
if (!existsSync(join(import.meta.dir, "..", "web", "dist", "bundle.ts"))) {
  const b = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "scripts", "build-web.ts")]);
  if (b.exitCode !== 0) throw new Error("web build failed");
}

/** A 1,000-node sheet: a grid of messages chained by auto transitions, every tenth with buttons. */
function bigScenario(n = 1000) {
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    type: i === 0 ? "command_trigger" : "message",
    position: { x: (i % 25) * 300, y: Math.floor(i / 25) * 200 },
    data:
      i === 0
        ? { command: "/start", autoTransitionTo: "n1" }
        : { messageText: `Step ${i}: hello {first_name}`, autoTransitionTo: i + 1 < n ? `n${i + 1}` : "", enableAutoTransition: true, ...(i % 10 === 0 ? { keyboardType: "inline", buttons: [{ id: `b${i}`, text: "Back", action: "goto", target: "n1" }] } : {}) },
  }));
  return { sheets: [{ id: "big", name: "Big", nodes, edges: [] }] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.floor(s.length / 2)]!.toFixed(1));
};

async function openMs(page: Page, url: string, expectNodes: number): Promise<number> {
  await page.goto("about:blank");
  const t0 = performance.now();
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelectorAll(".ed-node").length === n && !!document.querySelector(".react-flow__renderer"), expectNodes, { timeout: 30_000, polling: "raf" });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  return performance.now() - t0;
}

/** Frames while dragging the pane and wheel-zooming for about two seconds. */
async function gestureFps(page: Page): Promise<{ fps: number; p95FrameMs: number; frames: number }> {
  const box = (await page.locator(".react-flow__pane").boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.evaluate(() => {
    const w = window as any;
    w.__frames = [];
    w.__rec = true;
    const tick = (t: number) => {
      w.__frames.push(t);
      if (w.__rec) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  for (let round = 0; round < 2; round++) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx - 300, cy - 150, { steps: 30 });
    await page.mouse.move(cx + 200, cy + 100, { steps: 30 });
    await page.mouse.up();
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, i < 5 ? -120 : 120);
  }
  const frames: number[] = await page.evaluate(() => {
    const w = window as any;
    w.__rec = false;
    return w.__frames;
  });
  const deltas = frames.slice(1).map((t, i) => t - frames[i]!);
  const span = (frames.at(-1)! - frames[0]!) / 1000;
  const sorted = [...deltas].sort((a, b) => a - b);
  return { fps: Number((deltas.length / span).toFixed(1)), p95FrameMs: Number(sorted[Math.floor(sorted.length * 0.95)]!.toFixed(1)), frames: deltas.length };
}

const dir = mkdtempSync(join(tmpdir(), "botloom-bench-editor-"));
const browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
try {
  const config = loadConfig({ DATA_DIR: join(dir, "data"), BOTS_DIR: join(dir, "bots"), UPLOADS_DIR: join(dir, "uploads"), SESSION_SECRET: "bench-session-secret-0123456789", LOG_LEVEL: "silent" });
  const ctx = buildContext(config, { log: createLogger("silent") });
  await ctx.settings.update({ auth: { loginMode: "dev_login" } });
  ctx.auth.upsertUser({ id: USER, firstName: "Bench" });
  const empty = ctx.projects.create(USER, { name: "Empty" }).id;
  const big = ctx.projects.create(USER, { name: "Big", data: bigScenario() }).id;
  const haveCompat = existsSync(VPROGULKE);
  const vdata = haveCompat ? JSON.parse(readFileSync(VPROGULKE, "utf8")).data : null;
  const app = createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server!.port}`;
  const login = await fetch(`${base}/api/auth/dev-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: USER }) });
  const sid = login.headers.getSetCookie().find((c) => c.startsWith("connect.sid="))!.split(";")[0]!.split("=");
  await browser.context.addCookies([{ name: sid[0]!, value: sid.slice(1).join("="), url: base }]);
  const { page } = browser;
  await page.goto(`${base}/projects`);
  await page.evaluate(() => localStorage.setItem("botloom.editor.autosave", "0"));

  // a fresh import each run: the first open of a file is the one that lays out its sheets
  const openEmpty: number[] = [];
  const openV: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    openEmpty.push(await openMs(page, `${base}/projects/${empty}/scenario`, 0));
    if (vdata) {
      const id = ctx.projects.create(USER, { name: `V${i}`, data: vdata }).id;
      openV.push(await openMs(page, `${base}/projects/${id}/scenario`, vdata.sheets[0].nodes.length));
    }
  }

  // every compat file: its first sheet's nodes on the canvas, a fresh import each run
  const compat: Record<string, { nodes: number; medianMs: number; allMs: number[] }> = {};
  for (const file of compatFiles) {
    const data = JSON.parse(readFileSync(join(COMPAT, file), "utf8")).data;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const id = ctx.projects.create(USER, { name: `${file} ${i}`, data }).id;
      // the editor opens the file's active sheet (the first when it names none)
      const shown = data.sheets.find((x: any) => x.id === data.activeSheetId) ?? data.sheets[0];
      times.push(await openMs(page, `${base}/projects/${id}/scenario`, shown.nodes.length));
    }
    compat[file] = { nodes: data.sheets.reduce((a: number, s: any) => a + s.nodes.length, 0), medianMs: median(times), allMs: times.map((x) => Math.round(x)) };
  }

  // the drawing walk, once (its count does not vary between runs)
  const walkProject = ctx.projects.create(USER, { name: "Walk" }).id;
  await openMs(page, `${base}/projects/${walkProject}/scenario`, 0);
  const walk = await drawWalk(page);
  const textEntries = Object.keys(WALK).length; // every text the bot holds (messages, button labels, the variable)

  await openMs(page, `${base}/projects/${empty}/scenario`, 0);
  const emptyFps = await gestureFps(page);
  await openMs(page, `${base}/projects/${big}/scenario`, -1).catch(() => undefined);
  await page.locator(".ed-node").first().waitFor({ timeout: 30_000 });
  const bigFps = await gestureFps(page);
  const renderedAtFit = await page.locator(".ed-node").count();

  await app.stop(true);
  ctx.db.$client.close();
  console.log(
    JSON.stringify({
      bench: "editor",
      runs: RUNS,
      open: haveCompat
        ? { file: "vprogulke-admin-panel.json", nodes: vdata.sheets.reduce((a: number, s: any) => a + s.nodes.length, 0), medianMs: median(openV), allMs: openV.map((x) => Math.round(x)), emptyProjectMedianMs: median(openEmpty), budgetMs: 1000, withinBudget: median(openV) <= 1000 }
        : { skipped: "compat file absent", emptyProjectMedianMs: median(openEmpty) },
      openCompat: { files: compat, emptyProjectMedianMs: median(openEmpty) },
      drawingWalk: { actions: walk.actions, target: 25, meetsTarget: walk.actions <= 25, textEntriesBaseline: textEntries, issueReportedActions: 57 },
      panZoom: { nodes: 1000, renderedAtOpen: renderedAtFit, fps: bigFps.fps, p95FrameMs: bigFps.p95FrameMs, frames: bigFps.frames, emptyCanvasFps: emptyFps.fps, emptyCanvasP95FrameMs: emptyFps.p95FrameMs, target: 50, meetsTarget: bigFps.fps >= 50 },
    }),
  );
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
