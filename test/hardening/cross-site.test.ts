// docs/security.md "Cross-site requests": the session cookie (SameSite=Lax) goes with a form or a
// fetch from any page of the same site (another port, a sibling subdomain), so a browser's request
// that changes something and says another site sent it is refused; reads, the server's own pages,
// scripts without browser headers and PATs are not judged. The admin cookie (SameSite=Lax as well)
// follows the same rule: a sibling's form cannot switch the login mode or mint a bot_manager token.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { adminLogin, createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";

let t: TestApp;
let cookie: string;
let pat: string;
let projectId: number;
beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  cookie = await loginAs(t, 5101);
  pat = patFor(t, 5101);
  projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Mine" } })).body.id;
});
afterAll(() => t.cleanup());

const SIBLING = { origin: "http://shop.localhost", "sec-fetch-site": "same-site" };
const OTHER_PORT = { origin: "http://localhost:8080" };
const OWN = { origin: "http://localhost", "sec-fetch-site": "same-origin" };
const rename = (headers: Record<string, string>, auth: { cookie?: string; bearer?: string }, name: string) =>
  t.call("PUT", `/api/projects/${projectId}`, { ...auth, headers, json: { name } });

const cases: { name: string; call: () => ReturnType<typeof t.call>; status: number }[] = [
  { name: "a sibling subdomain's page renames with the session: 403", call: () => rename(SIBLING, { cookie }, "From a sibling"), status: 403 },
  { name: "another port's page (Origin only) renames with the session: 403", call: () => rename(OTHER_PORT, { cookie }, "From another port"), status: 403 },
  { name: "a form post (text/plain) of another site creates with the session: 403", call: () => t.call("POST", "/api/bot/projects/import", { cookie, headers: { ...SIBLING, "content-type": "text/plain" }, body: JSON.stringify({ sheets: [] }) }), status: 403 },
  { name: "a sibling's page deletes the project with the session: 403", call: () => t.call("DELETE", `/api/bot/projects/${projectId}`, { cookie, headers: SIBLING }), status: 403 },
  { name: "the server's own page renames: 200", call: () => rename(OWN, { cookie }, "From the Studio"), status: 200 },
  { name: "a script without browser headers renames with the session: 200", call: () => rename({}, { cookie }, "From a script"), status: 200 },
  { name: "a PAT is judged by no Origin: 200", call: () => rename(SIBLING, { bearer: pat }, "With a PAT"), status: 200 },
  { name: "a sibling's page reads with the session: 200 (reads change nothing)", call: () => t.call("GET", `/api/projects/${projectId}`, { cookie, headers: SIBLING }), status: 200 },
];

for (const c of cases) {
  test(c.name, async () => {
    const r = await c.call();
    expect(r.status).toBe(c.status);
    if (c.status === 403) expect(r.body).toMatchObject({ error: "FORBIDDEN" });
  });
}

test("a refused cross-site write changed nothing", async () => {
  const names = ["From a sibling", "From another port"];
  const got = (await t.call("GET", `/api/projects/${projectId}`, { cookie })).body.name;
  expect(names).not.toContain(got);
  // the refused import made no project and the refused delete left this one
  expect((await t.call("GET", "/api/bot/projects", { cookie })).body.items.map((p: { id: number }) => p.id)).toEqual([projectId]);
});

test("the admin area: a sibling's page can neither change the settings nor mint a token with the admin cookie; the admin's own pages can", async () => {
  const admin = await adminLogin(t);
  const mode = async () => (await t.call("GET", "/api/auth/config")).body.loginMode;
  const before = await mode();
  const toDev = { auth: { loginMode: before === "dev_login" ? "messenger_widget" : "dev_login" } };
  const put = await t.call("PUT", "/admin/api/app-settings", { cookie: admin, headers: SIBLING, json: toDev });
  expect([put.status, put.body?.error]).toEqual([403, "FORBIDDEN"]);
  const mint = await t.call("POST", "/admin/api/pats", { cookie: admin, headers: OTHER_PORT, json: { name: "stolen", userId: 777, scopes: ["bot_manager"] } });
  expect([mint.status, mint.body?.error]).toEqual([403, "FORBIDDEN"]);
  expect(await mode()).toBe(before);
  expect((await t.call("GET", "/admin/api/pats", { cookie: admin, headers: SIBLING })).body.items.map((p: { name: string }) => p.name)).not.toContain("stolen");
  // the admin's own page
  expect((await t.call("POST", "/admin/api/pats", { cookie: admin, headers: OWN, json: { name: "own", userId: 778, scopes: ["bot_manager"] } })).status).toBe(201);
});
