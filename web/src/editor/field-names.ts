// Labels of the fields the generic node form shows (node types without a hand-made form). English
// keeps the label made from the field's name; Russian needs its own words, or the form reads English.
export const FIELD_NAMES_RU: Record<string, string> = {
  callbackData: "Данные кнопки (callback)", matchType: "Совпадение",
  groupChatId: "Id группы", groupChatIdSource: "Откуда id группы", groupChatVariableName: "Переменная с id группы", threadIdVariable: "Переменная для id темы", resolvedUserIdVariable: "Переменная для id пользователя",
  emoji: "Эмодзи", messageNodes: "Узлы сообщений", memberEvents: "События участников",
  rules: "Правила", timezone: "Часовой пояс", runOnStart: "Запускать при старте бота", enabled: "Включено", maxConcurrent: "Одновременно не больше",
  title: "Название", description: "Описание", amount: "Сумма в звёздах", payload: "Полезная нагрузка (payload)", photoUrl: "Ссылка на фото",
  attachedMedia: "Медиафайлы", enableAutoTransition: "Переходить дальше сам",
  sourceVariable: "Переменная-источник", itemVariable: "Переменная элемента", indexVariable: "Переменная номера", parallel: "Параллельно", delaySeconds: "Пауза, с", maxIterations: "Не больше повторов", afterLoopTo: "После цикла перейти к",
  buttons: "Кнопки", keyboardType: "Тип клавиатуры", messageText: "Текст",
  parallelBranches: "Параллельные ветки", awaitAll: "Ждать все ветки", skipIfRunning: "Пропустить, если уже идёт",
  tableName: "Таблица", operation: "Операция", where: "Условие (where)", updates: "Изменения", row: "Строка", key: "Ключ", onConflict: "При конфликте", saveResultTo: "Сохранить результат в", resultFormat: "Формат результата", returnColumns: "Возвращаемые столбцы", orderBy: "Сортировать по", orderDirection: "Порядок сортировки", limit: "Не больше строк",
  convertFileMode: "Направление", convertFileInputVariable: "Входная переменная", convertFileFormat: "Формат файла", convertFileFileName: "Имя файла", convertFileCsvDelimiter: "Разделитель CSV", convertFileIncludeHeaderRow: "Строка заголовков", convertFileOutputVariable: "Выходная переменная",
  editMode: "Что изменить", editMessageText: "Новый текст", editFormatMode: "Форматирование", editMessageIdSource: "Какое сообщение", editChatIdSource: "В каком чате", editRemoveKeyboard: "Убрать клавиатуру", editButtons: "Кнопки", editKeyboardType: "Тип клавиатуры",
  callbackNotificationText: "Текст уведомления", callbackShowAlert: "Показать окном", callbackCacheTime: "Кэшировать ответ, с",
  broadcastTarget: "Кому рассылать",
  messageIdSource: "Какое сообщение", messageIdManual: "Id сообщения", chatIdSource: "В каком чате", ignoreErrors: "Не останавливаться на ошибке", bulkDelete: "Удалить несколько",
  sourceMessageIdSource: "Какое сообщение", targetChatId: "Id чата-получателя", targetChatIdSource: "Откуда id получателя", disableNotification: "Без звука", hideAuthor: "Скрыть автора",
  command: "Команда", targetMessageId: "Id сообщения", variableName: "Переменная",
  forumChatId: "Id форума", forumChatIdSource: "Откуда id форума", forumChatVariableName: "Переменная с id форума", topicName: "Название темы", topicIconColor: "Цвет значка темы", saveThreadIdTo: "Сохранить id темы в", skipIfExists: "Пропустить, если тема есть",
  targetUserId: "Id пользователя", userIdSource: "Откуда id пользователя", userVariableName: "Переменная с id пользователя", reason: "Причина", untilDate: "До даты", chatId: "Id чата", chargeId: "Id платежа", duration: "Длительность, с",
  adminUserIdSource: "Откуда id пользователя", adminChatIdSource: "В каком чате", commentColor: "Цвет",
};
