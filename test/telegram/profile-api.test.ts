// Issue 30 item 3: PUT /api/bot/tokens/{id}/profile sets the bot's name, descriptions (per
// language) and the scenario's menu commands on the messenger (the fake one here), and
// …/profile/photo its photo (a JPEG); bad input is a 400, someone else's bot a 403, an unknown one
// a 404; the token never appears in an answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "../support/fake-messenger";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("a", "command_trigger", { command: "/start", description: "Begin", showInMenu: true, autoTransitionTo: "m" }),
      node("b", "command_trigger", { command: "/help", description: "Help me", showInMenu: true, autoTransitionTo: "m" }),
      node("c", "command_trigger", { command: "/secret", description: "Hidden", showInMenu: false, autoTransitionTo: "m" }),
      node("d", "command_trigger", { command: "/admin", description: "Admins", showInMenu: true, adminOnly: true, autoTransitionTo: "m" }),
      node("m", "message", { messageText: "hi" }),
    ],
  }],
};

describe("the bot's profile and photo from the Bots tab", () => {
  let fake: FakeMessenger;
  let t: TestApp;
  let cookie: string;
  let tokenId: number;
  let bot: FakeBot;
  const put = (body: unknown, who = cookie, id = tokenId) => t.call("PUT", `/api/bot/tokens/${id}/profile`, { cookie: who, json: body });
  const calls = (method: string) => fake.calls(bot.token).filter((c) => c.method === method).map((c) => c.params);

  beforeAll(async () => {
    fake = await startFakeMessenger();
    t = createTestApp({ env: { MESSENGER_API_ROOT: fake.url } });
    await setUp(t);
    cookie = await loginAs(t, 3001);
    const projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Profile", data: scenario } })).body.id;
    bot = fake.addBot({ username: "profile_bot" });
    tokenId = (await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } })).body.id;
  });
  afterAll(async () => {
    await fake?.stop();
    t?.cleanup();
  });

  test("name, descriptions and the menu commands reach the messenger", async () => {
    const r = await put({ name: "Shop bot", description: "We sell cats.", shortDescription: "Cats", commands: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ applied: ["setMyName", "setMyDescription", "setMyShortDescription", "setMyCommands"] });
    expect(JSON.stringify(r.body)).not.toContain(bot.token);
    expect(calls("setMyName")).toEqual([{ name: "Shop bot" }]);
    expect(calls("setMyDescription")).toEqual([{ description: "We sell cats." }]);
    expect(calls("setMyShortDescription")).toEqual([{ short_description: "Cats" }]);
    // Menu commands for everyone: not the hidden one, not the admins' one.
    expect(calls("setMyCommands")).toEqual([{ commands: [{ command: "start", description: "Begin" }, { command: "help", description: "Help me" }] }]);
  });

  test("texts for one language", async () => {
    const r = await put({ name: "Магазин", languageCode: "ru" });
    expect(r.body).toEqual({ applied: ["setMyName"] });
    expect(calls("setMyName").at(-1)).toEqual({ name: "Магазин", language_code: "ru" });
  });

  test.each([
    ["nothing to set", {}],
    ["a name over 64 characters", { name: "x".repeat(65) }],
    ["a description over 512", { description: "x".repeat(513) }],
    ["a short description over 120", { shortDescription: "x".repeat(121) }],
    ["a language code in capitals", { name: "x", languageCode: "EN" }],
    ["a number for a name", { name: 5 }],
  ])("%s is a 400", async (_name, body) => {
    const before = fake.calls(bot.token).length;
    const r = await put(body);
    expect(r.status).toBe(400);
    expect(fake.calls(bot.token).length).toBe(before);
  });

  test("someone else's bot is a 403, an unknown one a 404", async () => {
    const other = await loginAs(t, 3002);
    expect((await put({ name: "x" }, other)).status).toBe(403);
    expect((await put({ name: "x" }, cookie, 999_999)).status).toBe(404);
  });
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);
  const upload = (bytes: Uint8Array<ArrayBuffer>, who = cookie, id = tokenId) => {
    const form = new FormData();
    form.set("file", new File([bytes], "me.jpg", { type: "image/jpeg" }));
    return t.call("PUT", `/api/bot/tokens/${id}/profile/photo`, { cookie: who, body: form });
  };

  test("a JPEG becomes the bot's photo (setMyProfilePhoto); DELETE removes it", async () => {
    const r = await upload(JPEG);
    expect([r.status, r.body]).toEqual([200, { success: true }]);
    expect(fake.calls(bot.token).map((c) => c.method)).toContain("setMyProfilePhoto");
    expect((await t.call("DELETE", `/api/bot/tokens/${tokenId}/profile/photo`, { cookie })).status).toBe(200);
    expect(fake.calls(bot.token).map((c) => c.method)).toContain("removeMyProfilePhoto");
  });

  test("a PNG, a photo over 5 MB, no file, someone else's bot", async () => {
    const before = fake.calls(bot.token).length;
    expect((await upload(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).status).toBe(400);
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(JPEG);
    expect((await upload(big)).status).toBe(400);
    expect((await t.call("PUT", `/api/bot/tokens/${tokenId}/profile/photo`, { cookie, json: {} })).status).toBe(400);
    expect((await upload(JPEG, await loginAs(t, 3003))).status).toBe(403);
    expect(fake.calls(bot.token).length).toBe(before);
  });
});
