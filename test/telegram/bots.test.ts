// Issue 30 with real bots on the fake messenger, in shared runners and in processes of their own.
// Buttons: Mini App, copy and coloured inline buttons reach Telegram as the Bot API has them;
// reply buttons that request a poll or open a Mini App follow their target with what was shared;
// a Mini App URL a variable turns into anything but https leaves that one button out (the message
// still goes out, the bot keeps running). Deep links: "/start <parameter>" runs the command_trigger
// of that parameter (exact before the longest prefix), else the plain /start. Reactions, member
// changes and join requests start their triggers' flows; approve_join_request answers a request;
// a webhook-mode bot is registered for the same update kinds polling asks for.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import type { FakeUser } from "../support/fake-messenger";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "../bots/runner-platform";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });

const scenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("start", "start", {
        command: "/start", messageText: "Shop", keyboardType: "inline", buttons: [
          { id: "app", text: "Open shop", action: "web_app", webAppUrl: "https://shop.example/app?u={user_id}", style: "primary" },
          { id: "copy", text: "Copy code", action: "copy_text", copyText: "PROMO-{user_id}", style: "success" },
          { id: "go", text: "Next", action: "goto", target: "next", style: "danger" },
          { id: "old", text: "Old", action: "default", target: "next" },
        ],
      }),
      node("next", "message", { messageText: "next" }),
      node("menu", "command", {
        command: "/menu", messageText: "Menu", keyboardType: "reply", buttons: [
          { id: "poll", text: "Make a quiz", action: "poll", pollType: "quiz", target: "gotPoll" },
          { id: "form", text: "Form", action: "web_app", webAppUrl: "https://forms.example/f", target: "gotApp" },
          { id: "mb", text: "New bot", action: "request_managed_bot", suggestedBotName: "Helper" },
        ],
      }),
      node("gotPoll", "message", { messageText: "poll: {button_text}" }),
      node("gotApp", "message", { messageText: "app sent something" }),
      node("plainStart", "command_trigger", { command: "/start", autoTransitionTo: "start" }),
      node("promoPrefix", "command_trigger", { command: "/start", deepLinkParam: "promo_", deepLinkMatchMode: "startsWith", deepLinkVarName: "campaign", autoTransitionTo: "anyPromo" }),
      node("promo7", "command_trigger", { command: "/start", deepLinkParam: "promo_7", autoTransitionTo: "seven" }),
      node("refOnly", "command_trigger", { command: "/join", deepLinkParam: "team", autoTransitionTo: "team" }),
      node("anyPromo", "message", { messageText: "promo {campaign}" }),
      node("seven", "message", { messageText: "promo seven" }),
      node("team", "message", { messageText: "welcome to the team" }),
      node("liked", "reaction_trigger", { emoji: ["👍"], autoTransitionTo: "thanks" }),
      node("thanks", "message", { messageText: "thanks for {reaction_emoji} on {reacted_message_id}" }),
      node("loved", "reaction_trigger", { emoji: ["❤"], messageNodes: ["next"], autoTransitionTo: "lovedSaid" }),
      node("lovedSaid", "message", { messageText: "love for {reacted_message_id}" }),
      node("joins", "member_trigger", { memberEvents: ["joined"], autoTransitionTo: "welcome" }),
      node("welcome", "message", { messageText: "welcome {member_id}" }),
      node("back", "member_trigger", { memberEvents: ["unblocked"], autoTransitionTo: "welcomeBack" }),
      node("welcomeBack", "message", { messageText: "welcome back ({member_event})" }),
      node("asks", "join_request_trigger", { autoTransitionTo: "letIn" }),
      node("letIn", "approve_join_request", { autoTransitionTo: "letInSaid" }),
      node("letInSaid", "message", { messageText: "you are in {join_chat_title}" }),
      node("buy", "command_trigger", { command: "/buy", autoTransitionTo: "bill" }),
      node("bill", "invoice", { title: "Premium", description: "A month of premium", amount: "{price}", payload: "premium_{user_id}" }),
      node("price", "command_trigger", { command: "/cheap", autoTransitionTo: "setPrice" }),
      node("setPrice", "set_variable", { assignments: [{ variable: "price", value: "5" }], autoTransitionTo: "bill" }),
      node("checkout", "checkout_trigger", { autoTransitionTo: "stock" }),
      node("stock", "condition", { variable: "payment_payload", branches: [{ id: "so", operator: "starts_with", value: "sold_out", target: "refuse" }] }),
      node("refuse", "refuse_checkout", { reason: "Sold out, sorry" }),
      node("paid", "payment_trigger", { autoTransitionTo: "thankPaid" }),
      node("thankPaid", "message", { messageText: "paid {payment_amount} for {payment_payload}", autoTransitionTo: "giveBack" }),
      node("giveBack", "refund_payment", { autoTransitionTo: "refunded" }),
      node("refunded", "message", { messageText: "refunded" }),
      node("bad", "command", {
        command: "/bad", messageText: "Bad", keyboardType: "inline", buttons: [
          { id: "b1", text: "Broken app", action: "web_app", webAppUrl: "{site}" },
          { id: "b2", text: "Fine", action: "goto", target: "next" },
        ],
      }),
    ],
  }],
};

for (const isolation of ["runner", "process"] as const) {
  describe(`today's Telegram (BOT_ISOLATION=${isolation})`, () => {
    let p: RunnerPlatform;
    let b: TestBot;
    let n = 0;
    const user = (): FakeUser => ({ id: 93_000 + n++ + (isolation === "process" ? 500 : 0), first_name: "Ann", language_code: "en" });
    const say = async (u: FakeUser, text: string) => {
      p.fake.sendText(b.bot.token, u, text);
      return (await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000))[0];
    };
    const privateChat = (u: FakeUser) => ({ id: u.id, type: "private", first_name: u.first_name });
    const now = () => Math.floor(Date.now() / 1000);
    const emoji = (list: string[]) => list.map((e) => ({ type: "emoji", emoji: e }));
    /** The user reacts with `added` on a message of their chat, having put `before` there earlier. */
    const react = (token: string, u: FakeUser, messageId: number | undefined, added: string, before: string[] = []) =>
      p.fake.pushUpdate(token, { message_reaction: { chat: privateChat(u), message_id: messageId, user: u, date: now(), old_reaction: emoji(before), new_reaction: emoji([...before, added]) } });
    /** The user joins a group (chat_member), then restarts the bot after blocking it (my_chat_member): both flows answer. */
    const memberFlowsRun = async (bot: { token: string; id: number }, u: FakeUser, group: { id: number }) => {
      p.fake.pushUpdate(bot.token, { chat_member: { chat: group, from: u, date: now(), old_chat_member: { status: "left", user: u }, new_chat_member: { status: "member", user: u } } });
      const [welcome] = await p.fake.waitForSent(bot.token, group.id, 1, 10_000);
      expect(welcome!.params.text).toBe(`welcome ${u.id}`);
      const me = { id: bot.id, is_bot: true, first_name: "Bot" };
      p.fake.pushUpdate(bot.token, { my_chat_member: { chat: privateChat(u), from: u, date: now(), old_chat_member: { status: "kicked", user: me, until_date: 0 }, new_chat_member: { status: "member", user: me } } });
      const [back] = await p.fake.waitForSent(bot.token, u.id, 1, 10_000);
      expect(back!.params.text).toBe("welcome back (unblocked)");
    };

    beforeAll(async () => {
      p = await startRunnerPlatform({ env: { BOT_ISOLATION: isolation } });
      const cookie = await loginAs(p.t, 93);
      b = await addBot(p, cookie, `Buttons${isolation}`, { data: scenario });
      expect((await act(p, b, "start")).status).toBe(200);
    });
    afterAll(async () => {
      await p?.close();
    });

    test("inline: a Mini App, a copy button and colours, as the Bot API has them", async () => {
      const u = user();
      const sent = await say(u, "/start");
      expect(sent.params.text).toBe("Shop");
      const [app, copy, go, old] = sent.params.reply_markup.inline_keyboard.map((row: unknown[]) => row[0]);
      expect(app).toEqual({ text: "Open shop", web_app: { url: `https://shop.example/app?u=${u.id}` }, style: "primary" });
      expect(copy).toEqual({ text: "Copy code", copy_text: { text: `PROMO-${u.id}` }, style: "success" });
      expect(go.style).toBe("danger");
      expect(typeof go.callback_data).toBe("string");
      p.fake.pressButton(b.bot.token, u, old.callback_data, sent.messageId);
      const [after] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(after.params.text).toBe("next");
    });

    test("reply: a poll request and a Mini App follow their targets with what was shared", async () => {
      const u = user();
      const menu = await say(u, "/menu");
      const [[poll], [form], [managed]] = menu.params.reply_markup.keyboard;
      expect(poll).toEqual({ text: "Make a quiz", request_poll: { type: "quiz" } });
      expect(form).toEqual({ text: "Form", web_app: { url: "https://forms.example/f" } });
      expect(managed).toEqual({ text: "New bot", request_managed_bot: { request_id: 3, suggested_name: "Helper" } });

      p.fake.sendUserMessage(b.bot.token, u, { poll: { id: "p1", question: "2+2?", options: [], total_voter_count: 0, is_closed: false, is_anonymous: true, type: "quiz", allows_multiple_answers: false } });
      const [gotPoll] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(gotPoll.params.text).toBe("poll: Make a quiz");
      p.fake.sendUserMessage(b.bot.token, u, { web_app_data: { data: "{\"size\":42}", button_text: "Form" } });
      const [gotApp] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(gotApp.params.text).toBe("app sent something");
    });

    test("deep links: an exact parameter wins over a prefix, a prefix stores the parameter, others run the plain /start", async () => {
      const u = user();
      expect((await say(u, "/start promo_7")).params.text).toBe("promo seven");
      expect((await say(u, "/start promo_summer")).params.text).toBe("promo promo_summer");
      expect((await say(u, "/start other")).params.text).toBe("Shop");
      expect((await say(u, "/start")).params.text).toBe("Shop");
      // A command that only has a deep link answers nothing without it.
      expect((await say(u, "/join team")).params.text).toBe("welcome to the team");
      p.fake.sendText(b.bot.token, u, "/join");
      expect((await say(u, "/start promo_7")).params.text).toBe("promo seven");
    });

    test("reactions, members and join requests start their flows; approve answers the request", async () => {
      const u = user();
      const group = { id: -100_777_000 - n, type: "supergroup", title: "Cats club" };
      const shop = await say(u, "/start");
      const date = now();
      // A reaction the trigger does not watch, then one it does.
      react(b.bot.token, u, shop.messageId, "😢");
      react(b.bot.token, u, shop.messageId, "👍", ["😢"]);
      const [thanks] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(thanks.params.text).toBe(`thanks for 👍 on ${shop.messageId}`);
      // Only asked for because a trigger needs it.
      const polls = p.fake.calls(b.bot.token, "getUpdates");
      const asked = polls.find((c) => c.params.allowed_updates !== undefined)?.params.allowed_updates;
      expect(asked).toEqual(expect.arrayContaining(["message", "callback_query", "my_chat_member", "chat_join_request", "message_reaction", "chat_member"]));

      await memberFlowsRun(b.bot, u, group);

      p.fake.sendGroupMessage(b.bot.token, group.id, u, "hi all");
      p.fake.pushUpdate(b.bot.token, { chat_join_request: { chat: group, from: u, user_chat_id: u.id, date } });
      const [inside] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(inside.params.text).toBe("you are in Cats club");
      const approved = p.fake.calls(b.bot.token).filter((c) => c.method === "approveChatJoinRequest");
      expect(approved.map((c) => [Number(c.params.chat_id), Number(c.params.user_id)])).toEqual([[group.id, u.id]]);
    });

    test("a reaction trigger limited to the messages of chosen nodes: a reaction elsewhere runs nothing", async () => {
      const u = user();
      const shop = await say(u, "/start");
      const goButton = shop.params.reply_markup.inline_keyboard[2][0].callback_data;
      p.fake.pressButton(b.bot.token, u, goButton, shop.messageId);
      const [next] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(next.params.text).toBe("next");
      // ❤ on the shop message (sent by "start"), then on the message "next" sent: only the second runs the flow
      react(b.bot.token, u, shop.messageId, "❤");
      react(b.bot.token, u, next.messageId, "❤");
      const [loved] = await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000);
      expect(loved.params.text).toBe(`love for ${next.messageId}`);
      // a message id the store never saw (another sender) runs nothing either; the next reply is the plain /start's
      react(b.bot.token, u, 999_999, "❤");
      expect((await say(u, "/start")).params.text).toBe("Shop");
    });

    test("webhook mode: setWebhook asks for the kinds the triggers need, so reactions and member updates arrive", async () => {
      const cookie = await loginAs(p.t, 93);
      const w = await addBot(p, cookie, `Hooked${isolation}`, { data: scenario, mode: "webhook" });
      expect((await act(p, w, "start")).status).toBe(200);
      const registered = p.fake.calls(w.bot.token, "setWebhook").at(-1)?.params.allowed_updates;
      expect(registered).toEqual(expect.arrayContaining(["message", "callback_query", "my_chat_member", "chat_join_request", "message_reaction", "chat_member"]));
      const u = user();
      p.fake.sendText(w.bot.token, u, "/start");
      const [shop] = await p.fake.waitForSent(w.bot.token, u.id, 1, 10_000);
      react(w.bot.token, u, shop.messageId, "👍");
      const [thanks] = await p.fake.waitForSent(w.bot.token, u.id, 1, 10_000);
      expect(thanks.params.text).toBe(`thanks for 👍 on ${shop.messageId}`);
      const group = { id: -100_888_000 - n, type: "supergroup", title: "Dogs club" };
      await memberFlowsRun(w.bot, u, group);
      expect((await act(p, w, "stop")).status).toBe(200);
    });

    test("Stars: an amount a variable leaves empty fails the invoice node; a valid one is sent, the checkout accepted, the payment runs its flow and is refunded", async () => {
      const u = user();
      // {price} unset: the invoice node fails (one log line), nothing is sent, the bot answers on.
      p.fake.sendText(b.bot.token, u, "/buy");
      expect((await say(u, "/start")).params.text).toBe("Shop");
      expect(p.fake.calls(b.bot.token).filter((c) => c.method === "sendInvoice")).toEqual([]);

      const invoice = await say(u, "/cheap");
      expect(invoice.method).toBe("sendInvoice");
      expect(invoice.params).toMatchObject({ title: "Premium", currency: "XTR", payload: `premium_${u.id}`, prices: [{ label: "Premium", amount: 5 }] });

      // checkout_trigger's flow refuses what is sold out, with its reason.
      const soldOut = p.fake.checkout(b.bot.token, u, { amount: 5, payload: "sold_out_1" });
      const refused = await p.fake.waitForCall(b.bot.token, (c) => c.method === "answerPreCheckoutQuery" && c.params.pre_checkout_query_id === soldOut);
      expect([refused.params, refused.error]).toEqual([{ pre_checkout_query_id: soldOut, ok: false, error_message: "Sold out, sorry" }, undefined]);
      // The user presses Pay on the invoice: the checkout is accepted and Telegram's
      // successful_payment runs payment_trigger's flow.
      const pcq = p.fake.checkout(b.bot.token, u, { amount: 5, payload: `premium_${u.id}` });
      const answer = await p.fake.waitForCall(b.bot.token, (c) => c.method === "answerPreCheckoutQuery" && c.params.pre_checkout_query_id === pcq);
      expect([answer.params, answer.error]).toEqual([{ pre_checkout_query_id: pcq, ok: true }, undefined]);
      const charge = `stxEmulated${pcq}`;
      const [thanks, refunded] = await p.fake.waitForSent(b.bot.token, u.id, 2, 10_000);
      expect(thanks.params.text).toBe(`paid 5 for premium_${u.id}`);
      expect(refunded.params.text).toBe("refunded");
      // The user's card shows the latest payment among the user's variables (written just after the
      // bot's send: polled within a bound, as harness.ts `eventually` does for synchronous checks).
      let card: Record<string, unknown> = {};
      for (let i = 0; i < 50 && card.payment_charge_id !== charge; i++) {
        card = (await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/users/${u.id}`, { cookie: b.cookie })).body.variables ?? {};
        if (card.payment_charge_id !== charge) await Bun.sleep(100);
      }
      expect(card).toMatchObject({ payment_amount: 5, payment_payload: `premium_${u.id}`, payment_charge_id: charge });
      expect(p.fake.calls(b.bot.token).filter((c) => c.method === "refundStarPayment").map((c) => c.params)).toEqual([{ user_id: u.id, telegram_payment_charge_id: charge }]);
      // The payment is a row of the project's payments, refunded in place; the card lists it.
      const paymentsOf = async () => (await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/users/${u.id}/payments`, { cookie: b.cookie })).body;
      let page = await paymentsOf();
      for (let i = 0; i < 50 && page.items?.[0]?.status !== "refunded"; i++) {
        await Bun.sleep(100);
        page = await paymentsOf();
      }
      expect(page.total).toBe(1);
      expect(page.items[0]).toMatchObject({ chargeId: charge, providerChargeId: null, amount: 5, currency: "XTR", payload: `premium_${u.id}`, status: "refunded" });
      expect(typeof page.items[0].paidAt).toBe("string");
      expect(page.items[0].refundedAt >= page.items[0].paidAt).toBe(true);
      // Telegram redelivering the same payment does not count it twice (nor runs its flow again:
      // the next answer in the chat is the next payment's).
      p.fake.sendUserMessage(b.bot.token, u, { successful_payment: { currency: "XTR", total_amount: 5, invoice_payload: `premium_${u.id}`, telegram_payment_charge_id: charge, provider_payment_charge_id: "" } });
      const other = `stxOther${u.id}`;
      p.fake.sendUserMessage(b.bot.token, u, { successful_payment: { currency: "XTR", total_amount: 7, invoice_payload: "second", telegram_payment_charge_id: other, provider_payment_charge_id: "" } });
      expect((await p.fake.waitForSent(b.bot.token, u.id, 2, 10_000)).map((c) => c.params.text)).toEqual(["paid 7 for second", "refunded"]);
      for (let i = 0; i < 50 && page.total !== 2; i++) {
        await Bun.sleep(100);
        page = await paymentsOf();
      }
      expect(page.items.map((x: { chargeId: string; status: string }) => [x.chargeId, x.status])).toEqual([[other, "refunded"], [charge, "refunded"]]);
    });

    test("a Mini App URL that is not https once filled in leaves that button out; the bot answers on", async () => {
      const u = user();
      const sent = await say(u, "/bad");
      expect(sent.params.text).toBe("Bad");
      expect(sent.params.reply_markup.inline_keyboard.map((row: { text: string }[]) => row[0].text)).toEqual(["Fine"]);
      expect((await say(u, "/start")).params.text).toBe("Shop");
    });
  });
}
