// A Telegram user of someone's bot forging callback data: custom clients can send any
// callback_data for a message in their chat, not only the data of the buttons it shows. The bot
// accepted it, so a user reached the target of any button, an admin panel's included.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, inlineData, node, removeDir, startBot, type BotProcess } from "./harness";

const ADMIN = { id: 4_400_001, first_name: "Ada", language_code: "en" };
const btn = (id: string, text: string, target: string) => ({ id, text, action: "goto", target });
const scenario = doc(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", { messageText: "hello", keyboardType: "inline", buttons: [btn("b1", "Hi", "hello")] }),
  node("cmd-admin", "command_trigger", { command: "/admin", adminOnly: true, autoTransitionTo: "panel" }),
  node("panel", "message", { messageText: "admin panel", keyboardType: "inline", buttons: [btn("b2", "Wipe", "wipe")] }),
  node("wipe", "message", { messageText: "WIPED everything" }),
);

let fake: FakeMessenger;
let b: BotProcess;
beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario, { generate: { enableLogging: true }, env: { ADMIN_IDS: String(ADMIN.id) } });
});
afterAll(async () => {
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

test("a non-admin cannot press the admin panel's button by forging its callback data; real presses work", async () => {
  const admin = new Chat(b, ADMIN);
  const [panel] = await admin.say("/admin");
  const wipe = inlineData(panel, "Wipe")!;
  expect(wipe).toBeDefined();
  const user = new Chat(b);
  expect((await user.say("/admin", 0)).length).toBe(0);
  await user.quiet(300);
  const [hello] = await user.say("/start");
  // The forged press on the user's own message: refused, logged, nothing sent.
  await user.press(wipe, 0, hello.messageId);
  await b.waitForOutput(/press refused: the message shows no button with data/);
  await user.quiet(300);
  expect(fake.sent(b.bot.token, user.user.id).map((c) => c.params.text)).not.toContain("WIPED everything");
  // The buttons the messages really show still work, for each.
  expect((await user.tap("Hi"))[0].params.text).toBe("hello");
  expect((await admin.tap("Wipe"))[0].params.text).toBe("WIPED everything");
});
