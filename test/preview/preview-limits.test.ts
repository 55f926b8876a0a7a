// The preview limits are checked and taken in one step: 32 parallel starts by one user leave him
// exactly his limit of sessions (a newer start ends his oldest), and another user starting at the
// same time is not refused for a server "full" of that user's sessions.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { greeterScenario } from "../bots/scenario-fixture";

let t: TestApp;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

async function projectOf(cookie: string) {
  const r = await t.call("POST", "/api/projects", { cookie, json: { name: "Race", data: greeterScenario } });
  expect(r.status).toBe(201);
  return r.body.id as number;
}

const live = async (cookie: string, ids: string[]) => (await Promise.all(ids.map(async (id) => (await t.call("GET", `/api/preview/${id}`, { cookie })).status))).filter((s) => s === 200).length;

test("32 parallel preview starts by one user leave exactly his limit; another user's parallel starts all succeed", async () => {
  const { perUser, total } = t.ctx.preview.options;
  expect([perUser, total]).toEqual([2, 16]);
  const racer = await loginAs(t, 1701);
  const other = await loginAs(t, 1702);
  const [mine, theirs] = [await projectOf(racer), await projectOf(other)];
  const start = (cookie: string, projectId: number) => t.call("POST", `/api/projects/${projectId}/preview`, { cookie, json: {} });
  const [racing, calm] = await Promise.all([
    Promise.all(Array.from({ length: 32 }, () => start(racer, mine))),
    Promise.all(Array.from({ length: perUser }, () => start(other, theirs))),
  ]);
  expect(racing.map((r) => r.status)).toEqual(racing.map(() => 201));
  expect(calm.map((r) => [r.status, r.body.status])).toEqual(calm.map(() => [201, "running"]));
  expect(await live(racer, racing.map((r) => r.body.id))).toBe(perUser);
  expect(await live(other, calm.map((r) => r.body.id))).toBe(perUser);
  expect(t.ctx.preview.count).toBe(2 * perUser);
  // The racer's surviving sessions run, and a bad start (a malformed request) takes no slot.
  for (const r of racing) if ((await t.call("GET", `/api/preview/${r.body.id}`, { cookie: racer })).status === 200) expect(r.body.status).toBe("running");
  expect((await t.call("POST", `/api/projects/${mine}/preview`, { cookie: racer, json: { document: "nope" } })).status).toBe(400);
  expect(t.ctx.preview.count).toBe(2 * perUser);
}, 120_000);
