// A user walks through both kotik questionnaires (today's form with command_trigger, conditions,
// keyboard nodes and input nodes; the legacy form with input collection inside message nodes):
// the same questions, keyboards and profile come out of both.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, HAS_COMPAT, readCompat, removeDir, replyRows, startBot, type BotProcess } from "./harness";

const suite = HAS_COMPAT ? describe : describe.skip;

let fake: FakeMessenger;
const bots: BotProcess[] = [];

beforeAll(async () => {
  if (HAS_COMPAT) fake = await startFakeMessenger();
});

afterAll(async () => {
  for (const b of bots) {
    await b.stop();
    removeDir(b.dir);
  }
  await fake?.stop();
});

for (const form of ["current", "legacy"]) {
  suite(`kotik-simple-anketa (${form})`, () => {
    let b: BotProcess;
    beforeAll(async () => {
      const record = readCompat(form, "kotik-simple-anketa");
      b = await startBot(fake, record, { generate: { projectName: record.name, userDatabaseEnabled: true } });
      bots.push(b);
    });

    test("the first five questions, then the profile with the user's photo", async () => {
      const chat = new Chat(b, { first_name: "Аня", language_code: "ru" });
      const [age] = await chat.say("/start");
      expect(age.params.text).toBe("Сколько тебе лет?");
      expect(age.params.reply_markup).toBeUndefined();

      const [gender] = await chat.say("25");
      expect(gender.params.text).toBe("Теперь определимся с полом");
      expect(replyRows(gender)).toEqual([["Я девушка"], ["Я парень"]]);
      expect(gender.params.reply_markup.resize_keyboard).toBe(true);

      const [interest] = await chat.say("Я девушка");
      expect(interest.params.text).toBe("Кто тебе интересен?");
      expect(replyRows(interest)).toEqual([["Девушки"], ["Парни"], ["Все равно"]]);

      const [city] = await chat.say("Все равно");
      expect(city.params.text).toBe("Из какого ты города?");

      const [name] = await chat.say("Москва");
      expect(name.params.text).toBe("Как мне тебя называть?");

      const [about] = await chat.say("Аня");
      expect(about.params.text).toStartWith("Расскажи о себе и кого хочешь найти");
      expect(replyRows(about)).toEqual([["Пропустить"]]);

      const [photoQuestion] = await chat.say("Пропустить");
      expect(photoQuestion.params.text).toStartWith("Теперь пришли фото или запиши видео");

      const update = fake.sendPhoto(b.bot.token, chat.user);
      const [intro, profile, confirm] = await chat.replies(3);
      expect(intro.params.text).toBe("Так выглядит твоя анкета:");
      expect(profile.method).toBe("sendPhoto");
      expect(profile.params.photo).toBe(update.message.photo.at(-1).file_id);
      expect(profile.params.caption).toBe("\nАня, 25, Москва - \n");
      expect(confirm.params.text).toBe("Все верно?");
      expect(replyRows(confirm)).toEqual([["Да"], ["Изменить анкету"]]);
    });

    test("answers are remembered: the age question offers the saved age as a button", async () => {
      const chat = new Chat(b, { first_name: "Оля", language_code: "ru" });
      await chat.say("/start");
      await chat.say("31");
      const [again] = await chat.say("/start");
      expect(again.params.text).toBe("Сколько тебе лет?");
      expect(replyRows(again)).toEqual([["31"]]);
      const [gender] = await chat.say("31");
      expect(gender.params.text).toBe("Теперь определимся с полом");
    });
  });
}
