// The Studio's preview records its conversation into its own state file (token 0), never into the
// project's file, and prints no live-event line (docs/dialogs.md "What is recorded").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { PreviewDriver } from "./support";

let t: TestApp;
let cookie: string;
let projectId: number;

const doc = {
  version: 2,
  sheets: [{ id: "s", name: "S", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "Hello from the preview" } }], edges: [] }],
};

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  cookie = await loginAs(t, 511);
  projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Preview store", data: doc } })).body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

test("a preview conversation lands in the preview's own file, both sides", async () => {
  const created = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie, json: {} });
  expect(created.status).toBe(201);
  const chat = new PreviewDriver(t, cookie, created.body.id);
  await chat.act({ type: "text", text: "/start" });
  await chat.botSays((m) => m.includes("Hello from the preview"));
  const path = (await t.ctx.preview.resourcesOf(created.body.id))?.database;
  expect(path).toBeString();
  const db = new Database(path!, { readonly: true });
  try {
    let rows: { direction: string; text: string; token_id: number }[] = [];
    for (let i = 0; i < 100 && rows.length < 2; i++) {
      if (i > 0) await Bun.sleep(20);
      rows = db.query("SELECT direction, text, token_id FROM bot_messages ORDER BY id").all() as typeof rows;
    }
    expect(rows).toEqual([
      { direction: "in", text: "/start", token_id: 0 },
      { direction: "out", text: "Hello from the preview", token_id: 0 },
    ]);
  } finally {
    db.close();
  }
  expect(t.ctx.projectFiles.existing(projectId)?.$client.query("SELECT count(*) AS n FROM bot_messages").get() ?? { n: 0 }).toEqual({ n: 0 });
});
