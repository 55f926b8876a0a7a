// The listener `serve` opens before the app's code is loaded (src/listener.ts): until the app is
// handed over it answers the health probe itself, exactly as the app's route would, and holds every
// other request for the app instead of refusing it.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { websocket } from "elysia/ws";
import { listen, type Listener } from "../../src/listener";
import { healthStatus } from "../../src/modules/health/status";
import { createTestApp } from "../support/app";

const t = createTestApp();
const listeners: Listener[] = [];
afterAll(() => {
  for (const l of listeners) l.server.stop(true);
  t.cleanup();
});

function loadingListener(sqlite: Database = t.ctx.db.$client) {
  const l = listen({ host: "127.0.0.1", port: 0, health: () => healthStatus(sqlite, false) });
  listeners.push(l);
  return { l, url: `http://127.0.0.1:${l.port}` };
}

/** Whether `p` is still pending after the listener has had time to answer anything it would answer. */
async function pending(p: Promise<unknown>): Promise<boolean> {
  const marker = Symbol();
  // A few hundred milliseconds: an answer from the listener itself takes well under one.
  return (await Promise.race([p, Bun.sleep(300).then(() => marker)])) === marker;
}

const headersOf = (r: Response) => Object.fromEntries([...r.headers].filter(([k]) => k !== "date" && k !== "content-length"));

describe("while the app loads", () => {
  test("GET /api/health answers from the database, as the app's route does (templates not loaded yet)", async () => {
    const { url } = loadingListener();
    const early = await fetch(`${url}/api/health?probe=1`);
    const fromApp = await t.app.handle(new Request("http://localhost/api/health"));
    expect(early.status).toBe(200);
    expect(await early.json()).toEqual({ database: true, templates: false, ready: true });
    expect(fromApp.status).toBe(200);
    expect(Object.keys(await fromApp.json()).sort()).toEqual(["database", "ready", "templates"]);
    expect(headersOf(early)).toEqual(headersOf(fromApp));
    expect(early.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("HEAD /api/health is 204 with an empty body", async () => {
    const { url } = loadingListener();
    const r = await fetch(`${url}/api/health`, { method: "HEAD" });
    expect(r.status).toBe(204);
    expect(await r.text()).toBe("");
  });

  test("a database that does not answer is reported, not hidden", async () => {
    const sqlite = new Database(":memory:");
    const { url } = loadingListener(sqlite);
    sqlite.close();
    const r = await fetch(`${url}/api/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ database: false, templates: false, ready: false });
  });

  test("every other request waits for the app and gets the app's answer", async () => {
    const { l, url } = loadingListener();
    const me = fetch(`${url}/api/auth/me`);
    const postHealth = fetch(`${url}/api/health`, { method: "POST", body: "{}" });
    const page = fetch(`${url}/admin/login`);
    expect(await pending(me)).toBe(true);
    expect(await pending(postHealth)).toBe(true);
    expect(l.opened).toBe(false);
    l.open(t.app, websocket);
    expect(l.opened).toBe(true);
    const [a, b, c] = await Promise.all([me, postHealth, page]);
    const expected = await Promise.all([
      t.app.handle(new Request("http://localhost/api/auth/me")),
      t.app.handle(new Request("http://localhost/api/health", { method: "POST", body: "{}" })),
      t.app.handle(new Request("http://localhost/admin/login")),
    ]);
    expect([a.status, b.status, c.status]).toEqual(expected.map((r) => r.status));
    expect(await a.json()).toEqual(await expected[0]!.json());
    expect(await c.text()).toContain('name="key"');
    // From now on the app answers health too: the templates are loaded.
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ database: true, templates: true, ready: true });
  });

  test("opening twice is refused", () => {
    const { l } = loadingListener();
    l.open(t.app, websocket);
    expect(() => l.open(t.app, websocket)).toThrow("already open");
  });
});

describe("Elysia through the listener", () => {
  // A small Elysia app: what the listener must pass on is Elysia's own machinery (WebSocket
  // upgrades through `server`, the client address), whatever the routes are.
  const probe = new Elysia()
    .get("/address", ({ server, request }) => server?.requestIP(request)?.address ?? "none")
    .post("/length", async ({ request }) => String((await request.text()).length), { parse: "none" })
    .ws("/echo", { message: (ws, message) => ws.send(`echo:${message}`) });

  test("WebSockets upgrade and talk through the listener", async () => {
    const { l, url } = loadingListener();
    l.open(probe, websocket);
    const ws = new WebSocket(`${url.replace("http", "ws")}/echo`);
    const reply = new Promise<string>((resolve, reject) => {
      ws.onmessage = (e) => resolve(String(e.data));
      ws.onerror = () => reject(new Error("websocket failed"));
    });
    await new Promise((resolve) => (ws.onopen = resolve));
    ws.send("hi");
    expect(await reply).toBe("echo:hi");
    ws.close();
  });

  test("a WebSocket asked for while the app loads is upgraded once it is ready", async () => {
    const { l, url } = loadingListener();
    const ws = new WebSocket(`${url.replace("http", "ws")}/echo`);
    const opened = new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error("websocket failed"));
    });
    expect(await pending(opened)).toBe(true);
    l.open(probe, websocket);
    await opened;
    const reply = new Promise<string>((resolve) => (ws.onmessage = (e) => resolve(String(e.data))));
    ws.send("early");
    expect(await reply).toBe("echo:early");
    ws.close();
  });

  test("a body sent while the app loads reaches the app whole", async () => {
    const { l, url } = loadingListener();
    const body = "x".repeat(2_000_000);
    const echoed = fetch(`${url}/length`, { method: "POST", body });
    expect(await pending(echoed)).toBe(true);
    l.open(probe, websocket);
    expect(await (await echoed).text()).toBe(String(body.length));
  });

  test("routes see the server: the client's address", async () => {
    const { l, url } = loadingListener();
    l.open(probe, websocket);
    expect(await (await fetch(`${url}/address`)).text()).toBe("127.0.0.1");
  });
});
