// A preview of the stored scenario runs the program cached for it (scenario/codegen/program-cache.ts)
// only while that scenario is unchanged: after an edit the next preview runs the new one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { projects } from "../../src/db/schema";
import { commandNode, messageNode, scenarioOf } from "../support/hostile-sql";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { PreviewDriver } from "./support";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  cookie = await loginAs(t, 521);
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

const saying = (text: string) => scenarioOf(commandNode("c", "/start", "m"), messageNode("m", text));

async function previewSays(projectId: number): Promise<string[]> {
  const created = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie, json: {} });
  expect(created.status).toBe(201);
  const chat = new PreviewDriver(t, cookie, created.body.id);
  await chat.act({ type: "text", text: "/start" });
  const said = (await chat.botSays((m) => m.length > 0)).map((e) => e.text ?? "");
  expect((await t.call("DELETE", `/api/preview/${created.body.id}`, { cookie })).status).toBe(200);
  return said;
}

test("an unchanged stored scenario previews as before; an edited one runs its new program", async () => {
  const r = await t.call("POST", "/api/projects", { cookie, json: { name: "Cached", data: saying("first version") } });
  expect(r.status).toBe(201);
  const id = r.body.id as number;
  expect(await previewSays(id)).toEqual(["first version"]);
  expect(await previewSays(id)).toEqual(["first version"]);
  t.ctx.db.update(projects).set({ data: JSON.stringify(saying("second version")) }).where(eq(projects.id, id)).run();
  expect(await previewSays(id)).toEqual(["second version"]);
}, 60_000);
