// An input node asks its own question (inputPrompt, with its buttons) when the flow reaches it
// without a message on the way, e.g. straight from a button; after a message that asked, it waits
// without repeating. A real generated bot on the fake messenger (docs/scenario.md "Input nodes").
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { validateScenario } from "../../src/scenario/validate";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, inlineRows, node, removeDir, startBot, type BotProcess } from "./harness";

const scenario = doc(
  node("start", "start", {
    messageText: "Hi! What shall we do?",
    keyboardType: "inline",
    buttons: [
      { id: "b-info", text: "Opening hours", action: "goto", target: "info" },
      { id: "b-name", text: "Tell my name", action: "goto", target: "ask-name" },
    ],
  }),
  node("info", "message", { messageText: "Open 9 to 18" }),
  node("ask-name", "input", {
    inputType: "text",
    inputVariable: "name",
    inputTargetNodeId: "greet",
    inputPrompt: "What is your name, {first_name}?",
    keyboardType: "inline",
    buttons: [{ id: "b-anon", text: "Anonymous", action: "goto", target: "" }],
  }),
  node("greet", "message", { messageText: "Nice to meet you, {name}!" }),
  node("cmd-city", "command_trigger", { command: "/city", autoTransitionTo: "ask-city" }),
  node("ask-city", "message", { messageText: "Which city?", autoTransitionTo: "city-input" }),
  node("city-input", "input", { inputType: "text", inputVariable: "city", inputTargetNodeId: "got-city", inputPrompt: "Type your answer" }),
  node("got-city", "message", { messageText: "City: {city}" }),
);

let fake: FakeMessenger;
let b: BotProcess;

beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario, { generate: { enableLogging: !!process.env.DEBUG_BOT } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

describe("the input node asks its question", () => {
  test("a button leading straight to the input: the prompt reaches the user with the input's buttons", async () => {
    const chat = new Chat(b);
    const [hello] = await chat.say("/start");
    expect(hello.params.text).toBe("Hi! What shall we do?");
    const [asked] = await chat.tap("Tell my name");
    expect(asked.params.text).toBe("What is your name, Ann?");
    expect(inlineRows(asked)).toEqual([["Anonymous"]]);
    expect((await chat.say("Bob"))[0].params.text).toBe("Nice to meet you, Bob!");
  });

  test("a button of the question answers it", async () => {
    const chat = new Chat(b);
    await chat.say("/start");
    await chat.tap("Tell my name");
    expect((await chat.tap("Anonymous"))[0].params.text).toBe("Nice to meet you, Anonymous!");
  });

  test("after a message that asked, the input waits without repeating its prompt", async () => {
    const chat = new Chat(b);
    expect((await chat.say("/city"))[0].params.text).toBe("Which city?");
    // were the prompt sent too, it would be the next message instead of the answer's reply
    expect((await chat.say("Paris"))[0].params.text).toBe("City: Paris");
  });
});

describe("validation names inputs nothing asks", () => {
  const warningsOf = (d: unknown) => validateScenario(d).warnings.filter((w) => w.code === "QUESTION_MISSING");

  test("a button straight to an input without a prompt is reported, in plain words", () => {
    const d = structuredClone(scenario);
    const input = d.sheets[0]!.nodes.find((n) => n.id === "ask-name")!;
    input.data.inputPrompt = "  ";
    const found = warningsOf(d);
    expect(found.map((w) => w.nodeId)).toEqual(["ask-name"]);
    expect(found[0]!.message).toContain('saving "name"');
    expect(found[0]!.message).not.toContain("inputPrompt");
  });

  test("an input with a prompt, or reached only after a message, is not reported", () => {
    expect(warningsOf(scenario)).toEqual([]);
    const d = structuredClone(scenario);
    d.sheets[0]!.nodes.find((n) => n.id === "city-input")!.data.inputPrompt = "";
    expect(warningsOf(d)).toEqual([]);
  });
});
