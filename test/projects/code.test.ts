import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { projectMediaFileIds } from "../../src/db/project-schema";
import { botTokens, mediaFiles, projects } from "../../src/db/schema";
import { addCollaborator, COLLAB, newProject, team, type Team } from "./helpers";

let s: Team;
afterEach(() => s?.t.cleanup());

const doc = {
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "Hello", imageUrl: "/uploads/7/photo/a.jpg" } }],
      edges: [],
    },
  ],
};

function seedTokensAndMedia(s: Team, projectId: number) {
  const db = s.t.ctx.db;
  // the FIRST token (lowest id) carries the flags; the second must not be read
  const first = db.insert(botTokens).values({ projectId, token: "11111:AAAAAAAAAAAAAAAAAAAAAAAAAAAAA", name: "first", catchAllHandlers: 1, protectContent: 1, contentCache: 1 }).returning().get().id;
  const second = db.insert(botTokens).values({ projectId, token: "22222:BBBBBBBBBBBBBBBBBBBBBBBBBBBBB", name: "second" }).returning().get().id;
  // File ids belong to one bot: the bot records them per token in its project's database file.
  db.insert(mediaFiles).values({ projectId, objectKey: "7/photo/a.jpg", kind: "photo", fileName: "a.jpg", mimeType: "image/jpeg", size: 1 }).run();
  db.insert(mediaFiles).values({ projectId, objectKey: "7/photo/b.jpg", kind: "photo", fileName: "b.jpg", mimeType: "image/jpeg", size: 1 }).run();
  // An object-store file is cached under its own link, /uploads/s/<config>/<key>.
  db.insert(mediaFiles).values({ projectId, storageConfigId: "remote", objectKey: "7/photo/c.jpg", kind: "photo", fileName: "c.jpg", mimeType: "image/jpeg", size: 1 }).run();
  const ids = [
    [first, "/uploads/7/photo/a.jpg", "CACHED_FILE_ID"],
    [second, "/uploads/7/photo/a.jpg", "SECOND_BOT_ID"],
    [first, "/uploads/s/remote/7/photo/c.jpg", "REMOTE_FILE_ID"],
    [second, "/uploads/s/remote/7/photo/c.jpg", "SECOND_REMOTE"],
    // media the project no longer has is never offered
    [first, "/uploads/7/photo/deleted.jpg", "GONE_FILE_ID"],
  ] as const;
  const own = s.t.ctx.projectFiles.open(projectId);
  for (const [tokenId, mediaUrl, fileId] of ids) own.insert(projectMediaFileIds).values({ tokenId, mediaUrl, fileId }).run();
}

describe("generate and export (rule 6)", () => {
  test("generate reads the first token's flags and cached media ids; answers code, lines, generatedAt", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { name: "Shop", data: doc, userDatabaseEnabled: 0 });
    addCollaborator(s.t, id, COLLAB);
    seedTokensAndMedia(s, id);
    const before = Date.now();
    const r = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.collab, json: { enableLogging: true, ignored: "x" } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["code", "generatedAt", "lines", "warnings"]);
    expect(r.body.warnings).toEqual([]);
    expect(r.body.code).toContain('from "grammy"');
    expect(r.body.lines).toBe((r.body.code.match(/\n/g) ?? []).length); // the generator counts newline-terminated lines
    expect(Number.isInteger(r.body.generatedAt) && r.body.generatedAt >= before).toBe(true);
    for (const line of ["userDatabase: false", "logging: true", "catchAll: true", "protectContent: true", "contentCache: true"]) expect(r.body.code).toContain(line);
    expect(r.body.code).toContain('"/uploads/7/photo/a.jpg": "CACHED_FILE_ID"');
    expect(r.body.code).toContain('"/uploads/s/remote/7/photo/c.jpg": "REMOTE_FILE_ID"');
    expect(r.body.code).not.toContain("b.jpg");
    expect(r.body.code).not.toContain("SECOND_BOT_ID");
    expect(r.body.code).not.toContain("GONE_FILE_ID");
    expect(r.body.code).not.toContain("AAAAAAAAAAAAAAAAAAAAAAAAAAAAA");

    // the body may override the user database switch; without a body the project's value is used
    const withDb = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, json: { userDatabaseEnabled: true } });
    expect(withDb.body.code).toContain("userDatabase: true");
    const noBody = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner });
    expect(noBody.status).toBe(200);
    expect(noBody.body.code).toContain("userDatabase: false");
    expect(noBody.body.code).toContain("logging: false");
  });

  test("generate answers gzip to a client that accepts it: the plain answer's bytes, compressed; Vary on both", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { name: "Shop", data: doc });
    const plain = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, json: {} });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
    expect(plain.headers.get("content-type")).toStartWith("application/json");
    const cases: [string, boolean][] = [
      ["gzip, deflate, br", true],
      ["br;q=1.0, GZIP;q=0.5", true],
      ["*", true],
      ["gzip;q=0", false],
      ["gzip;q=0, *", false],
      ["*;q=0", false],
      ["identity", false],
      ["deflate, br", false],
      ["", false],
    ];
    for (const [acceptEncoding, compressed] of cases) {
      const r = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, json: {}, headers: { "accept-encoding": acceptEncoding } });
      expect([acceptEncoding, r.status, r.headers.get("content-encoding")]).toEqual([acceptEncoding, 200, compressed ? "gzip" : null]);
      expect(r.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
      expect(r.headers.get("content-type")).toStartWith("application/json");
      // the same program from the cache: the same answer, generatedAt included
      expect(new TextDecoder().decode(compressed ? Bun.gunzipSync(r.bytes) : r.bytes)).toBe(plain.text);
      if (compressed) expect(r.bytes.byteLength).toBeLessThan(plain.bytes.byteLength);
    }
  });

  test("generate answers warnings with node, sheet and a stable code; the OpenAPI document describes them", async () => {
    s = await team();
    const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
    const withProblems = {
      sheets: [
        {
          id: "s1",
          name: "Main",
          nodes: [
            node("cmd", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
            node("hello", "message", { messageText: "Hi", autoTransitionTo: "gone" }),
            node("lonely", "message", { messageText: "nobody comes here" }),
            node("ub", "userbot_message", {}),
            node("future", "teleport_user", {}),
            node("note", "comment", { text: "a remark" }),
          ],
          edges: [],
        },
      ],
    };
    const id = await newProject(s.t, s.owner, { name: "Warn", data: withProblems });
    const r = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner });
    expect(r.status).toBe(200);
    const byCode = (code: string) => r.body.warnings.filter((w: { code: string }) => w.code === code).map((w: { nodeId: string }) => w.nodeId);
    expect(byCode("DANGLING_TARGET")).toEqual(["hello"]);
    expect(byCode("UNREACHABLE")).toEqual(expect.arrayContaining(["lonely", "ub", "future"]));
    expect(byCode("NODE_TYPE_OUT_OF_SCOPE")).toEqual(["ub"]);
    expect(byCode("NODE_TYPE_UNKNOWN")).toEqual(["future"]);
    // a comment is ignored silently
    expect(r.body.warnings.filter((w: { nodeId: string }) => w.nodeId === "note")).toEqual([]);
    for (const w of r.body.warnings) {
      expect(Object.keys(w).sort()).toEqual(["code", "message", "nodeId", "sheetId"]);
      expect(w.sheetId).toBe("s1");
    }
    expect(r.body.warnings.find((w: { nodeId: string }) => w.nodeId === "ub").message).toContain("user account session");
    const docs = await s.t.call("GET", "/api/openapi.json");
    const op = docs.body.paths["/api/projects/{id}/generate"].post;
    const schema = op.responses["200"].content["application/json"].schema;
    const item = schema.properties.warnings.items;
    expect(Object.keys(item.properties).sort()).toEqual(["code", "detail", "message", "nodeId", "sheetId"]);
    expect(item.required.sort()).toEqual(["code", "message", "nodeId", "sheetId"]);
    expect(Object.keys(item.properties.detail.properties).sort()).toEqual(["key", "params"]);
  });

  test("the generator's own warnings keep their English message and add detail: { key, params } (docs/api.md)", async () => {
    s = await team();
    const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
    const data = {
      sheets: [
        {
          id: "s1",
          name: "Main",
          nodes: [
            node("cmd", "command_trigger", { command: "/pay", autoTransitionTo: "bill" }),
            node("bill", "invoice", { title: "Tea", description: "A cup", amount: "20000", autoTransitionTo: "ub" }),
            node("ub", "userbot_message", {}),
          ],
          edges: [],
        },
      ],
    };
    const id = await newProject(s.t, s.owner, { name: "Keys", data });
    const r = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      // validation's warnings are as they were: the Studio words them from their code
      {
        nodeId: "ub",
        sheetId: "s1",
        code: "NODE_TYPE_OUT_OF_SCOPE",
        message: 'Node "ub" has type "userbot_message", which Botloom does not run: it needs a Telegram user account session, which a bot token cannot provide; the bot skips it.',
      },
      {
        nodeId: "bill",
        sheetId: "s1",
        code: "INVALID_DATA",
        message: 'Node "bill": amount "20000" is out of range: a whole number of Stars from 1 to 10000.',
        detail: { key: "invoice.amountRange", params: { node: "bill", amount: "20000", max: 10000 } },
      },
      {
        nodeId: "bill",
        sheetId: "s1",
        code: "TARGET_NOT_RUNNABLE",
        message: 'Node "bill": autoTransitionTo leads to "ub" (userbot_message), which is skipped; the flow stops there.',
        detail: { key: "target.skipped", params: { node: "bill", field: "autoTransitionTo", targetNode: "ub", targetType: "userbot_message" } },
      },
    ]);
  });

  test("export passes no flags and no media ids; userDatabaseEnabled exactly when the project has 1", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: doc, userDatabaseEnabled: 1 });
    seedTokensAndMedia(s, id);
    const r = await s.t.call("POST", `/api/projects/${id}/export`, { cookie: s.owner });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["code"]);
    for (const line of ["userDatabase: true", "catchAll: false", "protectContent: false", "contentCache: false"]) expect(r.body.code).toContain(line);
    expect(r.body.code).not.toContain("CACHED_FILE_ID");

    // through the API: the project's one writer (a direct write of the row is not what the product does, stored-texts.ts)
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { userDatabaseEnabled: 0 } })).status).toBe(200);
    expect((await s.t.call("POST", `/api/projects/${id}/export`, { cookie: s.owner })).body.code).toContain("userDatabase: false");
  });

  test("same input, same code; a project without tokens generates with no flags", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: doc });
    const a = await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, json: {} });
    const b = await s.t.call("POST", `/api/projects/${id}/export`, { cookie: s.owner });
    expect(a.body.code).toBe(b.body.code);
    expect(a.body.code).toContain("catchAll: false");
  });

  test("a program generated before answers again only while the scenario, name, flags and media ids are unchanged", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { name: "Shop", data: doc });
    const code = async () => ((await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, json: {} })).body.code as string);
    const parallel = await Promise.all(Array.from({ length: 8 }, code));
    expect(new Set(parallel).size).toBe(1);
    expect(parallel[0]).toContain("Hello");

    const edited = JSON.parse(JSON.stringify(doc));
    edited.sheets[0].nodes[0].data.messageText = "Welcome back";
    s.t.ctx.db.update(projects).set({ data: JSON.stringify(edited) }).where(eq(projects.id, id)).run();
    const afterEdit = await code();
    expect(afterEdit).toContain("Welcome back");
    expect(afterEdit).not.toContain('"Hello"');
    // the old scenario again: its program (kept or not) is the old one
    s.t.ctx.db.update(projects).set({ data: JSON.stringify(doc) }).where(eq(projects.id, id)).run();
    expect(await code()).toBe(parallel[0]!);

    s.t.ctx.db.update(projects).set({ name: "Renamed shop" }).where(eq(projects.id, id)).run();
    expect(await code()).toContain("Renamed shop");
    seedTokensAndMedia(s, id);
    const withToken = await code();
    expect(withToken).toContain("catchAll: true");
    expect(withToken).toContain('"/uploads/7/photo/a.jpg": "CACHED_FILE_ID"');
    s.t.ctx.db.update(botTokens).set({ catchAllHandlers: 0 }).where(eq(botTokens.projectId, id)).run();
    expect(await code()).toContain("catchAll: false");
  });

  test("an unusable stored scenario → 400 with the generator's messages", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner);
    s.t.ctx.db.update(projects).set({ data: JSON.stringify({ sheets: [{ id: "s", nodes: [{ type: "message" }] }] }) }).where(eq(projects.id, id)).run();
    for (const path of ["generate", "export"]) {
      const r = await s.t.call("POST", `/api/projects/${id}/${path}`, { cookie: s.owner, json: path === "generate" ? {} : undefined });
      expect([path, r.status, r.body.error]).toEqual([path, 400, "VALIDATION_FAILED"]);
      expect(r.body.issues.length).toBeGreaterThan(0);
      expect(r.body.message).toContain("id");
    }
  });

  test("403 stranger, 404 missing, 400 bad id or body", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: doc });
    for (const path of ["generate", "export"]) {
      expect((await s.t.call("POST", `/api/projects/${id}/${path}`, { cookie: s.stranger })).status).toBe(403);
      expect((await s.t.call("POST", `/api/projects/999/${path}`, { cookie: s.owner })).status).toBe(404);
      expect((await s.t.call("POST", `/api/projects/x/${path}`, { cookie: s.owner })).status).toBe(400);
    }
    expect((await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, json: { userDatabaseEnabled: "yes" } })).status).toBe(400);
    expect((await s.t.call("POST", `/api/projects/${id}/generate`, { cookie: s.owner, body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
  });
});
