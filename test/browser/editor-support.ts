// Shared setup of the editor's Chromium tests: a platform listening on loopback (bots against the
// fake messenger), a logged-in page, and helpers to find nodes, handles and edges on the canvas.
import { afterAll, beforeAll } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createApp } from "../../src/app";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { launchBrowser, type Browser } from "../support/browser";
import { freePort } from "../support/process";

export interface EditorEnv {
  t: TestApp;
  fake: FakeMessenger;
  base: string;
  b: Browser;
  cookie: string;
  userId: number;
  close(): Promise<void>;
}

export async function editorEnv(opts: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" } = {}): Promise<EditorEnv> {
  const fake = await startFakeMessenger();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // the editor's "send test request" reaches the tests' loopback services: the operator's allow list
  const t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, EGRESS_ALLOW: "127.0.0.1" } });
  await setUp(t);
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  const userId = 4242;
  const cookie = await loginAs(t, userId, { firstName: "Ada" });
  const b = await launchBrowser(opts);
  // the browser logs in as the same user through dev login
  await b.page.goto(`${base}/login`);
  await b.page.getByLabel("User id").fill(String(userId));
  await b.page.getByLabel("First name").fill("Ada");
  await b.page.getByRole("button", { name: "Log in" }).click();
  await b.page.waitForURL(/\/projects$/);
  await b.page.evaluate(() => localStorage.setItem("botloom.editor.autosave", "0"));
  return {
    t,
    fake,
    base,
    b,
    cookie,
    userId,
    async close() {
      await b.close();
      await t.ctx.bots.shutdown();
      app.server?.stop(true);
      await fake.stop();
      t.cleanup();
    },
  };
}

/**
 * A one-sheet scenario: /start, then a message node for each text 320 px apart, each leading to the
 * next (ids "go" and each text in lower case): the small sheet the layout tests place panels around.
 */
export function chainDoc(texts: string[]) {
  const ids = texts.map((t) => t.toLowerCase());
  const nodes = [
    { id: "go", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", autoTransitionTo: ids[0] } },
    ...texts.map((text, i) => ({
      id: ids[i],
      type: "message",
      position: { x: 320 * (i + 1), y: 0 },
      data: { messageText: text, ...(i + 1 < ids.length && { autoTransitionTo: ids[i + 1] }) },
    })),
  ];
  return { sheets: [{ id: "main", name: "Main", nodes, edges: [] }] };
}

export async function newProject(env: EditorEnv, name: string, data?: unknown): Promise<number> {
  const r = await env.t.call("POST", "/api/projects", { cookie: env.cookie, json: { name, ...(data ? { data } : {}) } });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body.id;
}

/**
 * A describe block's project to preview, a chain that says "Hi": a signed-in browser and the project
 * before its tests, every preview stopped and the browser closed after them.
 */
export function previewedProject(name: string): { env: EditorEnv; projectId: number } {
  const it = {} as { env: EditorEnv; projectId: number };
  beforeAll(async () => {
    it.env = await editorEnv();
    it.projectId = await newProject(it.env, name, chainDoc(["Hi"]));
  }, 60_000);
  afterAll(async () => {
    await it.env?.t.ctx.preview.stopAll();
    await it.env?.close();
  }, 30_000);
  return it;
}

/** The four looks a screen is checked in: a phone and a desktop, each light and dark. */
export const LOOKS = [
  ["phone", { width: 390, height: 844 }, "light"],
  ["phone", { width: 390, height: 844 }, "dark"],
  ["desktop", { width: 1280, height: 800 }, "light"],
  ["desktop", { width: 1280, height: 800 }, "dark"],
] as const;

/** Opens the project's Preview tab in one of LOOKS and waits for its bot to run; answers the chat. */
export async function openPreview(env: EditorEnv, projectId: number, viewport: { width: number; height: number }, scheme: "light" | "dark") {
  const { page } = env.b;
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto(`${env.base}/projects/${projectId}/preview`);
  const chat = page.getByTestId("preview-chat");
  await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
  return chat;
}

export async function openEditor(page: Page, base: string, projectId: number) {
  await page.goto(`${base}/projects/${projectId}/scenario`);
  await page.getByTestId("editor").waitFor();
  await page.locator(".react-flow__renderer").waitFor();
}

export const nodeIds = (page: Page) => page.locator(".react-flow__node-scenario .ed-node").evaluateAll((els) => els.map((e) => e.getAttribute("data-node-id")!));
export const nodeEl = (page: Page, id: string) => page.locator(`.ed-node[data-node-id="${id}"]`);
export const handle = (page: Page, id: string, handleId: string) => page.locator(`.react-flow__node[data-id="${id}"] .react-flow__handle[data-handleid="${handleId}"]`);
export const edgeCount = (page: Page) => page.locator(".react-flow__edge").count();

/** Drags a connection from one handle to another with real pointer moves (React Flow listens to those). */
export async function connect(page: Page, from: { id: string; handle: string }, toId: string) {
  const a = await handle(page, from.id, from.handle).boundingBox();
  const b = await handle(page, toId, "in").boundingBox();
  if (!a || !b) throw new Error("handle not visible");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

/**
 * Selects the node by clicking its header. A node out of view or under a floating panel is first
 * selected by a synthetic click; the canvas then pans it clear of the panels, and the real click follows.
 */
export async function pick(page: Page, id: string) {
  const node = nodeEl(page, id);
  const head = node.locator(".ed-head");
  const inView = () =>
    head.evaluate((h) => {
      const a = h.getBoundingClientRect();
      const c = document.querySelector(".ed-canvas")!.getBoundingClientRect();
      return a.top >= c.top && a.left >= c.left && a.bottom <= c.bottom && a.right <= c.right && document.elementFromPoint(a.left + a.width / 2, a.top + a.height / 2)?.closest(".ed-head") === h;
    });
  if (!(await inView())) {
    await head.dispatchEvent("click");
    await node.and(page.locator(".selected")).waitFor();
  }
  // Playwright aims at where the header is, then clicks: if the view pans in between (a panel that
  // opens moves it, slowly on a busy machine) the click lands on the pane, which selects nothing.
  // So aim once everything is still, and click again if it missed.
  for (let attempt = 1; ; attempt++) {
    await settled(page);
    await head.click();
    if (await node.and(page.locator(".selected")).waitFor({ timeout: 5_000 }).then(() => true, () => false)) return;
    if (attempt === 3) throw new Error(`three clicks on the header of node ${id} left it unselected`);
  }
}

/**
 * Waits until the node boxes stop moving (layout, nudging and the view all done): the same in two
 * looks 250 ms apart, both taken by this call (the last look of the call before stood for "the same"
 * when nothing had moved yet, and the view that a resize makes follow starts to move a frame later).
 */
export async function settled(page: Page) {
  await page.evaluate(() => void delete (window as unknown as { __boxes?: string }).__boxes);
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __boxes?: string };
      const now = JSON.stringify([...document.querySelectorAll(".react-flow__node")].map((e) => { const r = e.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; }));
      const same = w.__boxes === now;
      w.__boxes = now;
      return same && now !== "[]";
    },
    undefined,
    { polling: 250, timeout: 20_000 },
  );
}

/** Every pair of node boxes (scenario nodes and portal chips) that intersect, as ids. */
export const overlaps = (page: Page) =>
  page.evaluate(() => {
    const boxes = [...document.querySelectorAll(".react-flow__node")].map((e) => ({ id: e.getAttribute("data-id")!, r: e.getBoundingClientRect() }));
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.r, b = boxes[j]!.r;
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push(`${boxes[i]!.id} × ${boxes[j]!.id}`);
      }
    return out;
  });

export const zoomOf = (page: Page) => page.locator(".react-flow__viewport").evaluate((e) => new DOMMatrix(getComputedStyle(e).transform).a);

/** The older platform's real files, read from ../shared/compat (never copied into the repo). */
export const COMPAT_DIR = join(import.meta.dir, "..", "..", "..", "shared", "compat");

/** `current/x.json`-style names of every compat file; none (and a warning) when they are absent. */
export function compatFiles(suite: string): string[] {
  const files = existsSync(COMPAT_DIR) ? ["current", "legacy"].flatMap((f) => readdirSync(join(COMPAT_DIR, f)).filter((n) => n.endsWith(".json")).map((n) => `${f}/${n}`)) : [];
  if (!files.length) console.warn(`[${suite}] SKIPPED: ../shared/compat/*/*.json not found`);
  return files;
}

/** The scenario document of a compat file. */
export const compatData = (file: string) => JSON.parse(readFileSync(join(COMPAT_DIR, file), "utf8")).data;
