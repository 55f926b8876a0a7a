// Inline button data is index-based. A button on a message sent by an older version of the
// scenario must not silently run whatever now sits at that index.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, node, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
const bots: BotProcess[] = [];
beforeAll(async () => {
  fake = await startFakeMessenger();
});
afterAll(async () => {
  for (const b of bots) await b.stop();
  await fake.stop();
});

const version = (label: string, answer: string) =>
  doc(
    node("start", "start", { command: "/start", messageText: "Menu", keyboardType: "inline", buttons: [{ id: "b", text: label, action: "goto", target: "answer" }] }),
    node("answer", "message", { messageText: answer }),
  );

test("a press on a button whose label changed since is refused with a notice", async () => {
  const v1 = await startBot(fake, version("Prices", "Here are the prices"));
  bots.push(v1);
  const chat = new Chat(v1);
  const [menu] = await chat.say("/start");
  const data = menu.params.reply_markup.inline_keyboard[0][0].callback_data;
  await v1.stop();

  // The scenario changed: the same index now holds another button.
  const v2 = await startBot(fake, version("Delete my data", "Deleted"), { bot: v1.bot });
  bots.push(v2);
  fake.pressButton(v1.bot.token, chat.user, data, menu.messageId);
  const answer = await fake.waitForCall(v1.bot.token, (c) => c.method === "answerCallbackQuery" && c.at > Date.now() - 10_000 && c.params.text !== undefined);
  expect(answer.params.text).toBe("This button is outdated. Send /start.");
  await chat.quiet();

  // A button whose label still matches works as before.
  const [fresh] = await chat.say("/start");
  expect(await chat.press(fresh.params.reply_markup.inline_keyboard[0][0].callback_data, 1, fresh.messageId)).toMatchObject([{ params: { text: "Deleted" } }]);
});
