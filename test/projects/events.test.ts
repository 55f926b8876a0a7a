// Live events over a real listening server and real WebSocket clients.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { loginAs, patFor } from "../support/app";
import { addCollaborator, COLLAB, OWNER, STRANGER, team, type Team } from "./helpers";

/** A WebSocket client that queues what it receives. */
class Client {
  readonly received: any[] = [];
  private waiters: ((m: any) => void)[] = [];
  /** the close code, once the server closed the socket */
  readonly closed: Promise<number>;
  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.addEventListener("close", (e) => resolve(e.code)));
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      const w = this.waiters.shift();
      if (w) w(msg);
      else this.received.push(msg);
    };
  }

  static async open(url: string, headers: Record<string, string>): Promise<Client> {
    const ws = new WebSocket(url, { headers } as any);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("websocket failed to open"));
    });
    return new Client(ws);
  }

  next(): Promise<any> {
    const queued = this.received.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close() {
    this.ws.close();
  }
}

let s: Team;
let server: ReturnType<ReturnType<typeof createApp>["listen"]>;
let base: string;
const clients: Client[] = [];

beforeEach(async () => {
  s = await team();
  server = createApp(s.t.ctx).listen({ port: 0, hostname: "127.0.0.1" });
  base = `127.0.0.1:${server.server!.port}`;
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.stop(true);
  s.t.cleanup();
});

async function connect(cookie: string) {
  const c = await Client.open(`ws://${base}/api/events`, { cookie });
  clients.push(c);
  return c;
}

async function api(method: string, path: string, cookie: string, json?: unknown) {
  const res = await fetch(`http://${base}${path}`, {
    method,
    headers: { cookie, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: await res.json() };
}

const UPGRADE = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" };

describe("GET /api/events", () => {
  test("401 as a plain HTTP response without credentials or with bad ones", async () => {
    for (const headers of [UPGRADE, { ...UPGRADE, cookie: "connect.sid=forged" }, { ...UPGRADE, authorization: "Bearer mcp_nope" }]) {
      const res = await fetch(`http://${base}/api/events`, { headers });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("UNAUTHORIZED");
    }
    await expect(Client.open(`ws://${base}/api/events`, {})).rejects.toThrow();
  });

  test("a plain GET with credentials is a clear 400, not a missing route", async () => {
    const res = await fetch(`http://${base}/api/events`, { headers: { cookie: s.owner } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("WebSocket");
    expect((await fetch(`http://${base}/api/events`)).status).toBe(401);
  });

  test("each event reaches the right users and nobody else", async () => {
    const owner = await connect(s.owner);
    const ownerSecondTab = await connect(s.owner);
    const collab = await connect(s.collab);
    const stranger = await connect(s.stranger);

    // created → the creator
    const created = await api("POST", "/api/projects", s.owner, { name: "Live" });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(await owner.next()).toEqual({ event: "projects-changed", kind: "created", projectId: id });
    expect(await ownerSecondTab.next()).toEqual({ event: "projects-changed", kind: "created", projectId: id });

    // updated → every team member
    addCollaborator(s.t, id, COLLAB);
    expect((await api("PUT", `/api/projects/${id}`, s.collab, { name: "Live 2" })).status).toBe(200);
    expect(await owner.next()).toEqual({ event: "projects-changed", kind: "updated", projectId: id });
    expect(await collab.next()).toEqual({ event: "projects-changed", kind: "updated", projectId: id });
    expect((await ownerSecondTab.next()).kind).toBe("updated");

    // reordered → the caller only
    expect((await api("PUT", "/api/projects/reorder", s.owner, { projectIds: [id] })).status).toBe(200);
    expect(await owner.next()).toEqual({ event: "projects-changed", kind: "reordered", projectId: id });
    expect((await ownerSecondTab.next()).kind).toBe("reordered");

    // duplicate → created for the caller (the collaborator) only
    const copy = await api("POST", `/api/projects/${id}/duplicate`, s.collab, {});
    expect(copy.status).toBe(201);
    expect(await collab.next()).toEqual({ event: "projects-changed", kind: "created", projectId: copy.body.id });

    // deleted → owner and collaborator (computed before the collaborator rows go)
    expect((await api("DELETE", `/api/projects/${id}`, s.owner)).status).toBe(200);
    expect(await owner.next()).toEqual({ event: "projects-changed", kind: "deleted", projectId: id });
    expect(await collab.next()).toEqual({ event: "projects-changed", kind: "deleted", projectId: id });
    expect((await ownerSecondTab.next()).kind).toBe("deleted");

    // The stranger heard none of it: his first message is about his own project.
    const own = await api("POST", "/api/projects", s.stranger, { name: "Mine" });
    expect(await stranger.next()).toEqual({ event: "projects-changed", kind: "created", projectId: own.body.id });
    expect(stranger.received).toEqual([]);
    // ...and the others did not hear about the stranger's project; nothing else queued up.
    const marker = await api("POST", "/api/projects", s.owner, { name: "marker" });
    expect(await owner.next()).toEqual({ event: "projects-changed", kind: "created", projectId: marker.body.id });
    expect(owner.received).toEqual([]);
    const marker2 = await api("POST", "/api/projects", s.collab, { name: "marker" });
    expect((await collab.next()).projectId).toBe(marker2.body.id);
    expect(collab.received).toEqual([]);
    void OWNER;
    void STRANGER;
  });

  test("a Bearer PAT authenticates the socket; a closed socket does not break delivery", async () => {
    const pat = patFor(s.t, STRANGER);
    const viaPat = await Client.open(`ws://${base}/api/events`, { authorization: `Bearer ${pat}` });
    clients.push(viaPat);
    const gone = await connect(s.stranger);
    gone.close();
    const r = await api("POST", "/api/projects", s.stranger, { name: "p" });
    expect(await viaPat.next()).toEqual({ event: "projects-changed", kind: "created", projectId: r.body.id });
  });

  test("chat-message (docs/dialogs.md) reaches the project's owner and collaborators, nobody else", async () => {
    const id = (await api("POST", "/api/projects", s.owner, { name: "Chats" })).body.id;
    addCollaborator(s.t, id, COLLAB);
    const owner = await connect(s.owner);
    const collab = await connect(s.collab);
    const stranger = await connect(s.stranger);
    s.t.ctx.events.emit("chat-message", { projectId: id, tokenId: 7, chatId: "-1001234567890123", messageId: 42 });
    const expected = { event: "chat-message", projectId: id, tokenId: 7, chatId: "-1001234567890123", messageId: 42 };
    expect(await owner.next()).toEqual(expected);
    expect(await collab.next()).toEqual(expected);
    const own = await api("POST", "/api/projects", s.stranger, { name: "Mine" });
    expect(await stranger.next()).toEqual({ event: "projects-changed", kind: "created", projectId: own.body.id });
    expect(stranger.received).toEqual([]);
  });

  // docs/security.md "Live events": a handshake is not bound by CORS and the Lax session cookie goes
  // with it from any page of the same site (another port of the host, a sibling subdomain).
  test("a handshake from another origin's page is refused (403) before the upgrade; the server's own pages and non-browsers connect", async () => {
    const foreign: Record<string, string>[] = [{ origin: "http://127.0.0.1:1" }, { "sec-fetch-site": "same-site" }, { "sec-fetch-site": "cross-site", origin: `http://${base}` }];
    for (const headers of foreign) {
      const res = await fetch(`http://${base}/api/events`, { headers: { ...UPGRADE, cookie: s.owner, ...headers } });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe("FORBIDDEN");
    }
    const own: Record<string, string>[] = [{ origin: `http://${base}` }, { "sec-fetch-site": "same-origin" }, {}];
    for (const headers of own) {
      const c = await Client.open(`ws://${base}/api/events`, { cookie: s.owner, ...headers });
      clients.push(c);
    }
  });

  test("a socket whose session logged out, or whose PAT was revoked, gets no more events and is closed", async () => {
    const id = (await api("POST", "/api/projects", s.owner, { name: "Watched" })).body.id;
    const session = await loginAs(s.t, OWNER);
    const pat = s.t.ctx.auth.createPat(OWNER, "watcher", []);
    const bySession = await connect(session);
    const byPat = await Client.open(`ws://${base}/api/events`, { authorization: `Bearer ${pat.token}` });
    clients.push(byPat);
    const live = await connect(s.owner);
    expect((await api("POST", "/api/auth/logout", session)).status).toBe(200);
    expect((await api("DELETE", `/api/auth/pats/${pat.id}`, s.owner)).status).toBe(200);
    expect((await api("PUT", `/api/projects/${id}`, s.owner, { name: "Renamed" })).status).toBe(200);
    expect(await live.next()).toEqual({ event: "projects-changed", kind: "updated", projectId: id });
    for (const ended of [bySession, byPat]) {
      const first = await Promise.race([ended.closed.then((code) => ({ closed: code })), ended.next().then((message) => ({ message }))]);
      expect(first).toEqual({ closed: 4401 });
    }
  });
});
