// End-to-end (docs/analytics.md): the platform runs a real bot — in a shared runner, as its own
// process, and in a runner behind a webhook — against the fake messenger. Scripted traffic: users
// arrive by deep links (one with a trigger of its own), press buttons across two sheets, answer a
// question, leave midway, send a command trigger's command; one blocks the bot. Trigger nodes count
// as reached, with their transition into the flow. The analytics and the per-node and per-transition
// counts equal exactly what the script did.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FakeUser } from "../support/fake-messenger";
import { until } from "../support/process";
import { loginAs } from "../support/app";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "./runner-platform";

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  version: 2,
  sheets: [
    {
      id: "main",
      name: "Main",
      edges: [],
      nodes: [
        at("start", "start", {
          command: "/start", messageText: "Welcome", keyboardType: "inline", buttons: [
            { id: "shop", text: "Shop", action: "goto", target: "catalog" },
            { id: "help", text: "Help", action: "goto", target: "help" },
          ],
        }),
        at("help", "message", { messageText: "Help text" }),
        at("helpCmd", "command_trigger", { command: "/help", autoTransitionTo: "help" }),
        at("promoLink", "command_trigger", { command: "/start", deepLinkParam: "promo", autoTransitionTo: "start" }),
      ],
    },
    {
      id: "shop",
      name: "Shop",
      edges: [],
      nodes: [
        at("catalog", "message", { messageText: "Catalog", keyboardType: "inline", buttons: [{ id: "buy", text: "Buy", action: "goto", target: "ask" }] }),
        at("ask", "input", { inputPrompt: "How many?", inputVariable: "qty", inputType: "text", inputTargetNodeId: "check" }),
        at("check", "condition", { variable: "qty", branches: [{ id: "many", operator: "greater_than", value: "5", target: "bulk" }], defaultTargetId: "thanks" }),
        at("bulk", "message", { messageText: "Bulk order" }),
        at("thanks", "message", { messageText: "Thanks for {qty}" }),
      ],
    },
  ],
};

const MODES = [
  { isolation: "runner", mode: "polling" },
  { isolation: "process", mode: "polling" },
  { isolation: "runner", mode: "webhook" },
] as const;

const today = () => new Date().toISOString().slice(0, 10);

for (const { isolation, mode } of MODES) {
  describe(`analytics with a real bot (${isolation}, ${mode})`, () => {
    let p: RunnerPlatform;
    let b: TestBot;
    const base = 71_000 + (isolation === "process" ? 100 : 0) + (mode === "webhook" ? 200 : 0);
    const ann: FakeUser = { id: base + 1, first_name: "Ann", language_code: "en" };
    const bob: FakeUser = { id: base + 2, first_name: "Bob", language_code: "ru" };
    const cat: FakeUser = { id: base + 3, first_name: "Cat", language_code: "en" };
    const dan: FakeUser = { id: base + 4, first_name: "Dan" };

    beforeAll(async () => {
      p = await startRunnerPlatform({ env: { BOT_ISOLATION: isolation } });
      const cookie = await loginAs(p.t, 71);
      b = await addBot(p, cookie, `Numbers${isolation}${mode}`, { data: scenario, mode });
      expect((await act(p, b, "start")).status).toBe(200);
    }, 30_000);
    afterAll(async () => {
      await p?.close();
    });

    const say = async (u: FakeUser, text: string, replies = 1) => {
      p.fake.sendText(b.bot.token, u, text);
      return replies ? await p.fake.waitForSent(b.bot.token, u.id, replies, 15_000) : [];
    };
    const tap = async (u: FakeUser, message: { params: any; messageId?: number }, label: string) => {
      const button = message.params.reply_markup.inline_keyboard.flat().find((x: { text: string }) => x.text === label);
      p.fake.pressButton(b.bot.token, u, button.callback_data, message.messageId);
      return (await p.fake.waitForSent(b.bot.token, u.id, 1, 15_000))[0]!;
    };
    const get = (path: string) => p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics${path}`, { cookie: b.cookie });

    test("the figures and the funnel equal what the script did", async () => {
      // Ann: a promo link, the shop on the other sheet, buys 7 (the condition's branch), then /help
      const [welcomeAnn] = await say(ann, "/start promo");
      const catalogAnn = await tap(ann, welcomeAnn!, "Shop");
      expect(catalogAnn.params.text).toBe("Catalog");
      expect((await tap(ann, catalogAnn, "Buy")).params.text).toBe("How many?");
      expect((await say(ann, "7"))[0]!.params.text).toBe("Bulk order");
      expect((await say(ann, "/help"))[0]!.params.text).toBe("Help text");
      // Bob: the same link, opens the shop and leaves
      const [welcomeBob] = await say(bob, "/start promo");
      await tap(bob, welcomeBob!, "Shop");
      // Cat: another source, presses Help, buys 2 later by the default path
      const [welcomeCat] = await say(cat, "/start ads");
      expect((await tap(cat, welcomeCat!, "Help")).params.text).toBe("Help text");
      const catalogCat = await tap(cat, welcomeCat!, "Shop");
      await tap(cat, catalogCat, "Buy");
      expect((await say(cat, "2"))[0]!.params.text).toBe("Thanks for 2");
      // Dan: no link, leaves at once; then blocks the bot, so the next answer fails
      await say(dan, "/start");
      p.fake.setBlocked(dan.id, true);
      await say(dan, "/start", 0);
      await p.fake.waitForCall(b.bot.token, (c) => c.method === "sendMessage" && Number(c.params.chat_id) === dan.id && c.error !== undefined, 15_000).catch(() => undefined);
      // "garbage" commands the scenario lacks are messages, not commands
      await say(cat, "/nonsense", 0);

      const sentOut = p.fake.sent(b.bot.token).filter((c) => c.method.startsWith("send")).length;
      const messagesIn = 5 + 2 + 6 + 2;
      const figures = await until(async () => {
        const r = await get("");
        return r.body.totals?.messagesIn === messagesIn && r.body.totals.blocked === 1 && r.body.totals.messagesOut === sentOut ? r : undefined;
      }, "the counts of the script", 15_000).catch(async () => get(""));
      expect(figures.status).toBe(200);
      expect(figures.body.totals).toEqual({ users: 4, activeUsers: 4, newUsers: 4, messagesIn, messagesOut: sentOut, blocked: 1 });
      expect(sentOut).toBe(5 + 2 + 5 + 1);
      const day = figures.body.series.at(-1);
      expect(day).toEqual({ at: today() + "T00:00:00.000Z", newUsers: 4, activeUsers: 4, messagesIn, messagesOut: sentOut, blocked: 1 });
      expect(figures.body.series.slice(0, -1).every((s: { messagesIn: number }) => s.messagesIn === 0)).toBe(true);
      expect(figures.body.sources).toEqual([{ source: "promo", users: 2 }, { source: "ads", users: 1 }]);
      expect(figures.body.languages).toEqual([{ language: "en", users: 2 }, { language: "", users: 1 }, { language: "ru", users: 1 }]);
      expect(figures.body.commands).toEqual([{ command: "start", count: 5 }, { command: "help", count: 1 }]);
      expect(figures.body.buttons).toEqual([
        { text: "Shop", nodeId: "start", count: 3 },
        { text: "Buy", nodeId: "catalog", count: 2 },
        { text: "Help", nodeId: "start", count: 1 },
      ]);
      const byHour = await get(`?from=${today()}&to=${today()}&bucket=hour`);
      expect(byHour.body.series.length).toBe(24);
      expect(byHour.body.series.reduce((n: number, s: { messagesIn: number }) => n + s.messagesIn, 0)).toBe(messagesIn);

      const funnel = await get("/nodes");
      expect(funnel.status).toBe(200);
      expect(funnel.body.items).toEqual([
        { nodeId: "start", sheetId: "main", users: 4, visits: 5 },
        { nodeId: "catalog", sheetId: "shop", users: 3, visits: 3 },
        { nodeId: "ask", sheetId: "shop", users: 2, visits: 2 },
        { nodeId: "check", sheetId: "shop", users: 2, visits: 2 },
        { nodeId: "help", sheetId: "main", users: 2, visits: 2 },
        { nodeId: "promoLink", sheetId: "main", users: 2, visits: 2 },
        { nodeId: "bulk", sheetId: "shop", users: 1, visits: 1 },
        { nodeId: "helpCmd", sheetId: "main", users: 1, visits: 1 },
        { nodeId: "thanks", sheetId: "shop", users: 1, visits: 1 },
      ]);
      expect(funnel.body.edges).toEqual([
        { from: "start", to: "catalog", users: 3 },
        { from: "ask", to: "check", users: 2 },
        { from: "catalog", to: "ask", users: 2 },
        { from: "promoLink", to: "start", users: 2 },
        { from: "check", to: "bulk", users: 1 },
        { from: "check", to: "thanks", users: 1 },
        { from: "helpCmd", to: "help", users: 1 },
        { from: "start", to: "help", users: 1 },
      ]);
    }, 60_000);

    test("a user back from yesterday counts once over both days, and is no new user", async () => {
      const eve: FakeUser = { id: base + 5, first_name: "Eve", language_code: "de" };
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const db = p.t.ctx.projectFiles.open(b.projectId).$client;
      // what the bot wrote when Eve came yesterday: her record, her day, the start node
      db.query("INSERT INTO bot_people (token_id, user_id, first_seen_at, last_seen_at, messages_in, language_code) VALUES (?, ?, ?, ?, 1, 'de')").run(b.tokenId, String(eve.id), yesterday + "T10:00:00.000Z", yesterday + "T10:00:00.000Z");
      db.query("INSERT INTO analytics_user_days (token_id, user_id, day, prev_day, last_hour) VALUES (?, ?, ?, NULL, ?)").run(b.tokenId, String(eve.id), yesterday, yesterday + "T10");
      db.query("INSERT INTO analytics_active (token_id, day, prev_day, language, users) VALUES (?, ?, '', 'de', 1)").run(b.tokenId, yesterday);
      db.query("INSERT INTO analytics_hours (token_id, hour, new_users, active_users, messages_in) VALUES (?, ?, 1, 1, 1)").run(b.tokenId, yesterday + "T10");
      db.query("INSERT INTO analytics_node_days (token_id, node_id, user_id, day) VALUES (?, 'start', ?, ?)").run(b.tokenId, String(eve.id), yesterday);
      db.query("INSERT INTO analytics_node_reach (token_id, day, node_id, prev_day, users, visits) VALUES (?, ?, 'start', '', 1, 1)").run(b.tokenId, yesterday);
      const before = (await get(`/nodes?from=${yesterday}`)).body.items.find((n: { nodeId: string }) => n.nodeId === "start");
      await say(eve, "/start");
      const range = `?from=${yesterday}&to=${today()}`;
      const figures = await until(async () => {
        const r = await get(range);
        return r.body.languages?.some((l: { language: string }) => l.language === "de") && r.body.series.at(-1).activeUsers === 5 ? r : undefined;
      }, "Eve counted today", 15_000);
      expect(figures.body.series.map((s: { activeUsers: number }) => s.activeUsers)).toEqual([1, 5]);
      expect(figures.body.totals).toMatchObject({ activeUsers: 5, newUsers: 5 });
      expect(figures.body.languages).toContainEqual({ language: "de", users: 1 });
      expect((await get(`?from=${today()}`)).body.totals).toMatchObject({ activeUsers: 5, newUsers: 4 });
      const start = async (q: string) => (await get(`/nodes${q}`)).body.items.find((n: { nodeId: string }) => n.nodeId === "start");
      // over both days Eve was at start already (yesterday): one more visit, no more users
      expect(before).toEqual({ nodeId: "start", sheetId: "main", users: 5, visits: 6 });
      expect(await start(range)).toEqual({ nodeId: "start", sheetId: "main", users: 5, visits: 7 });
      expect(await start(`?from=${today()}`)).toMatchObject({ users: 5 });
    }, 60_000);
  });
}
