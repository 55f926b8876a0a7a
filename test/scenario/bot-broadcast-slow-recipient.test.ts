// One slow recipient does not hold a broadcast up (docs/nodes/messaging.md#broadcast): its sends
// start at the pace, a few in flight at once, so a recipient whose chat is busy with a long turn
// (an http_request its server holds) or whose send the messenger answers late holds only their own
// message. The broadcast used to send one after another, and everyone behind waited. A real bot on
// the fake messenger; each wait is for an event the test releases.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { heldService } from "./held-service";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
const dir = tmpDir("scenario-broadcast-slow-");
const api = heldService();
/** requests the test's server holds until released */
const held = api.held;

const scenario = doc(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", { messageText: "hello" }),
  ...api.slowCommand(),
  node("cmd-news", "command_trigger", { command: "/news", autoTransitionTo: "send-news" }),
  node("send-news", "broadcast", { broadcastTargetNode: "news", successMessage: "Sent {sent} of {total}" }),
  node("news", "message", { messageText: "News" }),
);

let ann: Chat;
let others: Chat[];
let ada: Chat;

beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario, { dir, env: { BOTLOOM_EGRESS_ALLOW: "127.0.0.1" } });
  // without a user database the recipients are the chats seen, in the order they first wrote: Ann first
  ann = new Chat(b, { first_name: "Ann" });
  await ann.say("/start");
  others = ["Bob", "Cid", "Dan", "Eve", "Fay"].map((first_name) => new Chat(b, { first_name }));
  for (const c of others) await c.say("/start");
  ada = new Chat(b, { first_name: "Ada" });
});

afterAll(async () => {
  api.releaseAll();
  await b?.stop();
  await fake?.stop();
  api.stop();
  removeDir(dir);
});

test("a recipient whose chat is busy with a long turn gets the news when it ends; the others get it meanwhile", async () => {
  await ann.say("/slow", 0);
  await until(() => held.length === 1 || undefined, "Ann's request at the slow service");
  await ada.say("/news", 0);
  for (const c of others) expect((await c.replies(1, 10_000))[0]!.params.text).toBe("News");
  expect(held.length).toBe(1);
  expect(fake.sent(b.bot.token, ann.user.id).map((c) => c.params.text)).toEqual(["hello"]);
  held.shift()!();
  expect((await ann.replies(2, 10_000)).map((c) => c.params.text)).toEqual(["slow done", "News"]);
  expect((await ada.replies(2, 10_000)).map((c) => c.params.text)).toEqual(["News", "Sent 7 of 7"]);
}, 40_000);

test("a send the messenger answers late holds only that recipient; the report waits for it", async () => {
  const release = fake.holdChat(b.bot.token, ann.user.id);
  try {
    await ada.say("/news", 0);
    for (const c of others) expect((await c.replies(1, 10_000))[0]!.params.text).toBe("News");
    expect((await ada.replies(1, 10_000))[0]!.params.text).toBe("News");
    // Ann's message went first (starts keep the recipients' order) and is still waiting for its answer
    const news = fake.calls(b.bot.token, "sendMessage").filter((c) => /^News/.test(c.params.text)).slice(-7);
    expect(news.map((c) => c.params.chat_id)).toEqual([ann, ...others, ada].map((c) => c.user.id));
    expect(fake.sent(b.bot.token, ada.user.id).at(-1)!.params.text).toBe("News");
  } finally {
    release();
  }
  expect((await ada.replies(1, 10_000))[0]!.params.text).toBe("Sent 7 of 7");
  await b.waitForOutput("broadcast send-news: done, 7 of 7 sent, 0 failed");
}, 40_000);
