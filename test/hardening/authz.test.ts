// Authorization matrix: every endpoint × every kind of caller, against docs/api.md's rules (the
// older platform's paths and Botloom's own). Callers: nobody, a stranger, a collaborator and the
// owner (session cookies), the bot-manager client (bot_manager PAT) acting for the owner and for
// the stranger, and the admin (admin cookie only). Each success runs on a fresh fixture, so calls
// that change or delete things never decide the outcome of another column.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ROUTES, expectCleanError, fill, hardening, makeFixture, OWNER, STRANGER, type Hardening, type Ids } from "./fixture";
import { CALLERS, CODE, MATRIX, runRow } from "./matrix";

let h: Hardening;
let shared: Ids;

beforeAll(async () => {
  h = await hardening();
  shared = await makeFixture(h);
});
afterAll(() => h.close());

test("the matrix covers every route of the catalogue", () => {
  const norm = (p: string) => p.replace(/\{[^}]+\}/g, ":p");
  const inMatrix = new Set(MATRIX.map((r) => `${r.method} ${norm(r.path)}`));
  expect(ROUTES.map((r) => `${r.method} ${norm(r.path)}`).filter((k) => !inMatrix.has(k))).toEqual([]);
});

describe("every endpoint × every caller", () => {
  for (const row of MATRIX) {
    test(`${row.method} ${row.path}`, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const { caller, path, expected, r } of await runRow(h, row, CALLERS, shared)) {
        got[caller] = r.status;
        want[caller] = expected;
        if (r.status >= 400) {
          expectCleanError(r, `${row.method} ${path} as ${caller}`);
          if (r.status === 401) expect(r.body?.error ?? "ADMIN_UNAUTHORIZED").toBe(row.path.startsWith("/admin/") ? "ADMIN_UNAUTHORIZED" : "UNAUTHORIZED");
          else if (CODE[r.status] && r.text) expect(r.body.error).toBe(CODE[r.status]);
        }
      }
      expect(got).toEqual(want);
    });
  }
});

describe("actor rules of /api/bot/* (docs/api.md)", () => {
  const botRows = MATRIX.filter((r) => r.path.startsWith("/api/bot/") && (r.method === "GET" || r.method === "HEAD"));

  test("a bot_manager PAT without messenger_id is 400 on every GET of the group", async () => {
    for (const row of botRows) {
      const r = await h.call(row.method, fill(row.path, shared), { bearer: h.managerPat });
      expectCleanError(r, `${row.method} ${row.path}`);
      expect(r.status).toBe(400);
    }
  });

  test("an ordinary PAT or session naming another user is 403; naming oneself is fine", async () => {
    for (const row of botRows) {
      const path = fill(row.path, shared);
      for (const opts of [{ bearer: h.ownerPat }, { cookie: h.owner }]) {
        const foreign = await h.call(row.method, `${path}?messenger_id=${STRANGER}`, opts);
        expectCleanError(foreign, `${row.method} ${path} naming a stranger`);
        expect(foreign.status).toBe(403);
        expect((await h.call(row.method, `${path}?messenger_id=${OWNER}`, opts)).status).toBe(200);
        expect((await h.call(row.method, `${path}?telegram_id=${OWNER}`, opts)).status).toBe(200);
      }
    }
  });

  test("a resource that does not exist is 404 for a member, never a hint for a stranger", async () => {
    const missing = { ...shared, project: 999_999, token: 999_999, env: 999_999, botUser: "123456789" };
    for (const row of botRows.filter((r) => r.path.includes("{"))) {
      const r = await h.call(row.method, fill(row.path, missing), { cookie: h.owner });
      expectCleanError(r, `${row.method} ${row.path} (missing)`);
      expect(r.status).toBe(404);
    }
  });
});
