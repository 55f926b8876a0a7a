// Strings of the Dialogs tab and the Users tab's audience features (English and Russian, same
// keys), added to the app's translations when either tab's chunk loads (as the editor does).
import i18next from "i18next";

const en = {
  dialogs: {
    noBots: "Add a bot on the Bots tab: its conversations appear here.", pick: "Pick a chat on the left.", chats: "Chats", search: "Search: name, @username or id", searchHint: "Name, @username, id",
    kind: "Chat kind", filter: "Show", kinds: { all: "All kinds", private: "Private", group: "Group", supergroup: "Supergroup", channel: "Channel" },
    filters: { all: "All", unread: "Unread", takeover: "Taken over", blocked: "Blocked" }, marks: { takeover: "operator", blocked: "blocked" },
    none: "No conversations yet: they appear as soon as someone writes to the bot.", noMatch: "No chat matches.", unread: "Unread: {{count}}", page: "Page {{page}} of {{pages}}",
    back: "Back to the chats", profile: "User card", messages: "Messages", older: "Load older messages", empty: "No messages stored for this chat.",
    pressed: "Pressed “{{label}}”", sentBy: { bot: "bot", operator: "operator", campaign: "campaign", user: "user" }, openNode: "Open this node in the editor", fromNode: "Sent by node {{node}}",
    gotoNode: "Runs node {{node}}", buttons: "Buttons", editText: "New text",
    deleteTitle: "Delete this message?", deleteText: "It is deleted in the user's chat too (the messenger allows this for 48 hours).",
    takeoverOn: "You are answering this chat: the scenario stays silent here.", takeoverOff: "The scenario answers this chat.", takeOver: "Take over", release: "Hand back to the bot",
    resumeAt: "Then run", resumeNone: "nothing (wait for the user)",
    composer: "Reply as the bot", formatting: "Formatting", format: "Text format", formats: { none: "Plain text" },
    wrap: { bold: "Bold", italic: "Italic", underline: "Underline", strike: "Strikethrough", code: "Code", link: "Link" },
    attach: "Media and buttons", media: "Media from the project", noMedia: "No media", addButton: "Add a button", buttonText: "Button text", buttonKind: "Button action",
    buttonUrl: "Opens a URL", buttonGoto: "Runs a node", buttonTarget: "Button URL", buttonNode: "Node to run", newRow: "new row", removeButton: "Remove button {{text}}",
    message: "Message", send: "Send", sendHint: "Ctrl+Enter sends", blockedNote: "This user blocked the bot: a send will fail until they come back.",
  },
  people: {
    filter: "Show", filters: { all: "Everyone", active: "Active (30 days)", inactive: "Inactive", blocked: "Blocked" },
    language: "Language", userLanguage: "User language", tag: "Tag", source: "Source", sort: "Sort by",
    sorts: { lastSeen: "Last seen", registered: "First seen", messages: "Messages", name: "Name" },
    export: "Export CSV", exporting: "Exporting…", blocked: "blocked", takeover: "operator",
    premium: "Premium", yes: "yes", no: "no", sourceFact: "Source", referrer: "Referrer", messagesIn: "Messages in", messagesOut: "Messages out",
    blockedFact: "Blocked", blockedSince: "since {{date}}", takeoverFact: "Operator", tags: "Tags", noTags: "No tags.", addTag: "Add a tag", tagHint: "Up to 20 tags, each 1–32 characters.",
    removeTag: "Remove tag {{tag}}", saveTags: "Save tags", openDialog: "Open dialog", remove: "Delete user",
    removeTitle: "Delete {{name}}?", removeIntro: "This cannot be undone. Deleted:", removeWhat: "the user's record and tags; their variables and scenario state; their payment records; every stored message of their chat with this bot",
    removeNote: "If they write again they start as a new user.",
    payments: "Payments", noPayments: "No payments.", paymentStatus: { paid: "paid", refunded: "refunded" }, paymentsShown: "The newest {{shown}} of {{total}}.",
    refundedAt: "refunded {{date}}", payload: "Payload", charge: "Charge id",
  },
};

const ru: typeof en = {
  dialogs: {
    noBots: "Добавьте бота на вкладке «Боты» — здесь появятся его переписки.", pick: "Выберите чат слева.", chats: "Чаты", search: "Поиск: имя, @username или id", searchHint: "Имя, @username, id",
    kind: "Тип чата", filter: "Показать", kinds: { all: "Все типы", private: "Личные", group: "Группы", supergroup: "Супергруппы", channel: "Каналы" },
    filters: { all: "Все", unread: "Непрочитанные", takeover: "У оператора", blocked: "Заблокировали" }, marks: { takeover: "оператор", blocked: "заблокировал" },
    none: "Переписок пока нет: они появятся, как только боту кто-нибудь напишет.", noMatch: "Таких чатов нет.", unread: "Непрочитанных: {{count}}", page: "Страница {{page}} из {{pages}}",
    back: "К списку чатов", profile: "Карточка пользователя", messages: "Сообщения", older: "Загрузить более ранние", empty: "Для этого чата нет сохранённых сообщений.",
    pressed: "Нажата кнопка «{{label}}»", sentBy: { bot: "бот", operator: "оператор", campaign: "рассылка", user: "пользователь" }, openNode: "Открыть этот узел в редакторе", fromNode: "Отправил узел {{node}}",
    gotoNode: "Запускает узел {{node}}", buttons: "Кнопки", editText: "Новый текст",
    deleteTitle: "Удалить сообщение?", deleteText: "Оно удалится и в чате пользователя (мессенджер позволяет это в течение 48 часов).",
    takeoverOn: "Этот чат ведёте вы: сценарий здесь молчит.", takeoverOff: "В этом чате отвечает сценарий.", takeOver: "Взять на себя", release: "Вернуть боту",
    resumeAt: "Затем запустить", resumeNone: "ничего (ждать пользователя)",
    composer: "Ответ от имени бота", formatting: "Оформление", format: "Формат текста", formats: { none: "Обычный текст" },
    wrap: { bold: "Жирный", italic: "Курсив", underline: "Подчёркнутый", strike: "Зачёркнутый", code: "Код", link: "Ссылка" },
    attach: "Медиа и кнопки", media: "Медиа проекта", noMedia: "Без медиа", addButton: "Добавить кнопку", buttonText: "Текст кнопки", buttonKind: "Действие кнопки",
    buttonUrl: "Открывает ссылку", buttonGoto: "Запускает узел", buttonTarget: "Ссылка кнопки", buttonNode: "Узел для запуска", newRow: "новый ряд", removeButton: "Убрать кнопку {{text}}",
    message: "Сообщение", send: "Отправить", sendHint: "Ctrl+Enter — отправить", blockedNote: "Пользователь заблокировал бота: отправка не пройдёт, пока он не вернётся.",
  },
  people: {
    filter: "Показать", filters: { all: "Всех", active: "Активных (30 дней)", inactive: "Неактивных", blocked: "Заблокировавших" },
    language: "Язык", userLanguage: "Язык пользователя", tag: "Тег", source: "Источник", sort: "Сортировка",
    sorts: { lastSeen: "По последнему визиту", registered: "По первому визиту", messages: "По сообщениям", name: "По имени" },
    export: "Экспорт CSV", exporting: "Экспорт…", blocked: "заблокировал", takeover: "оператор",
    premium: "Premium", yes: "да", no: "нет", sourceFact: "Источник", referrer: "Пригласил", messagesIn: "Сообщений от него", messagesOut: "Сообщений ему",
    blockedFact: "Заблокировал бота", blockedSince: "с {{date}}", takeoverFact: "Оператор", tags: "Теги", noTags: "Тегов нет.", addTag: "Добавить тег", tagHint: "До 20 тегов, каждый 1–32 символа.",
    removeTag: "Убрать тег {{tag}}", saveTags: "Сохранить теги", openDialog: "Открыть диалог", remove: "Удалить пользователя",
    removeTitle: "Удалить {{name}}?", removeIntro: "Это нельзя отменить. Будут удалены:", removeWhat: "запись пользователя и его теги; его переменные и состояние сценария; записи его платежей; все сохранённые сообщения его чата с этим ботом",
    removeNote: "Если он напишет снова, он начнёт как новый пользователь.",
    payments: "Платежи", noPayments: "Платежей нет.", paymentStatus: { paid: "оплачен", refunded: "возвращён" }, paymentsShown: "Последние {{shown}} из {{total}}.",
    refundedAt: "возвращён {{date}}", payload: "Payload", charge: "Id платежа",
  },
};

let registered = false;
export function registerAudienceStrings() {
  if (registered) return;
  registered = true;
  i18next.addResourceBundle("en", "translation", en, true, true);
  i18next.addResourceBundle("ru", "translation", ru, true, true);
}
