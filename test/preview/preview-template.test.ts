// "Try it" on a template's page: POST /api/templates/{id}/preview runs the template's scenario as a
// preview bot without making a project; the session is the caller's alone; a hidden template is 404.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { PreviewDriver } from "./support";

let t: TestApp;
let ann: string;
let bob: string;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  ann = await loginAs(t, 601);
  bob = await loginAs(t, 602);
});
afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

describe("POST /api/templates/{id}/preview", () => {
  test("the English FAQ answers /start with its topic buttons; no project is made; another user gets 404 for the session", async () => {
    const list = await t.call("GET", "/api/templates?language=en&perPage=100", { cookie: ann });
    const faq = list.body.items.find((x: any) => x.name === "FAQ bot");
    const projectsBefore = (await t.call("GET", "/api/projects", { cookie: ann })).body;
    const created = await t.call("POST", `/api/templates/${faq.id}/preview`, { cookie: ann });
    expect(created.status).toBe(201);
    expect(created.body.projectId).toBe(0);
    const chat = new PreviewDriver(t, ann, created.body.id);
    await chat.act({ type: "text", text: "/start" });
    const said = await chat.botSays((m) => m.some((x) => x.startsWith("Hi, ")));
    expect(JSON.stringify(said.at(-1)!.replyMarkup)).toContain("Shipping");
    expect((await t.call("GET", "/api/projects", { cookie: ann })).body).toEqual(projectsBefore);
    expect((await t.call("GET", `/api/preview/${created.body.id}`, { cookie: bob })).status).toBe(404);
    expect((await t.call("DELETE", `/api/preview/${created.body.id}`, { cookie: ann })).status).toBe(200);
  }, 60_000);

  test("someone else's private template: 404; a bad id: 400; no credentials: 401", async () => {
    const p = await t.call("POST", "/api/templates", { cookie: ann, json: { name: "Private", data: { sheets: [] } } });
    expect((await t.call("POST", `/api/templates/${p.body.id}/preview`, { cookie: bob })).status).toBe(404);
    expect((await t.call("POST", "/api/templates/x/preview", { cookie: bob })).status).toBe(400);
    expect((await t.call("POST", `/api/templates/${p.body.id}/preview`)).status).toBe(401);
    // it takes no body: anything in one is refused before a bot starts
    const bad = await t.call("POST", `/api/templates/${p.body.id}/preview`, { cookie: ann, json: { document: { sheets: [] } } });
    expect(bad.status).toBe(400);
    expect(t.ctx.preview.count).toBe(0);
  });
});
