import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { exportFileName } from "../../src/modules/bot-api/service";
import { patFor } from "../support/app";
import { addToken, botApiEnv, createProject, expectNoSecrets, OWNER, STRANGER, type BotApiEnv } from "./support";

/** The shared compatibility files live next to the repository (../shared/compat). */
const COMPAT_DIR = process.env.BOTLOOM_COMPAT_DIR ?? resolve(import.meta.dir, "../../../shared/compat");
const COMPAT_FILES = ["current", "legacy"].flatMap((d) => ["bot-manager.json", "cleanup-chat.json", "kotik-simple-anketa.json", "vprogulke-admin-panel.json"].map((f) => join(d, f)));
const haveCompat = COMPAT_FILES.every((f) => existsSync(join(COMPAT_DIR, f)));
if (!haveCompat) console.warn(`bot-api import tests: compat files not found under ${COMPAT_DIR}; the eight compat imports are SKIPPED`);

let env: BotApiEnv;
const botTokensSeen: string[] = [];

beforeAll(async () => {
  env = await botApiEnv();
});
afterAll(() => env.close());

const decode = (b64: string) => Buffer.from(b64, "base64").toString("utf8");
const dataOf = (id: number) => env.t.ctx.projects.getFull(id, OWNER).data;

/** A document with unknown fields at every level and the `connections` spelling. */
const RICH = {
  version: 2,
  activeSheetId: "s1",
  customTopLevel: { nested: [1, "two", null, { deep: true }] },
  sheets: [
    {
      id: "s1",
      name: "Главный",
      viewState: { pan: { x: 10, y: -4 }, zoom: 85 },
      unknownSheetField: "kept",
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "Привет, {first_name}! 👋", futureOption: { a: 1 } }, extraNodeField: 42 },
        { id: "m1", type: "message", position: { x: 100.5, y: 20 }, data: { messageText: "Line1\nLine2 \"quoted\" \\ backslash", buttons: [] } },
      ],
      connections: [{ id: "e1", source: "start", target: "m1", style: { dashed: true } }],
    },
  ],
  interSheetConnections: [],
};

describe("export", () => {
  test("{type:'file', data: base64 of the pretty-printed document, mimeType, fileName}", async () => {
    const pid = env.t.ctx.projects.create(OWNER, { name: "Экспорт: тест/1", data: RICH }).id;
    const { bot } = await addToken(env, pid);
    botTokensSeen.push(bot.token);
    const r = await env.call("GET", `/api/bot/projects/project_${pid}/export?telegram_id=${OWNER}`, { bearer: env.managerPat });
    expect(r.status).toBe(200);
    expect(r.body.type).toBe("file");
    expect(r.body.mimeType).toBe("application/json");
    expect(r.body.fileName).toBe("Экспорт_ тест_1.json");
    const text = decode(r.body.data);
    expect(text).toBe(JSON.stringify(RICH, null, 2));
    expect(JSON.parse(text)).toEqual(RICH);
    expect(text).not.toContain(bot.token);
  });

  test("errors: 400, 401, 403, 404", async () => {
    const pid = createProject(env, OWNER, "E");
    expect((await env.call("GET", `/api/bot/projects/${pid}/export`)).status).toBe(401);
    expect((await env.call("GET", `/api/bot/projects/${pid}/export`, { bearer: patFor(env.t, STRANGER) })).status).toBe(403);
    expect((await env.call("GET", `/api/bot/projects/434343/export`, { cookie: env.cookie })).status).toBe(404);
    expect((await env.call("GET", `/api/bot/projects/x/export`, { cookie: env.cookie })).status).toBe(400);
  });

  test("file names", () => {
    expect(exportFileName(3, "My Bot")).toBe("My Bot.json");
    expect(exportFileName(3, "../../etc/passwd")).toBe("_etc_passwd.json");
    expect(exportFileName(3, "///")).toBe("project_3.json");
    expect(exportFileName(3, "")).toBe("project_3.json");
  });
});

describe("import", () => {
  test("export → import round trip gives an equal document (unknown fields, connections, unicode) and no tokens", async () => {
    const src = env.t.ctx.projects.create(OWNER, { name: "Source", data: RICH }).id;
    const { bot } = await addToken(env, src);
    botTokensSeen.push(bot.token);
    const exported = await env.call("GET", `/api/bot/projects/${src}/export`, { cookie: env.cookie });
    const file = decode(exported.body.data);
    // as the bot-manager client sends a downloaded file: raw text, text/plain
    const r = await env.call("POST", `/api/bot/projects/import?telegram_id=${OWNER}`, { bearer: env.managerPat, body: file, headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(Number), name: "Импортированный проект" });
    expect(r.body.id).not.toBe(src);
    expect(dataOf(r.body.id)).toEqual(RICH);
    const again = await env.call("GET", `/api/bot/projects/${r.body.id}/export`, { cookie: env.cookie });
    expect(decode(again.body.data)).toBe(file);
    const tokens = await env.call("GET", `/api/bot/projects/${r.body.id}/tokens`, { cookie: env.cookie });
    expect(tokens.body.count).toBe(0);
  });

  test("accepted forms: {sheets}, {json_data} object and string, template record, legacy flat, application/json", async () => {
    const doc = { sheets: [{ id: "a", name: "A", nodes: [{ id: "n1", type: "start", position: { x: 0, y: 0 }, data: {} }], edges: [] }] };
    const forms: { body: unknown; name: string; expectDoc: unknown }[] = [
      { body: doc, name: "Импортированный проект", expectDoc: doc },
      { body: { ...doc, name: "Doc name" }, name: "Doc name", expectDoc: { ...doc, name: "Doc name" } },
      { body: { json_data: doc }, name: "Импортированный проект", expectDoc: doc },
      { body: { json_data: JSON.stringify(doc), name: "Wrapped" }, name: "Wrapped", expectDoc: doc },
      { body: { name: "Template", description: "From a template", category: "x", botToken: "123456:SHOULD-NOT-MATTER", data: doc }, name: "Template", expectDoc: doc },
      { body: { name: "Template str", data: JSON.stringify(doc) }, name: "Template str", expectDoc: doc },
    ];
    for (const f of forms) {
      const r = await env.call("POST", `/api/bot/projects/import`, { cookie: env.cookie, json: f.body });
      expect(r.status).toBe(200);
      expect(r.body.name).toBe(f.name);
      expect(dataOf(r.body.id)).toEqual(f.expectDoc);
    }
    const tpl = await env.call("POST", `/api/bot/projects/import`, { cookie: env.cookie, json: forms[4].body });
    expect((await env.call("GET", `/api/bot/projects/${tpl.body.id}`, { cookie: env.cookie })).body.description).toBe("From a template");
    expect(env.t.ctx.projects.getFull(tpl.body.id, OWNER).botToken).toBeNull();

    const legacy = { nodes: [{ id: "s", type: "start", position: { x: 0, y: 0 }, data: {} }, { id: "m", type: "message", position: { x: 0, y: 0 }, data: {} }], connections: [{ id: "c", source: "s", target: "m" }] };
    const r = await env.call("POST", `/api/bot/projects/import`, { bearer: env.pat, body: JSON.stringify(legacy), headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(200);
    const stored = dataOf(r.body.id) as any;
    expect(stored.sheets.length).toBe(1);
    expect(stored.sheets[0].nodes).toEqual(legacy.nodes);
    expect(stored.sheets[0].connections).toEqual(legacy.connections);
  });

  test("400 for no body or a wrong structure", async () => {
    const cases: (string | undefined)[] = [undefined, "", "   ", "null", "[]", "[1,2]", "42", '"text"', "{not json", "{}", JSON.stringify({ foo: 1 }), JSON.stringify({ sheets: "x" }), JSON.stringify({ json_data: "{bad" }), JSON.stringify({ json_data: 5 }), JSON.stringify({ name: "T", data: { foo: 1 } }), JSON.stringify({ sheets: [{ id: "s", nodes: [{ id: "a" }] }] }), JSON.stringify({ sheets: [{ id: "s", nodes: [{ id: "a", type: "start" }, { id: "a", type: "message" }] }] })];
    for (const body of cases) {
      for (const ct of ["application/json", "text/plain"]) {
        const r = await env.call("POST", `/api/bot/projects/import`, { cookie: env.cookie, body, headers: { "content-type": ct } });
        expect(r.status).toBe(400);
        expect(r.body.error).toBe("VALIDATION_FAILED");
        expect(typeof r.body.message).toBe("string");
      }
    }
    const missing = await env.call("POST", `/api/bot/projects/import`, { cookie: env.cookie });
    expect(missing.body.message).toContain("empty");
    expect((await env.call("POST", `/api/bot/projects/import`, { bearer: env.managerPat, json: { sheets: [] } })).status).toBe(400);
  });

  describe("the eight compat files", () => {
    for (const f of COMPAT_FILES) {
      test.skipIf(!haveCompat)(`imports ${f}`, async () => {
        const text = readFileSync(join(COMPAT_DIR, f), "utf8");
        const record = JSON.parse(text);
        const r = await env.call("POST", `/api/bot/projects/import?telegram_id=${OWNER}`, { bearer: env.managerPat, body: text, headers: { "content-type": "text/plain" } });
        expect(r.status).toBe(200);
        expect(r.body.name).toBe(record.name.trim().slice(0, 200));
        expect(dataOf(r.body.id)).toEqual(record.data);
        const info = env.t.ctx.projects.getItem(r.body.id, OWNER);
        expect(info.sheetsCount).toBe(record.data.sheets.length);
        expect(info.nodeCount).toBe(record.data.sheets.reduce((n: number, s: any) => n + s.nodes.length, 0));
        // and the document round-trips through export
        const exported = await env.call("GET", `/api/bot/projects/${r.body.id}/export`, { cookie: env.cookie });
        expect(JSON.parse(decode(exported.body.data))).toEqual(record.data);
        // the data-replace endpoint accepts the same file
        const put = await env.call("PUT", `/api/bot/projects/${r.body.id}/data`, { cookie: env.cookie, body: text, headers: { "content-type": "text/plain" } });
        expect(put.status).toBe(200);
        expect(put.body.nodesCount).toBe(info.nodeCount);
      });
    }
  });
});

test("no response body and no log line carries a bot token", () => {
  expectNoSecrets(env, botTokensSeen);
});
