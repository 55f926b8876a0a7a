// The scenario's broadcast node becomes a campaign (docs/campaigns.md#the-broadcast-node), with a
// real bot run by the platform (a shared runner and a process) on the fake messenger: the admin
// confirms, the bot writes the campaign and tells the server, the server sends it (every recorded
// user once, the blocked one left out, each with their own name), the campaign is in the list with
// source "scenario", the initiator gets the totals, and the message's go-to button runs its node
// in the running bot.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { until } from "../support/process";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  version: 2,
  sheets: [
    {
      id: "s",
      name: "Main",
      nodes: [
        node("start", "start", { command: "/start", messageText: "Hi {first_name}" }),
        node("cast", "command_trigger", { command: "/cast", autoTransitionTo: "bc" }),
        node("bc", "broadcast", { broadcastTargetNode: "news", enableConfirmation: true, confirmationText: "Send?", successMessage: "Sent {sent} of {total}", errorMessage: "Sent {sent} of {total}, {failed} failed" }),
        node("news", "message", { messageText: "News for {first_name}", keyboardType: "inline", buttons: [{ id: "b1", text: "About", action: "goto", target: "about" }, { id: "b2", text: "Site", action: "url", url: "https://example.com" }] }),
        node("about", "message", { messageText: "About us" }),
      ],
      edges: [],
    },
  ],
};

for (const isolation of ["runner", "process"] as const) {
  describe(`the broadcast node as a campaign (${isolation})`, () => {
    let fake: FakeMessenger;
    let t: TestApp;
    let cookie: string;
    let tokenId: number;
    let botToken: string;
    const base = isolation === "runner" ? 6_500_000 : 6_600_000;
    const users: FakeUser[] = [0, 1, 2, 3].map((i) => ({ id: base + i, first_name: `P${i}` }));

    beforeAll(async () => {
      fake = await startFakeMessenger();
      t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, BOT_ISOLATION: isolation } });
      await setUp(t);
      cookie = await loginAs(t, 79);
      const project = await t.call("POST", "/api/projects", { cookie, json: { name: `Cast ${isolation}`, data: scenario, userDatabaseEnabled: 1 } });
      expect(project.status).toBe(201);
      const bot = fake.addBot({ username: `cast_${isolation}_bot` });
      botToken = bot.token;
      tokenId = (await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } })).body.id;
      expect((await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie })).status).toBe(200);
      for (const u of users) {
        fake.sendText(botToken, u, "/start");
        await fake.waitForSent(botToken, u.id, 1, 15_000);
      }
    }, 30_000);

    afterAll(async () => {
      await t.ctx.campaigns.stop();
      await t.ctx.bots.shutdown();
      await fake.stop();
      t.cleanup();
    });

    test("confirmed, handed to the server, sent once per user, listed, reported; its go-to button runs the node", async () => {
      fake.setBlocked(users[3]!.id, true);
      // the bot finds out (a send fails) and marks the person blocked
      // (the chat is in the store once the bot's record batch is written)
      await until(async () => (await t.call("POST", `/api/bot/tokens/${tokenId}/chats/${users[3]!.id}/messages`, { cookie, json: { text: "there?" } })).status === 409, "the blocked user marked");
      const [initiator] = users;
      fake.sendText(botToken, initiator!, "/cast");
      const [ask] = await fake.waitForSent(botToken, initiator!.id, 1, 10_000);
      expect(ask.params.text).toBe("Send?");
      const yes = ask.params.reply_markup.inline_keyboard[0][0].callback_data as string;
      fake.pressButton(botToken, initiator!, yes, ask.messageId);
      const news = () => fake.sent(botToken).filter((c) => c.method === "sendMessage" && String(c.params.text).startsWith("News for"));
      await until(() => news().length >= 3 && news(), "the campaign sent", 15_000);
      // the campaign is the server's: listed, source scenario, done
      const listed = await until(async () => {
        const l = await t.call("GET", `/api/bot/tokens/${tokenId}/campaigns`, { cookie });
        const c = l.body.items[0];
        return c?.status === "done" ? c : undefined;
      }, "the campaign done", 15_000);
      expect(listed).toMatchObject({ name: "Broadcast bc", source: "scenario", nodeId: "news", audienceSize: 3, counts: { pending: 0, sent: 3, failed: 0, blocked: 0 } });
      const report = await fake.waitForCall(botToken, (c) => c.params.text === "Sent 3 of 3" && Number(c.params.chat_id) === initiator!.id, 10_000);
      expect(report).toBeTruthy();
      expect(news().map((c) => [Number(c.params.chat_id), c.params.text]).sort()).toEqual([0, 1, 2].map((i) => [base + i, `News for P${i}`]));
      const toP1 = news().find((c) => Number(c.params.chat_id) === users[1]!.id)!;
      expect(toP1.params.reply_markup.inline_keyboard).toEqual([[{ text: "About", callback_data: "o:about" }], [{ text: "Site", url: "https://example.com" }]]);
      fake.pressButton(botToken, users[1]!, "o:about", toP1.messageId);
      await fake.waitForCall(botToken, (c) => c.params.text === "About us" && Number(c.params.chat_id) === users[1]!.id, 10_000);
    }, 45_000);
  });
}
