// The ai_answer node (docs/nodes/ai.md) in generated bots on the fake messenger, against a local fake
// LLM (test/support/fake-llm.ts): the request carries the system prompt with its variables, the
// user's last turns (from the message store when the bot keeps messages, else from the node's own
// memory) and the key from a secret env variable; a hanging endpoint, a 500, garbage and empty
// choices take the error exit with {ai_error} and one log line without the key, while the bot
// keeps answering other users; the egress policy and the secret-key rule hold.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const KEY = "sk-test-very-secret-4821";
let fake: FakeMessenger;
let llm: FakeLlm;
let stored: BotProcess;
let own: BotProcess;
let dbDir: string;

const say = (id: string, text: string) => node(id, "message", { messageText: text });
const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });

function scenario(base: string) {
  const ai = (id: string, model: string, extra: Record<string, unknown> = {}) =>
    node(id, "ai_answer", { aiBaseUrl: base, aiModel: model, aiApiKeyEnv: "LLM_KEY", aiTimeout: 1, errorTransitionTo: "sorry", ...extra });
  return doc(
    // a conversation: each answer goes back to the question, which waits for the next message
    cmd("chat", "ask"),
    node("ask", "input", { inputType: "text", inputVariable: "q", inputTargetNodeId: "talk" }),
    ai("talk", "echo", { aiSystemPrompt: "You help {first_name}. Topic: {topic}.", aiMemoryTurns: 2, aiTemperature: 0.2, aiMaxTokens: 64, autoTransitionTo: "ask" }),
    say("sorry", "sorry: {ai_error}"),
    // a conversation with long answers, not sent: the memory's byte budget
    cmd("bigchat", "askBig"),
    node("askBig", "input", { inputType: "text", inputVariable: "q", inputTargetNodeId: "bigTalk" }),
    ai("bigTalk", "big", { aiMemoryTurns: 50, aiSendAnswer: false, aiSaveTo: "", autoTransitionTo: "bigSaid" }),
    node("bigSaid", "message", { messageText: "noted", autoTransitionTo: "askBig" }),
    cmd("parrot", "askParrot"),
    node("askParrot", "input", { inputType: "text", inputVariable: "q", inputTargetNodeId: "parrot" }),
    ai("parrot", "parrot", { aiMemoryTurns: 0 }),
    cmd("saved", "quiet"),
    ai("quiet", "echo", { aiSendAnswer: false, aiSaveTo: "answer", aiUserMessage: "What about {topic}?", aiMemoryTurns: 0, autoTransitionTo: "got" }),
    say("got", "got [{answer}] err=[{ai_error}]"),
    cmd("hang", "hang"),
    ai("hang", "hang"),
    cmd("fail", "fail"),
    ai("fail", "fail"),
    cmd("garbage", "garbage"),
    ai("garbage", "garbage"),
    cmd("badkey", "badkey"),
    ai("badkey", "badkey"),
    cmd("empty", "empty"),
    ai("empty", "empty"),
    cmd("huge", "huge"),
    ai("huge", "huge"),
    cmd("plainkey", "plainkey"),
    ai("plainkey", "echo", { aiApiKeyEnv: "PLAIN_KEY" }),
    cmd("private", "private"),
    ai("private", "echo", { aiBaseUrl: "http://10.0.0.1:8080/v1" }),
    cmd("noexit", "noexit"),
    node("noexit", "ai_answer", { aiBaseUrl: base, aiModel: "fail", aiApiKeyEnv: "LLM_KEY", aiTimeout: 1, autoTransitionTo: "after" }),
    say("after", "after [{ai_error}]"),
    cmd("ping", "pong"),
    say("pong", "pong"),
  );
}

const env = (extra: Record<string, string> = {}) => ({
  BOTLOOM_ENV_KEYS: "LLM_KEY,PLAIN_KEY,topic",
  BOTLOOM_SECRET_KEYS: "LLM_KEY",
  LLM_KEY: KEY,
  PLAIN_KEY: "visible-key",
  topic: "tea",
  // the egress policy (docs/security.md) refuses loopback unless the operator allows it
  BOTLOOM_EGRESS_ALLOW: "127.0.0.1",
  ...extra,
});

beforeAll(async () => {
  llm = startFakeLlm();
  fake = await startFakeMessenger();
  dbDir = tmpDir("ai-bot-db-");
  stored = await startBot(fake, scenario(llm.url), { generate: { enableLogging: true }, env: env({ DATABASE_PATH: join(dbDir, "bot.db") }) });
  own = await startBot(fake, scenario(llm.url), { generate: { enableLogging: true }, env: env() });
});

afterAll(async () => {
  await stored?.stop();
  await own?.stop();
  for (const b of [stored, own]) if (b) removeDir(b.dir);
  await llm?.stop();
  await fake?.stop();
  if (dbDir) removeDir(dbDir);
});

const texts = (calls: { params: Record<string, any> }[]) => calls.map((c) => c.params.text);

describe("ai_answer answers with the conversation so far", () => {
  test("with the message store: the request holds the system prompt, the last turns and the key", async () => {
    const chat = new Chat(stored, { first_name: "Ann" });
    await chat.say("/chat", 0);
    const before = llm.requests.length;
    // "/chat" is the first turn the store holds
    expect(texts(await chat.say("hi there"))).toEqual(["echo: hi there (3 messages)"]);
    expect(texts(await chat.say("and tea?"))).toEqual(["echo: and tea? (5 messages)"]);
    const req = llm.requests[before + 1]!;
    expect(req.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({ model: "echo", temperature: 0.2, max_tokens: 64 });
    expect(req.body.messages).toEqual([
      { role: "system", content: "You help Ann. Topic: tea." },
      { role: "user", content: "/chat" },
      { role: "user", content: "hi there" },
      { role: "assistant", content: "echo: hi there (3 messages)" },
      { role: "user", content: "and tea?" },
    ]);
    // memory is 2 turns: the third message sees only the newest four of the store
    expect(texts(await chat.say("more"))).toEqual(["echo: more (6 messages)"]);
    expect(llm.requests[before + 2]!.body.messages!.slice(1, -1).map((m) => m.content)).toEqual(["hi there", "echo: hi there (3 messages)", "and tea?", "echo: and tea? (5 messages)"]);
  });

  test("without a message store: the node's own memory in the chat's state", async () => {
    const chat = new Chat(own, { first_name: "Bob" });
    await chat.say("/chat", 0);
    expect(texts(await chat.say("one"))).toEqual(["echo: one (2 messages)"]);
    expect(texts(await chat.say("two"))).toEqual(["echo: two (4 messages)"]);
    expect(texts(await chat.say("three"))).toEqual(["echo: three (6 messages)"]);
    expect(texts(await chat.say("four"))).toEqual(["echo: four (6 messages)"]);
    const last = llm.requests[llm.requests.length - 1]!.body.messages!;
    expect(last.map((m) => `${m.role}:${m.content}`)).toEqual([
      "system:You help Bob. Topic: tea.",
      "user:two",
      "assistant:echo: two (4 messages)",
      "user:three",
      "assistant:echo: three (6 messages)",
      "user:four",
    ]);
  });

  test("without a message store: the node's own memory keeps the newest turns within 32 KB, never half a character", async () => {
    const chat = new Chat(own);
    await chat.say("/bigchat", 0);
    const memoryOf = (r: { body: { messages?: { role: string; content: string }[] } }) =>
      r.body.messages!.slice(0, -1).filter((m) => m.role !== "system").map((m) => (m.role === "user" ? m.content : `${m.content.length}×ж`));
    // answers of 20,000 bytes: the second request has the first turn; the third only the second (40 KB > 32 KB)
    for (const q of ["10000", "10001", "10002"]) expect(texts(await chat.say(q))).toEqual(["noted"]);
    const n = llm.requests.length;
    expect(memoryOf(llm.requests[n - 2]!)).toEqual(["10000", "10000×ж"]);
    expect(memoryOf(llm.requests[n - 1]!)).toEqual(["10001", "10001×ж"]);
    // one turn over the budget on its own (40,000 bytes) is kept cut at a character's edge: the
    // question's 5 bytes leave an odd 32,763 for the answer, which holds 16,381 whole "ж"
    expect(texts(await chat.say("20000"))).toEqual(["noted"]);
    expect(texts(await chat.say("1"))).toEqual(["noted"]);
    expect(memoryOf(llm.requests[llm.requests.length - 1]!)).toEqual(["20000", "16381×ж"]);
    expect(llm.requests[llm.requests.length - 1]!.body.messages!.some((m) => m.content.includes("\uFFFD"))).toBe(false);
  });

  test("an answer over 4,096 characters goes out in parts, none ending in half an emoji", async () => {
    const chat = new Chat(own);
    await chat.say("/parrot", 0);
    const answer = "a".repeat(4095) + "😀" + "b".repeat(4094) + "😀c";
    expect(texts(await chat.say(answer, 3))).toEqual(["a".repeat(4095), "😀" + "b".repeat(4094), "😀c"]);
  });

  test("saved to a variable instead of sent; the user's message from a template", async () => {
    const chat = new Chat(own);
    expect(texts(await chat.say("/saved"))).toEqual(["got [echo: What about tea? (1 messages)] err=[]"]);
  });
});

describe("ai_answer errors take the error exit, with {ai_error} and one log line without the key", () => {
  test("a hanging endpoint times out while the bot answers others", async () => {
    const chat = new Chat(stored);
    const n = llm.requests.length;
    const pending = chat.say("/hang");
    await llm.arrived(n + 1);
    expect(texts(await new Chat(stored).say("/ping"))).toEqual(["pong"]);
    expect(texts(await pending)).toEqual(["sorry: no answer within 1 s"]);
    await stored.waitForOutput(/node hang: ai_answer "hang" at http:\/\/127\.0\.0\.1:\d+\/v1 failed: no answer within 1 s/);
  });

  test("500, garbage, empty choices and an answer without end", async () => {
    const chat = new Chat(stored);
    expect(texts(await chat.say("/fail"))).toEqual(["sorry: the endpoint answered 500: the model is overloaded"]);
    expect(texts(await chat.say("/garbage"))).toEqual(['sorry: the answer is not JSON: "<html>definitely not JSON"']);
    expect(texts(await chat.say("/empty"))).toEqual(["sorry: the answer has no choices"]);
    expect(texts(await chat.say("/huge"))).toEqual(["sorry: the answer is larger than 4194304 bytes"]);
    await stored.waitForOutput('node empty: ai_answer "empty" at');
  });

  test("an endpoint that quotes the key in its refusal: {ai_error} holds it masked, so a message cannot send it", async () => {
    const [text] = texts(await new Chat(stored).say("/badkey"));
    expect(text).toStartWith("sorry: the endpoint answered 401: Invalid API key provided: Bearer ");
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, 12));
  });

  test("without an error exit the flow goes on, {ai_error} set", async () => {
    expect(texts(await new Chat(stored).say("/noexit"))).toEqual(["after [the endpoint answered 500: the model is overloaded]"]);
  });

  test("a key from an env variable that is not secret is refused before any request", async () => {
    const n = llm.requests.length;
    expect(texts(await new Chat(stored).say("/plainkey"))).toEqual(["sorry: the env variable PLAIN_KEY is not marked secret; an API key must be"]);
    expect(llm.requests.length).toBe(n);
  });

  test("the egress policy holds: a private address is refused", async () => {
    expect(texts(await new Chat(stored).say("/private"))).toEqual([
      "sorry: 10.0.0.1:8080 is a private address: outbound requests reach public addresses only (an operator can allow internal services)",
    ]);
  });

  test("the key never appears in the bot's output", async () => {
    await stored.waitForOutput("ai_answer");
    for (const b of [stored, own]) expect(b.output()).not.toContain(KEY);
  });
});
