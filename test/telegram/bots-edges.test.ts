// Issue 30's buttons and payments where a value or a chat makes them go wrong, with real bots on
// the fake messenger (shared runner and own process). A copy button whose variable is empty, and a
// Mini App button in a group (Telegram has Mini Apps in private chats only), would make Telegram
// refuse the whole message: that button alone is left out. A checkout's values are its flow's only:
// a refused checkout leaves the user's variables of the last real payment as they were. A checkout
// in a chat an operator holds is still answered (without an answer the user cannot pay), and a
// payment there runs its flow (what was bought), while other messages wait for the operator. A user
// typing "/start ref_<own id>" is not their own referrer. A payment Telegram delivers again runs
// its flow (what was bought) once per charge, whatever came between and after a restart; a
// malformed one runs and records nothing, and does not cost the other users' records written with it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import type { FakeUser } from "../support/fake-messenger";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "../bots/runner-platform";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const LONG = "a".repeat(255) + "😀b";

const scenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("start", "start", {
        command: "/start", messageText: "Shop", keyboardType: "inline", buttons: [
          { id: "copy", text: "Copy code", action: "copy_text", copyText: "{code}" },
          { id: "go", text: "Next", action: "goto", target: "next" },
        ],
      }),
      node("next", "message", { messageText: "next" }),
      node("long", "command", {
        command: "/long", messageText: "Long", keyboardType: "inline", buttons: [
          { id: "copyLong", text: "Copy", action: "copy_text", copyText: LONG },
        ],
      }),
      node("app", "command", {
        command: "/app", messageText: "App", keyboardType: "inline", buttons: [
          { id: "open", text: "Open", action: "web_app", webAppUrl: "https://shop.example/app" },
          { id: "go2", text: "Next", action: "goto", target: "next" },
        ],
      }),
      node("status", "command_trigger", { command: "/status", autoTransitionTo: "statusSaid" }),
      node("statusSaid", "message", { messageText: "bought: {payment_payload} for {payment_amount}" }),
      node("checkout", "checkout_trigger", { autoTransitionTo: "stock" }),
      node("stock", "condition", { variable: "payment_payload", branches: [{ id: "so", operator: "starts_with", value: "vip", target: "refuse" }, { id: "gone", operator: "starts_with", value: "gone", target: "refuseLong" }] }),
      node("refuse", "refuse_checkout", { reason: "Not for you" }),
      node("refuseLong", "refuse_checkout", { reason: "x".repeat(254) + "😀 sold out" }),
      node("menuLong", "command_trigger", { command: "/about", description: "d".repeat(254) + "😀 more", showInMenu: true, autoTransitionTo: "next" }),
      node("paid", "payment_trigger", { autoTransitionTo: "thankPaid" }),
      node("thankPaid", "message", { messageText: "paid {payment_amount} for {payment_payload}" }),
      node("invited", "command_trigger", { command: "/start", deepLinkParam: "ref_", deepLinkMatchMode: "startsWith", autoTransitionTo: "invitedSaid" }),
      node("invitedSaid", "message", { messageText: "invited by [{referrer_id}]" }),
    ],
  }],
};

for (const isolation of ["runner", "process"] as const) {
  describe(`buttons and payments at their edges (BOT_ISOLATION=${isolation})`, () => {
    let p: RunnerPlatform;
    let b: TestBot;
    let n = 0;
    const user = (): FakeUser => ({ id: 94_000 + n++ + (isolation === "process" ? 500 : 0), first_name: "Ann", language_code: "en" });
    const say = async (u: FakeUser, text: string) => {
      p.fake.sendText(b.bot.token, u, text);
      return (await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000))[0]!;
    };
    /** The user presses Pay on an invoice: the bot's answer (accepted, the payment follows). */
    const checkout = async (u: FakeUser, amount: number, payload: string) => {
      const id = p.fake.checkout(b.bot.token, u, { amount, payload });
      const call = await p.fake.waitForCall(b.bot.token, (c) => c.method === "answerPreCheckoutQuery" && c.params.pre_checkout_query_id === id, 10_000);
      expect(call.error).toBeUndefined();
      const { pre_checkout_query_id: _id, ...answer } = call.params;
      return answer;
    };
    /** A checkout the flow accepts, then the payment: what payment_trigger's flow says. */
    const pay = async (u: FakeUser, amount: number, payload: string) => {
      expect(await checkout(u, amount, payload)).toEqual({ ok: true });
      return (await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000))[0]!.params.text;
    };

    beforeAll(async () => {
      p = await startRunnerPlatform({ env: { BOT_ISOLATION: isolation } });
      const cookie = await loginAs(p.t, 94);
      b = await addBot(p, cookie, `Edges${isolation}`, { data: scenario });
      expect((await act(p, b, "start")).status).toBe(200);
    });
    afterAll(async () => {
      await p?.close();
    });

    test("a copy button whose variable is empty is left out; the message and its other buttons go out", async () => {
      const u = user();
      const sent = await say(u, "/start");
      expect(sent.params.text).toBe("Shop");
      expect(sent.params.reply_markup.inline_keyboard.map((row: { text: string }[]) => row.map((x) => x.text))).toEqual([["Next"]]);
    });

    test("a copy text over 256 characters is cut to 256 without splitting an emoji", async () => {
      const u = user();
      const sent = await say(u, "/long");
      const copied: string = sent.params.reply_markup.inline_keyboard[0][0].copy_text.text;
      expect(copied).toBe("a".repeat(255));
    });

    test("in a group a Mini App button is left out (Telegram refuses it there); in the private chat it shows", async () => {
      const u = user();
      const group = -100_940_000 - n;
      p.fake.sendGroupMessage(b.bot.token, group, u, "/app");
      const [inGroup] = await p.fake.waitForSent(b.bot.token, group, 1, 10_000);
      expect(inGroup!.params.text).toBe("App");
      expect(inGroup!.params.reply_markup.inline_keyboard.map((row: { text: string }[]) => row[0]!.text)).toEqual(["Next"]);
      const own = await say(u, "/app");
      expect(own.params.reply_markup.inline_keyboard[0][0]).toEqual({ text: "Open", web_app: { url: "https://shop.example/app" } });
    });

    test("a user who starts with their own referral link is not their own referrer; a friend's link names the friend", async () => {
      const u = user();
      expect((await say(u, `/start ref_${u.id}`)).params.text).toBe("invited by []");
      const friend = user();
      expect((await say(friend, `/start ref_${u.id}`)).params.text).toBe("invited by [" + u.id + "]");
      const cardOf = async (id: number) => (await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/users/${id}`, { cookie: b.cookie })).body;
      // the people's records are written with the bot's next record batch
      let card = await cardOf(friend.id);
      for (let i = 0; i < 50 && card.referrerId !== String(u.id); i++) {
        await Bun.sleep(100);
        card = await cardOf(friend.id);
      }
      expect([card.source, card.referrerId]).toEqual([`ref_${u.id}`, String(u.id)]);
      expect(await cardOf(u.id)).toMatchObject({ source: `ref_${u.id}`, referrerId: null });
    });

    test("a payment Telegram delivers again runs no flow, whatever payment came since and after a restart of the bot", async () => {
      const u = user();
      const paidUpdate = (charge: string, amount: number) => ({ successful_payment: { currency: "XTR", total_amount: amount, invoice_payload: "coins", telegram_payment_charge_id: charge, provider_payment_charge_id: "" } });
      const payA = () => p.fake.sendUserMessage(b.bot.token, u, paidUpdate(`a${u.id}`, 3));
      const payB = () => p.fake.sendUserMessage(b.bot.token, u, paidUpdate(`b${u.id}`, 4));
      payA();
      expect((await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000))[0]!.params.text).toBe("paid 3 for coins");
      payA();
      payB();
      // one chat's updates run in order: had a redelivery run its flow, its answer would come first
      expect((await p.fake.waitForSent(b.bot.token, u.id, 1, 10_000))[0]!.params.text).toBe("paid 4 for coins");
      // A again after the newer B: the chat's last charge is B's, and A's flow still does not run
      payA();
      expect((await say(u, "/status")).params.text).toBe("bought: coins for 4");
      // the bot's payments table remembers both charges across a restart
      await p.fake.waitForConfirmed(b.bot.token);
      expect((await act(p, b, "restart")).status).toBe(200);
      payB();
      payA();
      expect((await say(u, "/status")).params.text).toBe("bought: coins for 4");
      expect(p.fake.sent(b.bot.token, u.id).map((c) => c.params.text).filter((t) => String(t).startsWith("paid"))).toEqual(["paid 3 for coins", "paid 4 for coins"]);
    });

    test("a malformed successful_payment runs nothing and records nothing; the other users' records of that moment are kept", async () => {
      const eve = user();
      const bob = user();
      p.fake.sendUserMessage(b.bot.token, eve, { successful_payment: { currency: "XTR", total_amount: "lots", invoice_payload: "x" } });
      expect((await say(bob, "/status")).params.text).toBe("bought:  for ");
      // Eve's next answer is to her /status: the payment flow did not run for the malformed one
      expect((await say(eve, "/status")).params.text).toBe("bought:  for ");
      const chatsOf = async () => (await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/chats?search=${bob.id}`, { cookie: b.cookie })).body;
      let chats = await chatsOf();
      for (let i = 0; i < 50 && chats.total !== 1; i++) {
        await Bun.sleep(100);
        chats = await chatsOf();
      }
      expect(chats.items.map((c: { chatId: string }) => c.chatId)).toEqual([String(bob.id)]);
      expect((await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/users/${eve.id}/payments`, { cookie: b.cookie })).body.total).toBe(0);
    });

    test("texts cut to Telegram's limits never end in half an emoji: a checkout's refusal, a menu command's description", async () => {
      const u = user();
      expect(await checkout(u, 5, "gone_1")).toEqual({ ok: false, error_message: "x".repeat(254) });
      const menu = p.fake.calls(b.bot.token, "setMyCommands").at(-1)!.params.commands as { command: string; description: string }[];
      expect(menu.find((c) => c.command === "about")?.description).toBe("d".repeat(254) + "…");
    });

    test("a refused checkout leaves the variables of the last payment as they were", async () => {
      const u = user();
      expect(await pay(u, 1, "basic")).toBe("paid 1 for basic");
      expect(await checkout(u, 500, "vip_year")).toEqual({ ok: false, error_message: "Not for you" });
      expect((await say(u, "/status")).params.text).toBe("bought: basic for 1");
      // A user who never paid has no payment variables after a refused checkout either.
      const v = user();
      expect(await checkout(v, 3, "vip_month")).toEqual({ ok: false, error_message: "Not for you" });
      expect((await say(v, "/status")).params.text).toBe("bought:  for ");
    });

    test("a checkout in a chat an operator holds is answered by its flow", async () => {
      const u = user();
      expect((await say(u, "/status")).params.text).toBe("bought:  for ");
      // the chat's row is written with the bot's next record batch
      let held = await p.t.call("PUT", `/api/bot/tokens/${b.tokenId}/chats/${u.id}/takeover`, { cookie: b.cookie, json: { on: true } });
      for (let i = 0; i < 50 && held.status !== 200; i++) {
        await Bun.sleep(100);
        held = await p.t.call("PUT", `/api/bot/tokens/${b.tokenId}/chats/${u.id}/takeover`, { cookie: b.cookie, json: { on: true } });
      }
      expect(held.body.takeover).toBe(true);
      expect(await checkout(u, 5, "vip_1")).toEqual({ ok: false, error_message: "Not for you" });
      p.fake.sendUserMessage(b.bot.token, u, { text: "/status" });
      // accepted, and what was bought is delivered though the chat is held: the user has paid
      expect(await pay(u, 5, "basic")).toBe("paid 5 for basic");
      // the operator still has the conversation: the /status before it had no answer
      expect(p.fake.sent(b.bot.token, u.id).filter((c) => String(c.params.text).startsWith("bought:")).length).toBe(1);
    });
  });
}
