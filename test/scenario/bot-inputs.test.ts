// Executes a generated bot: delay with a unit and a {variable} length, input nodes that take a
// location or a contact, callback input (a dynamic button answers a waiting question), and input
// nodes that ask their own question (docs/scenario.md "Input nodes").
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { validateScenario } from "../../src/scenario/validate";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { inputsScenario as scenario } from "./fixtures-messaging";
import { Chat, inlineRows, removeDir, startBot, type BotProcess } from "./harness";

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

describe("delay", () => {
  test("unit scales the length: 2 minutes are 120 seconds; a {variable} length keeps its unit", () => {
    const { code } = generateBot(scenario, { projectName: "D", userDatabaseEnabled: false });
    expect(code).toContain('{ t: "delay", id: "minutes", seconds: 120, next: "waited" }');
    expect(code).toContain('{ t: "delay", id: "wait", seconds: 1, template: "{pause}", next: "waited" }');
  });

  test("a delay whose length comes from a variable continues the flow afterwards", async () => {
    const chat = new Chat(b);
    const [waiting] = await chat.say("/wait");
    expect(waiting.params.text).toBe("waiting");
    const [waited] = await chat.replies(1, 4000);
    expect(waited.params.text).toBe("waited 0.2 s");
  });
});

describe("input kinds", () => {
  test("location input: text is refused with the retry message, a location is stored as lat,lon", async () => {
    const chat = new Chat(b);
    await chat.say("/where");
    expect((await chat.say("at home"))[0].params.text).toBe("A location, please");
    fake.sendUserMessage(b.bot.token, chat.user, { location: { latitude: 48.85, longitude: 2.35 } });
    expect((await chat.replies())[0].params.text).toBe("You are at 48.85,2.35");
  });

  test("contact input stores the phone number", async () => {
    const chat = new Chat(b);
    await chat.say("/phone");
    fake.sendContact(b.bot.token, chat.user, "+33 1 23 45 67 89");
    expect((await chat.replies())[0].params.text).toBe("Phone +33 1 23 45 67 89");
  });

  test("callback input: a dynamic button pressed while a question waits is the answer", async () => {
    const chat = new Chat(b);
    await chat.say("/pick");
    expect((await chat.tap("🍏 pear"))[0].params.text).toBe("Picked 🍏 pear (fruit_pear)");
  });
});

describe("the input node asks its question", () => {
  test("a button leading straight to the input: the prompt reaches the user with the input's buttons", async () => {
    const chat = new Chat(b);
    expect((await chat.say("/hello"))[0].params.text).toBe("Hi! What shall we do?");
    const [asked] = await chat.tap("Tell my name");
    expect(asked.params.text).toBe("What is your name, Ann?");
    expect(inlineRows(asked)).toEqual([["Anonymous"]]);
    expect((await chat.say("Bob"))[0].params.text).toBe("Nice to meet you, Bob!");
  });

  test("a button of the question answers it", async () => {
    const chat = new Chat(b);
    await chat.say("/hello");
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
  const withPrompt = (id: string, prompt: string) => {
    const d = structuredClone(scenario);
    d.sheets[0]!.nodes.find((n) => n.id === id)!.data.inputPrompt = prompt;
    return d;
  };

  test("a button straight to an input without a prompt is reported, in plain words", () => {
    const found = warningsOf(withPrompt("ask-name", "  "));
    expect(found.map((w) => w.nodeId)).toEqual(["ask-name"]);
    expect(found[0]!.message).toContain('saving "name"');
    expect(found[0]!.message).not.toContain("inputPrompt");
  });

  test("a question's button without a target answers it, so it is no incomplete button (unless it skips the answer)", () => {
    const incomplete = (d: unknown) => validateScenario(d).warnings.filter((w) => w.code === "BUTTON_INCOMPLETE" && w.nodeId === "ask-name");
    expect(incomplete(scenario)).toEqual([]);
    const d = structuredClone(scenario);
    (d.sheets[0]!.nodes.find((n) => n.id === "ask-name")!.data.buttons as Record<string, unknown>[])[0]!.skipDataCollection = true;
    expect(incomplete(d).map((w) => w.detail)).toEqual([{ button: "Anonymous", problem: "noTarget" }]);
  });

  test("an input with a prompt, or reached only after a message, is not reported", () => {
    expect(warningsOf(scenario)).toEqual([]);
    expect(warningsOf(withPrompt("city-input", ""))).toEqual([]);
  });
});
