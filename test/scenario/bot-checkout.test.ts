// A long turn of one chat (a held http_request) does not hold the bot's other chats
// (docs/runtime.md#taking-updates). A checkout (pre_checkout_query) is answered within Telegram's
// 10 seconds (docs/nodes/payments.md): a checkout flow that has not decided by the deadline is
// refused with the documented message, one log line says so, and the flow's later decision is
// ignored; a checkout does not wait behind a long turn of the same chat, and what its flow sets is
// kept (its three payment values aside). A real bot on the fake messenger; the flows wait on a
// loopback server the test holds and releases. The deadline is 8 s in the product; the bot here
// gets 3 s (BOTLOOM_CHECKOUT_DEADLINE_MS may only shorten it) so the test waits less.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Server } from "bun";
import { startFakeMessenger, type FakeMessenger, type RecordedCall } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
let server: Server<undefined>;
/** requests the test holds, by their ?who=: each test arms the ones it holds and releases them */
const holds = new Map<string, { arrived: Promise<void>; came: () => void; release: () => void; released: Promise<void> }>();

function arm(who: string) {
  let came!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((r) => (came = r));
  const released = new Promise<void>((r) => (release = r));
  const h = { arrived, came, release, released };
  holds.set(who, h);
  return h;
}

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0, // a held request stays held until the test releases it
    async fetch(req) {
      const h = holds.get(new URL(req.url).searchParams.get("who") ?? "");
      h?.came();
      await h?.released;
      return Response.json({ ok: true });
    },
  });
  const url = `http://127.0.0.1:${server.port}/hold`;
  const http = (id: string, who: string, next: string) =>
    node(id, "http_request", { httpRequestUrl: `${url}?who=${who}`, httpRequestMethod: "GET", httpRequestStatusVariable: "st", httpRequestTimeout: 60, autoTransitionTo: next });
  fake = await startFakeMessenger();
  b = await startBot(fake, doc(
    node("checkout", "checkout_trigger", { autoTransitionTo: "which" }),
    node("which", "condition", { variable: "payment_payload", branches: [{ id: "s", operator: "starts_with", value: "slow", target: "stock" }, { id: "e", operator: "else", target: "note" }] }),
    node("whether", "condition", { variable: "payment_payload", branches: [{ id: "n", operator: "starts_with", value: "no", target: "notToday" }] }),
    node("notToday", "refuse_checkout", { reason: "Not today" }),
    http("stock", "checkout", "refuse"),
    node("refuse", "refuse_checkout", { reason: "Sold out", autoTransitionTo: "checked" }),
    node("checked", "message", { messageText: "stock checked" }),
    node("note", "set_variable", { assignments: [{ variable: "last_checkout", value: "{payment_payload}" }], autoTransitionTo: "whether" }),
    node("slowCmd", "command_trigger", { command: "/slow", autoTransitionTo: "slowCall" }),
    http("slowCall", "slow", "slowDone"),
    node("slowDone", "message", { messageText: "slow done" }),
    node("statusCmd", "command_trigger", { command: "/status", autoTransitionTo: "status" }),
    node("status", "message", { messageText: "last checkout [{last_checkout}], paid [{payment_payload}]" }),
  ), {
    generate: { enableLogging: true },
    // the egress policy (docs/security.md) refuses loopback unless the operator allows it
    env: { BOTLOOM_EGRESS_ALLOW: "127.0.0.1", BOTLOOM_CHECKOUT_DEADLINE_MS: "3000" },
  });
});

afterAll(async () => {
  for (const h of holds.values()) h.release();
  await b?.stop();
  if (b) removeDir(b.dir);
  server?.stop(true);
  await fake?.stop();
});

const answersTo = (id: string) => (c: RecordedCall) => c.method === "answerPreCheckoutQuery" && c.params.pre_checkout_query_id === id;

/** The user presses Pay on an invoice with this payload: the bot's answer. */
async function checkout(chat: Chat, payload: string) {
  const id = fake.checkout(b.bot.token, chat.user, { amount: 5, payload });
  const answer = await fake.waitForCall(b.bot.token, answersTo(id), 10_000);
  expect(answer.error).toBeUndefined();
  const { pre_checkout_query_id: _id, ...rest } = answer.params;
  return { id, answer: rest };
}

test("while a chat's turn waits on a long request, the bot answers other chats", async () => {
  const slow = arm("slow");
  const chat = new Chat(b);
  fake.sendText(b.bot.token, chat.user, "/slow");
  await slow.arrived;
  expect((await new Chat(b).say("/status")).map((c) => c.params.text)).toEqual(["last checkout [], paid []"]);
  slow.release();
  expect((await chat.replies(1, 10_000)).map((c) => c.params.text)).toEqual(["slow done"]);
});

test("a checkout flow that has not decided by the deadline is refused with the documented message; its later decision is ignored", async () => {
  const stock = arm("checkout");
  const chat = new Chat(b);
  const { id, answer } = await checkout(chat, "slow_1");
  expect(answer).toEqual({ ok: false, error_message: "The shop could not confirm the order in time. Please try to pay again." });
  await b.waitForOutput(`chat ${chat.user.id}: checkout slow_1 not decided within 3 s: refused; its flow's decision will be ignored`);
  // the flow was still waiting on its request when the answer went
  await stock.arrived;
  stock.release();
  expect((await chat.replies(1, 10_000)).map((c) => c.params.text)).toEqual(["stock checked"]);
  await b.waitForOutput("checkout slow_1 decided late: ignored");
  // its refuse_checkout came too late: the one answer stands
  expect(fake.calls(b.bot.token).filter(answersTo(id)).map((c) => c.params.ok)).toEqual([false]);
});

test("a checkout is answered while the same chat waits on a long turn; what its flow set is kept, its payment values are not", async () => {
  const slow = arm("slow");
  const chat = new Chat(b);
  fake.sendText(b.bot.token, chat.user, "/slow");
  await slow.arrived;
  // the chat's /slow turn still waits on its request (the test releases it below)
  expect((await checkout(chat, "no_thanks")).answer).toEqual({ ok: false, error_message: "Not today" });
  expect(fake.sent(b.bot.token, chat.user.id)).toEqual([]);
  slow.release();
  expect((await chat.replies(1, 10_000)).map((c) => c.params.text)).toEqual(["slow done"]);
  expect((await chat.say("/status")).map((c) => c.params.text)).toEqual(["last checkout [no_thanks], paid []"]);
});
