// The session cookie is read from the Cookie header by the auth hooks themselves (src/http/auth.ts
// sessionCookieOf), not through Elysia's cookie jar: each form a browser or client may send must
// read as the jar read it, so the same requests are let in and refused as before.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sessionCookieOf } from "../../src/http/auth";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

test.each([
  [undefined, undefined],
  ["", undefined],
  ["theme=dark", undefined],
  ["connect.sid=abc.def", "abc.def"],
  ["theme=dark; connect.sid=abc.def; lang=ru", "abc.def"],
  ["connect.sid=first; connect.sid=second", "first"],
  ['connect.sid="abc.def"', '"abc.def"'],
  ["connect.sid=a%2Eb", "a.b"],
  ["connect.sid=a%E0%A4%A", "a%E0%A4%A"],
  ["connect.sid=", ""],
  ["xconnect.sid=abc; connect.sidx=def", undefined],
  ["  connect.sid = abc  ", "abc"],
])("sessionCookieOf(%p) is %p", (header, value) => {
  expect(sessionCookieOf(header)).toBe(value);
});

let t: TestApp;
let value: string;
beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  value = (await loginAs(t, 41)).replace(/^connect\.sid=/, "");
});
afterAll(() => t.cleanup());

test.each([
  ["alone", (v: string) => `connect.sid=${v}`, 200],
  ["among other cookies", (v: string) => `a=1; connect.sid=${v}; b=2`, 200],
  ["percent-encoded", (v: string) => `connect.sid=${encodeURIComponent(v).replace(".", "%2E")}`, 200],
  ["quoted (the jar did not unquote either)", (v: string) => `connect.sid="${v}"`, 401],
  ["first of two, the second wrong", (v: string) => `connect.sid=${v}; connect.sid=nope.nope`, 200],
  ["second of two, the first wrong", (v: string) => `connect.sid=nope.nope; connect.sid=${v}`, 401],
  ["empty", () => "connect.sid=", 401],
  ["a JSON-looking value", () => 'connect.sid={"userId":1}', 401],
  ["under another name", (v: string) => `sid=${v}`, 401],
])("a session cookie %s: %p", async (_, cookie, status) => {
  expect((await t.call("GET", "/api/auth/me", { cookie: cookie(value) })).status).toBe(status);
});
