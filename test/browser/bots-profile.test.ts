// Issue 30 item 3 in Chromium: the Bots tab's "Profile in Telegram" sets the bot's name and the
// scenario's menu commands on the (fake) messenger and says which calls it made.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { haveChromium, launchBrowser, warnIfNoChromium, type Browser } from "../support/browser";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "../support/fake-messenger";

warnIfNoChromium("bot profile");
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const doc = { version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes: [
  node("a", "command_trigger", { command: "/start", description: "Begin", showInMenu: true, autoTransitionTo: "m" }),
  node("m", "message", { messageText: "hi" }),
] }] };

describe.skipIf(!haveChromium)("bot profile in Chromium", () => {
  let fake: FakeMessenger;
  let t: TestApp;
  let base: string;
  let b: Browser;
  let projectId: number;
  let bot: FakeBot;

  beforeAll(async () => {
    fake = await startFakeMessenger();
    t = createTestApp({ env: { MESSENGER_API_ROOT: fake.url } });
    await setUp(t);
    const cookie = await loginAs(t, 6262, { firstName: "Lena" });
    projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: "Profile", data: doc } })).body.id;
    bot = fake.addBot({ username: "profile_ui_bot" });
    expect((await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } })).status).toBe(200);
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    b = await launchBrowser();
    const [name, value] = cookie.split("=");
    await b.context.addCookies([{ name: name!, value: value!, url: base }]);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await t?.ctx.bots.shutdown();
    await t?.app.server?.stop(true);
    await fake?.stop();
    t?.cleanup();
  });

  test("name and menu commands from the Bots tab", async () => {
    const { page } = b;
    await page.goto(`${base}/projects/${projectId}/bots`);
    await page.getByText("Profile in Telegram").click();
    const form = page.getByRole("form", { name: "Profile in Telegram" });
    await form.getByLabel("Name", { exact: true }).fill("Cat shop");
    await form.getByRole("button", { name: "Apply" }).click();
    await form.getByRole("status").getByText("Done: setMyName, setMyCommands").waitFor();
    const calls = fake.calls(bot.token).filter((c) => c.method.startsWith("setMy"));
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ["setMyName", { name: "Cat shop" }],
      ["setMyCommands", { commands: [{ command: "start", description: "Begin" }] }],
    ]);
    expect(b.errors).toEqual([]);
  }, 60_000);
});
