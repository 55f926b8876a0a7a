// Executes a generated bot: delay with a unit and a {variable} length, input nodes that take a
// location or a contact, and callback input (a dynamic button answers a waiting question).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { inputsScenario as scenario } from "./fixtures-messaging";
import { Chat, removeDir, startBot, type BotProcess } from "./harness";

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
