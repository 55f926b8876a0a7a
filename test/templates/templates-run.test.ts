// Every built-in template generates a bot that runs: each one is generated, started as a real
// process against the fake messenger (all in parallel), answers /start with its exact first message
// and keyboard, and walks at least one more step (button press or reply-button text).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { builtInTemplateFiles } from "../../assets/templates";
import type { RecordedCall } from "../support/fake-messenger";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, inlineRows, removeDir, replyRows, startBot, type BotProcess } from "../scenario/harness";

type Keyboard = { inline: string[][] } | { reply: string[][] } | { remove: true } | null;
type Step = { tap: string } | { say: string };
interface Expect {
  text: string;
  keyboard?: Keyboard;
}
interface Walk {
  start: Expect;
  steps: { do: Step; replies: Expect[] }[];
}

const faqRuTopics = [
  ["🚚 Доставка", "💳 Оплата"],
  ["↩️ Возврат", "📞 Контакты"],
];
const faqEnTopics = [
  ["🚚 Shipping", "💳 Payment"],
  ["↩️ Returns", "📞 Contact us"],
];

// User of every chat: first name "Ann" (the harness's default).
const walks: Record<string, Walk> = {
  "faq-ru.json": {
    start: { text: "Здравствуйте, Ann! 👋\nЯ отвечу на частые вопросы. Выберите тему:", keyboard: { inline: faqRuTopics } },
    steps: [
      {
        do: { tap: "🚚 Доставка" },
        replies: [
          {
            text: "🚚 Доставка\n\nДоставляем по всей стране за 2–5 рабочих дней, по городу — курьером на следующий день. Стоимость видна при оформлении заказа; от 3000 ₽ доставка бесплатная.",
            keyboard: { inline: [["⬅️ Другие вопросы"]] },
          },
        ],
      },
      { do: { tap: "⬅️ Другие вопросы" }, replies: [{ text: "Выберите тему:", keyboard: { inline: faqRuTopics } }] },
      { do: { say: "Меню" }, replies: [{ text: "Выберите тему:", keyboard: { inline: faqRuTopics } }] },
    ],
  },
  "feedback-form-ru.json": {
    start: {
      text: "Спасибо, что выбрали нас! Оцените, пожалуйста, качество обслуживания:",
      keyboard: { reply: [["😍 Отлично", "🙂 Хорошо"], ["😐 Нормально", "😞 Плохо"]] },
    },
    steps: [
      { do: { say: "🙂 Хорошо" }, replies: [{ text: "Что нам стоит улучшить? Напишите пару слов одним сообщением.", keyboard: { remove: true } }] },
      {
        do: { say: "Отвечайте быстрее" },
        replies: [{ text: "Оставьте телефон или email, если хотите получить ответ. Или нажмите «Пропустить».", keyboard: { reply: [["Пропустить"]] } }],
      },
      { do: { say: "Пропустить" }, replies: [{ text: "Спасибо за отзыв! 🙏\n\nОценка: 🙂 Хорошо\nКомментарий: Отвечайте быстрее", keyboard: { remove: true } }] },
    ],
  },
  "questionnaire-ru.json": {
    start: { text: "Привет, Ann! Заполним короткую анкету — всего 3 вопроса.\n\nКак вас зовут?", keyboard: null },
    steps: [
      { do: { say: "Анна" }, replies: [{ text: "Приятно познакомиться, Анна! Сколько вам лет?" }] },
      { do: { say: "много" }, replies: [{ text: "Введите возраст числом, например 25." }] },
      { do: { say: "30" }, replies: [{ text: "Из какого вы города?" }] },
      {
        do: { say: "Казань" },
        replies: [{ text: "Проверьте анкету:\n\nИмя: Анна\nВозраст: 30\nГород: Казань\n\nВсё верно?", keyboard: { inline: [["✅ Всё верно"], ["✏️ Заполнить заново"]] } }],
      },
    ],
  },
  "appointment-booking-ru.json": {
    start: {
      text: "Здравствуйте! Я помогу записаться на приём.\n\nВыберите услугу:",
      keyboard: { inline: [["✂️ Стрижка — 1500 ₽"], ["💅 Маникюр — 2000 ₽"], ["💆 Массаж — 2500 ₽"]] },
    },
    steps: [
      { do: { tap: "💅 Маникюр — 2000 ₽" }, replies: [{ text: "Услуга: Маникюр.\nНа какой день вас записать?", keyboard: { reply: [["Сегодня", "Завтра", "Послезавтра"]] } }] },
      { do: { say: "Завтра" }, replies: [{ text: "Выберите удобное время:", keyboard: { reply: [["10:00", "12:00"], ["15:00", "18:00"]] } }] },
      { do: { say: "15:00" }, replies: [{ text: "Оставьте номер телефона для подтверждения записи:", keyboard: { remove: true } }] },
    ],
  },
  "product-catalog-ru.json": {
    start: {
      text: "🛍 Добро пожаловать в наш магазин!\n\nВыберите раздел каталога:",
      keyboard: { inline: [["👕 Одежда", "👟 Обувь"], ["🎒 Аксессуары"], ["ℹ️ Как заказать"]] },
    },
    steps: [
      { do: { tap: "👟 Обувь" }, replies: [{ text: "👟 Обувь\n\nВыберите товар:", keyboard: { inline: [["Кеды белые — 4990 ₽"], ["Ботинки демисезонные — 7990 ₽"], ["⬅️ В каталог"]] } }] },
      { do: { tap: "Кеды белые — 4990 ₽" }, replies: [{ text: "Кеды белые\n\nЦена: 4990 ₽\nНатуральная кожа, размеры 36–45.", keyboard: { inline: [["🛒 Заказать", "⬅️ Назад"]] } }] },
      {
        do: { tap: "🛒 Заказать" },
        replies: [{ text: "Вы выбрали: Кеды белые — 4990 ₽\n\nНапишите имя и телефон одним сообщением — менеджер свяжется с вами, чтобы подтвердить заказ." }],
      },
      { do: { say: "Анна, +7 900 000-00-00" }, replies: [{ text: "Спасибо! Заказ «Кеды белые — 4990 ₽» принят 🎉\nМенеджер свяжется с вами: Анна, +7 900 000-00-00" }] },
    ],
  },
  "quiz-ru.json": {
    start: { text: "🧠 Викторина: 3 вопроса об окружающем мире.\nЗа каждый верный ответ — 1 очко. Готовы?", keyboard: { inline: [["🚀 Начать"]] } },
    steps: [
      { do: { tap: "🚀 Начать" }, replies: [{ text: "Вопрос 1 из 3\n\nКакая планета ближе всего к Солнцу?", keyboard: { inline: [["Венера"], ["Меркурий"], ["Марс"]] } }] },
      { do: { tap: "Меркурий" }, replies: [{ text: "Вопрос 2 из 3\n\nКакой океан самый большой?" }] },
      { do: { tap: "Атлантический" }, replies: [{ text: "Вопрос 3 из 3\n\nКакой газ растения поглощают из воздуха для фотосинтеза?" }] },
      {
        do: { tap: "Углекислый газ" },
        replies: [{ text: "Подсчитываю результат… ⏳" }, { text: "👍 Неплохо! Ваш результат: 2 из 3.", keyboard: { inline: [["🔁 Сыграть ещё раз"]] } }],
      },
    ],
  },
  "support-contacts-ru.json": {
    start: {
      text: "Служба поддержки на связи 👋\nВыберите, что вас интересует:",
      keyboard: { reply: [["📞 Телефон", "✉️ Email"], ["🕒 Часы работы", "💬 Написать оператору"]] },
    },
    steps: [
      { do: { say: "🕒 Часы работы" }, replies: [{ text: "🕒 Мы работаем:\nПн–Пт: 9:00–20:00\nСб–Вс: 10:00–18:00\n(время московское)" }] },
      { do: { say: "💬 Написать оператору" }, replies: [{ text: "Опишите вопрос одним сообщением — оператор ответит здесь же в рабочее время." }] },
      { do: { say: "Не приходит чек" }, replies: [{ text: "Спасибо, Ann! Обращение принято:\n«Не приходит чек»\n\nОператор ответит в ближайшее рабочее время." }] },
    ],
  },
  "newsletter-signup-ru.json": {
    start: {
      text: "📬 Подпишитесь на нашу рассылку: раз в неделю — новости, полезные советы и скидки только для подписчиков.",
      keyboard: { inline: [["✅ Подписаться"], ["Не сейчас"]] },
    },
    steps: [
      { do: { tap: "✅ Подписаться" }, replies: [{ text: "Отлично! Укажите email, на который присылать письма:" }] },
      { do: { say: "не помню" }, replies: [{ text: "Это не похоже на email. Пример: name@example.com" }] },
      {
        do: { say: "ann@example.com" },
        replies: [{ text: "Готово, вы подписаны на рассылку ✅\nПервое письмо придёт на ann@example.com.\n\nОтписаться можно командой /unsubscribe." }],
      },
      { do: { say: "/start" }, replies: [{ text: "Вы уже подписаны на рассылку (ann@example.com) 👍", keyboard: { inline: [["Отписаться"]] } }] },
      { do: { tap: "Отписаться" }, replies: [{ text: "Вы отписались от рассылки. Вернуться можно в любой момент: /start" }] },
    ],
  },
  "faq-en.json": {
    start: { text: "Hi, Ann! 👋\nI answer the most common questions. Pick a topic:", keyboard: { inline: faqEnTopics } },
    steps: [
      {
        do: { tap: "↩️ Returns" },
        replies: [
          {
            text: "↩️ Returns\n\nUnused items can be returned within 30 days. Send us your order number and we will refund you within 5 business days.",
            keyboard: { inline: [["⬅️ Other questions"]] },
          },
        ],
      },
      { do: { say: "help" }, replies: [{ text: "Pick a topic:", keyboard: { inline: faqEnTopics } }] },
    ],
  },
  "feedback-form-en.json": {
    start: { text: "Thanks for choosing us! How would you rate our service?", keyboard: { reply: [["😍 Excellent", "🙂 Good"], ["😐 OK", "😞 Poor"]] } },
    steps: [
      { do: { say: "😍 Excellent" }, replies: [{ text: "What could we do better? Reply with a few words.", keyboard: { remove: true } }] },
      { do: { say: "Nothing, keep it up" }, replies: [{ text: "Thank you for your feedback! 🙏\n\nRating: 😍 Excellent\nComment: Nothing, keep it up" }] },
    ],
  },
  "quiz-en.json": {
    start: { text: "🧠 Quiz time: 3 questions about our planet.\nEach right answer scores 1 point. Ready?", keyboard: { inline: [["🚀 Start"]] } },
    steps: [
      { do: { tap: "🚀 Start" }, replies: [{ text: "Question 1 of 3\n\nWhich planet is closest to the Sun?", keyboard: { inline: [["Venus"], ["Mercury"], ["Mars"]] } }] },
      { do: { tap: "Mercury" }, replies: [{ text: "Question 2 of 3\n\nWhich is the largest ocean?", keyboard: { inline: [["Atlantic"], ["Pacific"], ["Indian"]] } }] },
      { do: { tap: "Pacific" }, replies: [{ text: "Question 3 of 3\n\nWhich gas do plants take from the air for photosynthesis?" }] },
      {
        do: { tap: "Carbon dioxide" },
        replies: [{ text: "Counting your points… ⏳" }, { text: "🏆 Perfect! 3 of 3 — not a single mistake.", keyboard: { inline: [["🔁 Play again"]] } }],
      },
    ],
  },
};

function keyboardOf(call: RecordedCall): Keyboard {
  const markup = call.params.reply_markup;
  if (!markup) return null;
  if (markup.inline_keyboard) return { inline: inlineRows(call) };
  if (markup.keyboard) return { reply: replyRows(call) };
  if (markup.remove_keyboard) return { remove: true };
  return null;
}

function check(call: RecordedCall, want: Expect) {
  expect(call.method).toBe("sendMessage");
  expect(call.params.text).toBe(want.text);
  if (want.keyboard !== undefined) expect(keyboardOf(call)).toEqual(want.keyboard);
}

let fake: FakeMessenger;
const bots = new Map<string, BotProcess>();

beforeAll(async () => {
  fake = await startFakeMessenger();
  const started = await Promise.allSettled(
    builtInTemplateFiles.map(async (f) => {
      const t = JSON.parse(f.text);
      bots.set(f.file, await startBot(fake, t.data, { generate: { projectName: t.name, userDatabaseEnabled: false } }));
    }),
  );
  const failed = started.filter((s) => s.status === "rejected");
  if (failed.length) throw (failed[0] as PromiseRejectedResult).reason;
}, 60_000);

afterAll(async () => {
  await Promise.all([...bots.values()].map(async (b) => {
    await b.stop();
    removeDir(b.dir);
  }));
  await fake?.stop();
});

test("every built-in template has a walk here", () => {
  expect(Object.keys(walks).sort()).toEqual(builtInTemplateFiles.map((f) => f.file).sort());
});

describe.each(builtInTemplateFiles.map((f) => f.file))("%s", (file) => {
  test("answers /start and walks on", async () => {
    const walk = walks[file]!;
    const chat = new Chat(bots.get(file)!);
    const [first] = await chat.say("/start");
    check(first!, walk.start);
    for (const step of walk.steps) {
      const replies = "tap" in step.do ? await chat.tap(step.do.tap, step.replies.length) : await chat.say(step.do.say, step.replies.length);
      step.replies.forEach((want, i) => check(replies[i]!, want));
    }
  }, 15_000);
});
