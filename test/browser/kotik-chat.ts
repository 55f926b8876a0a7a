// Driving the kotik questionnaire in a preview chat (the Preview tab or the editor's side panel):
// type a message, wait for a bot text, and the opening steps both walks share.
import type { Locator } from "playwright-core";

export function kotikChat(chat: Locator) {
  const input = chat.getByLabel("Message", { exact: true });
  const say = async (text: string) => {
    await input.fill(text);
    await chat.getByRole("button", { name: "Send" }).click();
  };
  const botSaid = (text: string) => chat.locator('[data-from="bot"] [data-testid="pv-text"]', { hasText: text }).last().waitFor({ timeout: 20_000 });
  /** From the bot's first question (after /start) to "Из какого ты города?": age 31, a girl, likes boys. */
  const toCity = async () => {
    await botSaid("Сколько тебе лет?");
    await say("31");
    await botSaid("Теперь определимся с полом");
    await chat.getByRole("button", { name: "Я девушка" }).click();
    await botSaid("Кто тебе интересен?");
    await chat.getByRole("button", { name: "Парни" }).click();
    await botSaid("Из какого ты города?");
  };
  return { say, botSaid, toCity };
}
