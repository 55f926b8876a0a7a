// docs/hooks.md with real bots on the fake messenger, in shared runners and in processes of their
// own (polling, and webhook mode once): a POST from outside makes the user receive the flow's
// message with the body's variables; a wrong or rotated-away secret runs nothing (shown by the next
// message being the one a right secret asked for, not by waiting). The trigger node counts in the
// funnel as reached by the user the request names.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import type { FakeUser } from "../support/fake-messenger";
import { act, addBot, startRunnerPlatform, type RunnerPlatform, type TestBot } from "../bots/runner-platform";
import { hookScenario } from "./scenario";

const cases = [
  { isolation: "runner", mode: "polling" },
  { isolation: "process", mode: "polling" },
  { isolation: "runner", mode: "webhook" },
] as const;

for (const { isolation, mode } of cases) {
  describe(`inbound webhook (BOT_ISOLATION=${isolation}, ${mode})`, () => {
    let p: RunnerPlatform;
    let b: TestBot;
    let n = 0;
    const user = (): FakeUser => ({ id: 95_000 + n++ + (isolation === "process" ? 500 : 0) + (mode === "webhook" ? 900 : 0), first_name: "Ann", language_code: "en" });
    const secret = async () => {
      const r = await p.t.call("POST", `/api/projects/${b.projectId}/hooks/paid/secret`, { cookie: b.cookie });
      expect(r.status).toBe(201);
      return r.body as { path: string; secret: string };
    };
    const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
      p.t.call("POST", path, { body: JSON.stringify(body), headers: { "content-type": "application/json", "x-botloom-secret": key, ...headers } });

    beforeAll(async () => {
      p = await startRunnerPlatform({ env: { BOT_ISOLATION: isolation } });
      const cookie = await loginAs(p.t, 95);
      b = await addBot(p, cookie, `Hooks${isolation}${mode}`, { data: hookScenario, mode });
      expect((await act(p, b, "start")).status).toBe(200);
    });
    afterAll(async () => {
      await p?.close();
    });

    test("a POST from outside makes the user receive the flow's message with the body's variables", async () => {
      const u = user();
      p.fake.sendText(b.bot.token, u, "/start");
      expect((await p.fake.waitForSent(b.bot.token, u.id, 1, 15_000))[0]!.params.text).toBe("hi Ann");
      // The bot's message store (docs/dialogs.md) knows the user once its batch is written: the hook's flow greets by that name.
      const deadline = Date.now() + 10_000;
      while ((await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/chats?search=${u.id}`, { cookie: b.cookie })).body.items?.length !== 1) {
        if (Date.now() > deadline) throw new Error("the chat was never recorded");
        await Bun.sleep(50);
      }
      const h = await secret();
      const r = await post(h.path, h.secret, { order: "A-1", total: 12.5, customer: { telegram_id: u.id } });
      expect(r.status).toBe(200);
      const [sent] = await p.fake.waitForSent(b.bot.token, u.id, 1, 15_000);
      expect(sent!.params.text).toBe("Order A-1 paid: 12.5, thanks Ann");
      // the webhook_trigger node counts as reached by the user it names, with its transition (docs/analytics.md)
      const funnel = async () => (await p.t.call("GET", `/api/bot/tokens/${b.tokenId}/analytics/nodes`, { cookie: b.cookie })).body;
      const until = Date.now() + 10_000;
      let f = await funnel();
      // the node's visit and its transition may reach the rollups in different batches: wait for both
      const counted = (x: typeof f) => x.edges?.some((e: { from: string }) => e.from === "paid") && x.items?.some((i: { nodeId: string }) => i.nodeId === "paid");
      while (!counted(f) && Date.now() < until) {
        await Bun.sleep(100);
        f = await funnel();
      }
      expect(f.items.find((i: { nodeId: string }) => i.nodeId === "paid")).toEqual({ nodeId: "paid", sheetId: "s", users: 1, visits: 1 });
      expect(f.edges.find((e: { from: string }) => e.from === "paid")).toEqual({ from: "paid", to: "thanks", users: 1 });
    });

    test("a wrong secret and a rotated-away secret run nothing: the next message is the right secret's", async () => {
      const u = user();
      const old = await secret();
      const now = await secret();
      expect((await post(now.path, "whs_wrong", { order: "WRONG", total: 1, customer: { telegram_id: u.id } })).status).toBe(401);
      expect((await post(old.path, old.secret, { order: "OLD", total: 1, customer: { telegram_id: u.id } })).status).toBe(401);
      expect((await post(now.path, now.secret, { order: "RIGHT", total: 2, customer: { telegram_id: u.id } })).status).toBe(200);
      const [sent] = await p.fake.waitForSent(b.bot.token, u.id, 1, 15_000);
      expect(sent!.params.text).toBe("Order RIGHT paid: 2, thanks ");
    });

    if (isolation === "runner" && mode === "polling") {
      test("a delivery retried with its Idempotency-Key reaches the user once: the next message is the next key's", async () => {
        const u = user();
        const h = await secret();
        const order = (id: string, key: string) => post(h.path, h.secret, { order: id, total: 1, customer: { telegram_id: u.id } }, { "idempotency-key": key });
        expect((await order("A", "delivery-a")).status).toBe(200);
        const retried = await order("A", "delivery-a");
        expect(retried.status).toBe(200);
        expect(retried.headers.get("idempotent-replayed")).toBe("true");
        expect((await order("B", "delivery-b")).status).toBe(200);
        const sent = await p.fake.waitForSent(b.bot.token, u.id, 2, 15_000);
        expect(sent.map((m) => m.params.text)).toEqual(["Order A paid: 1, thanks ", "Order B paid: 1, thanks "]);
      });

      test("a stopped bot: 409 BOT_NOT_RUNNING; started again, the hook works", async () => {
        const u = user();
        const h = await secret();
        expect((await act(p, b, "stop")).status).toBe(200);
        const r = await post(h.path, h.secret, { order: "X", total: 0, customer: { telegram_id: u.id } });
        expect(r.status).toBe(409);
        expect(r.body.error).toBe("BOT_NOT_RUNNING");
        // A polling bot counts as running once launched, before it has checked its token: a hook
        // arriving then waits for that check instead of failing in the bot.
        const started = act(p, b, "start");
        while (p.t.ctx.bots.state(b.tokenId).status !== "running") await Bun.sleep(1);
        expect((await post(h.path, h.secret, { order: "Y", total: 3, customer: { telegram_id: u.id } })).status).toBe(200);
        expect((await started).status).toBe(200);
        const [sent] = await p.fake.waitForSent(b.bot.token, u.id, 1, 15_000);
        expect(sent!.params.text).toBe("Order Y paid: 3, thanks ");
      }, 30_000);
    }
  });
}
