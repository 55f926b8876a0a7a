// Strings of the Campaigns tab (English and Russian, same keys), added to the app's translations
// when the tab's chunk loads.
import i18next from "i18next";

const en = {
  campaigns: {
    title: "Campaigns", new: "New campaign", none: "No campaigns yet: create one to message the bot's users.", noBots: "Add a bot on the Bots tab: its campaigns appear here.",
    pick: "Pick a campaign on the left, or create one.", back: "Campaigns", by: "by {{who}}", you: "you",
    status: { draft: "Draft", scheduled: "Scheduled", sending: "Sending", paused: "Paused", done: "Done", cancelled: "Cancelled" },
    progress: "Delivery progress", progressText: "Sent {{sent}} · failed {{failed}} · pending {{pending}} of {{total}}",
    finished: "Finished {{at}}", started: "Started {{at}}", scheduled: "Scheduled for {{at}}", created: "Created {{at}}",
    newTitle: "New campaign", editTitle: "Edit the campaign", steps: "Steps", step: { audience: "Audience", message: "Message", test: "Test", when: "When" },
    name: "Name", namePlaceholder: "Spring sale", next: "Next", saveDraft: "Save draft", startNow: "Start sending", schedule: "Schedule",
    needName: "Give the campaign a name.", needText: "Write the message first.", tooLong: "The text is longer than {{max}} characters.", needTime: "Pick the date and time to send at.",
    who: "Who", filters: { all: "All users", active: "Active", inactive: "Inactive" }, activeDays: "Seen within the last days", inactiveDays: "Not seen within the last days",
    tags: "Tags", languages: "Languages", sources: "Sources", noneYet: "None of the users has one yet.",
    registeredFrom: "First seen from", registeredTo: "First seen until", userIds: "Only these user ids (optional)",
    size: "Recipients: {{count}}", sizeNow: "{{count}} now (fixed when sending starts)", counting: "Counting…", blockedOut: "Users who blocked the bot are always left out.",
    textHint: "Hello, {first_name}! Placeholders take each user's own values.", captionLimit: "a caption under media", emptyText: "(no text yet)",
    preview: "As the user will see it", sampleUser: "Sample user", noSample: "none (placeholders as written)",
    testIntro: "A test goes to the chosen people only and is not counted in the campaign.", testTo: "Send a test to", testMe: "me ({{id}})", testAdmin: "admin {{id}}",
    testTyped: "Other user ids", sendTest: "Send a test ({{count}})", testMax: "At most {{max}} at a time.", testResult: "Test sent: {{sent}} delivered, {{failed}} failed.",
    when: "When", now: "Now", later: "At a date and time", at: "Send at", zoneNote: "The time is on the clock of {{zone}}; the campaign's times are shown in it.", zone: "Time zone", zoneIs: "That is {{at}}.",
    audienceSize: "Audience", scheduledAt: "Scheduled", startedAt: "Started", finishedAt: "Finished", createdBy: "Created by",
    sentDeletedAt: "Sent messages deleted", sentDeleting: "Deleting… (a large campaign takes minutes)",
    actions: "Campaign actions", edit: "Edit",
    do: { start: "Start sending", pause: "Pause", resume: "Resume", cancel: "Cancel the campaign", "delete-sent": "Delete sent messages", delete: "Delete the campaign" },
    confirm: { start: "Start “{{name}}” now?", pause: "Pause “{{name}}”?", resume: "Resume “{{name}}”?", cancel: "Cancel “{{name}}”?", "delete-sent": "Delete the sent messages of “{{name}}”?", delete: "Delete “{{name}}”?" },
    confirmText: {
      start: "It goes to the audience as it is now: {{count}} recipients.", pause: "Nobody else receives it until you resume.", resume: "Sending continues with everyone still pending.",
      cancel: "Everyone still pending is left out for good. This cannot be undone.", "delete-sent": "The message is deleted in every chat that got it ({{sent}}), as far as the messenger allows (48 hours).",
      delete: "The campaign and its report are deleted. Messages already sent stay in the chats.",
    },
    report: "Report", byReason: "Failed by reason", reason: { blocked: "Blocked the bot", deactivated: "Account deleted", other: "Other errors", unknown: "Unknown (in flight at a crash)" },
    recipients: "Recipients", csv: "Export CSV", recipientFilter: "Show recipients", recipientStatus: { all: "All", pending: "Pending", sending: "Sending now", sent: "Sent", failed: "Failed" }, fromNode: "from node {{node}}",
    facetUsers: "users: {{count}}",
    album: "Album: {{count}} of at most {{max}} files", addMedia: "Add a file to an album…", removeMedia: "Remove {{name}}",
    albumRules: "An album holds photos and videos (mixed), or documents only, or audio only. The text is the first file's caption.",
    albumNoButtons: "An album cannot carry buttons: Telegram attaches no keyboard to a media group.",
    albumButtons: "Remove the buttons or keep one file: an album cannot carry buttons.",
    noRecipients: "No recipients here.", user: "User", state: "Status", error: "Error", sentAt: "Sent at", theMessage: "The message",
    deletedMark: "deleted", deletedAtTitle: "Deleted from the chat {{at}}",
  },
};

const ru: typeof en = {
  campaigns: {
    title: "Рассылки", new: "Новая рассылка", none: "Рассылок пока нет: создайте первую, чтобы написать пользователям бота.", noBots: "Добавьте бота на вкладке «Боты» — здесь появятся его рассылки.",
    pick: "Выберите рассылку слева или создайте новую.", back: "Рассылки", by: "автор: {{who}}", you: "вы",
    status: { draft: "Черновик", scheduled: "Запланирована", sending: "Отправляется", paused: "На паузе", done: "Завершена", cancelled: "Отменена" },
    progress: "Ход отправки", progressText: "Отправлено {{sent}} · ошибок {{failed}} · в очереди {{pending}} из {{total}}",
    finished: "Завершена {{at}}", started: "Начата {{at}}", scheduled: "Запланирована на {{at}}", created: "Создана {{at}}",
    newTitle: "Новая рассылка", editTitle: "Изменить рассылку", steps: "Шаги", step: { audience: "Аудитория", message: "Сообщение", test: "Тест", when: "Когда" },
    name: "Название", namePlaceholder: "Весенняя распродажа", next: "Далее", saveDraft: "Сохранить черновик", startNow: "Начать отправку", schedule: "Запланировать",
    needName: "Дайте рассылке название.", needText: "Сначала напишите сообщение.", tooLong: "Текст длиннее {{max}} символов.", needTime: "Выберите дату и время отправки.",
    who: "Кому", filters: { all: "Все пользователи", active: "Активные", inactive: "Неактивные" }, activeDays: "Заходили за последние дни", inactiveDays: "Не заходили за последние дни",
    tags: "Теги", languages: "Языки", sources: "Источники", noneYet: "Ни у одного пользователя пока нет.",
    registeredFrom: "Впервые пришли с", registeredTo: "Впервые пришли по", userIds: "Только эти id пользователей (необязательно)",
    size: "Получателей: {{count}}", sizeNow: "{{count}} сейчас (фиксируется при старте)", counting: "Считаем…", blockedOut: "Заблокировавшие бота всегда исключаются.",
    textHint: "Привет, {first_name}! Подстановки берут значения каждого пользователя.", captionLimit: "подпись к медиа", emptyText: "(текста пока нет)",
    preview: "Как увидит пользователь", sampleUser: "Пример пользователя", noSample: "без примера (подстановки как написаны)",
    testIntro: "Тест уходит только выбранным людям и не входит в рассылку.", testTo: "Отправить тест", testMe: "мне ({{id}})", testAdmin: "админу {{id}}",
    testTyped: "Другие id пользователей", sendTest: "Отправить тест ({{count}})", testMax: "Не больше {{max}} за раз.", testResult: "Тест отправлен: доставлено {{sent}}, ошибок {{failed}}.",
    when: "Когда", now: "Сейчас", later: "В дату и время", at: "Отправить в", zoneNote: "Время — по часам зоны {{zone}}; в ней же показаны времена рассылки.", zone: "Часовой пояс", zoneIs: "Это {{at}}.",
    audienceSize: "Аудитория", scheduledAt: "Запланирована", startedAt: "Начата", finishedAt: "Завершена", createdBy: "Создал",
    sentDeletedAt: "Отправленные удалены", sentDeleting: "Удаляются… (большая рассылка — несколько минут)",
    actions: "Действия с рассылкой", edit: "Изменить",
    do: { start: "Начать отправку", pause: "Пауза", resume: "Продолжить", cancel: "Отменить рассылку", "delete-sent": "Удалить отправленные", delete: "Удалить рассылку" },
    confirm: { start: "Начать «{{name}}» сейчас?", pause: "Приостановить «{{name}}»?", resume: "Продолжить «{{name}}»?", cancel: "Отменить «{{name}}»?", "delete-sent": "Удалить отправленные сообщения «{{name}}»?", delete: "Удалить «{{name}}»?" },
    confirmText: {
      start: "Она уйдёт аудитории в её нынешнем составе: получателей {{count}}.", pause: "Никто больше не получит её, пока вы не продолжите.", resume: "Отправка продолжится всем, кто ещё в очереди.",
      cancel: "Все, кто ещё в очереди, не получат её. Это нельзя отменить.", "delete-sent": "Сообщение удалится во всех чатах, куда ушло ({{sent}}), насколько позволяет мессенджер (48 часов).",
      delete: "Рассылка и её отчёт будут удалены. Уже отправленные сообщения останутся в чатах.",
    },
    report: "Отчёт", byReason: "Ошибки по причинам", reason: { blocked: "Заблокировали бота", deactivated: "Аккаунт удалён", other: "Другие ошибки", unknown: "Неизвестно (отправка при сбое)" },
    recipients: "Получатели", csv: "Экспорт CSV", recipientFilter: "Показать получателей", recipientStatus: { all: "Все", pending: "В очереди", sending: "Отправляется", sent: "Отправлено", failed: "Ошибка" }, fromNode: "из узла {{node}}",
    facetUsers: "пользователей: {{count}}",
    album: "Альбом: {{count}} из не более {{max}} файлов", addMedia: "Добавить файл в альбом…", removeMedia: "Убрать {{name}}",
    albumRules: "В альбоме — фото и видео (вперемешку), или только документы, или только аудио. Текст — подпись к первому файлу.",
    albumNoButtons: "У альбома не бывает кнопок: Telegram не прикрепляет клавиатуру к группе медиа.",
    albumButtons: "Уберите кнопки или оставьте один файл: у альбома не бывает кнопок.",
    noRecipients: "Здесь получателей нет.", user: "Пользователь", state: "Статус", error: "Ошибка", sentAt: "Время отправки", theMessage: "Сообщение",
    deletedMark: "удалено", deletedAtTitle: "Удалено из чата {{at}}",
  },
};

let registered = false;
export function registerCampaignStrings() {
  if (registered) return;
  registered = true;
  i18next.addResourceBundle("en", "translation", en, true, true);
  i18next.addResourceBundle("ru", "translation", ru, true, true);
}
