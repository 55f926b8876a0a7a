// The editor's strings (English and Russian, same keys), added to the app's translations when the
// editor chunk loads, so the app shell does not carry them.
import i18next from "i18next";

const types = {
  en: {
    command_trigger: "Command", text_trigger: "Text trigger", incoming_message_trigger: "Any message", callback_trigger: "Callback trigger", incoming_callback_trigger: "Any button press",
    message: "Message", keyboard: "Keyboard", input: "Save answer", photo: "Photo", video: "Video", audio: "Audio", document: "Document", sticker: "Sticker", voice: "Voice", animation: "Animation", location: "Location", contact: "Contact",
    condition: "Condition", set_variable: "Variables", delay: "Delay", http_request: "HTTP request",
    edit_message: "Edit message", answer_callback_query: "Button notification", broadcast: "Broadcast",
    delete_message: "Delete message", forward_message: "Forward message", pin_message: "Pin message", unpin_message: "Unpin message",
    ban_user: "Ban user", unban_user: "Unban user", mute_user: "Mute user", unmute_user: "Unmute user", kick_user: "Kick user", promote_user: "Promote user", demote_user: "Demote user", admin_rights: "Admin rights",
    start: "Start (legacy)", command: "Command (legacy)",
    outgoing_message_trigger: "Outgoing message", group_message_trigger: "Group message", schedule_trigger: "Schedule", media: "Media", loop: "Loop", parallel_split: "Parallel split",
    bot_table: "Bot table", psql_query: "SQL query", convert_file: "Convert file", create_forum_topic: "Create forum topic", comment: "Comment",
  },
  ru: {
    command_trigger: "Команда", text_trigger: "Текстовый триггер", incoming_message_trigger: "Любое сообщение", callback_trigger: "Триггер кнопки", incoming_callback_trigger: "Любое нажатие кнопки",
    message: "Сообщение", keyboard: "Клавиатура", input: "Сохранить ответ", photo: "Фото", video: "Видео", audio: "Аудио", document: "Документ", sticker: "Стикер", voice: "Голосовое", animation: "Анимация", location: "Местоположение", contact: "Контакт",
    condition: "Условие", set_variable: "Переменные", delay: "Задержка", http_request: "HTTP запрос",
    edit_message: "Редактировать сообщение", answer_callback_query: "Уведомление кнопки", broadcast: "Рассылка",
    delete_message: "Удалить сообщение", forward_message: "Переслать сообщение", pin_message: "Закрепить сообщение", unpin_message: "Открепить сообщение",
    ban_user: "Забанить", unban_user: "Разбанить", mute_user: "Заглушить", unmute_user: "Снять заглушение", kick_user: "Исключить", promote_user: "Повысить", demote_user: "Понизить", admin_rights: "Права админа",
    start: "Старт (старый)", command: "Команда (старая)",
    outgoing_message_trigger: "Исходящее сообщение", group_message_trigger: "Сообщение в группе", schedule_trigger: "Расписание", media: "Медиафайл", loop: "Цикл", parallel_split: "Параллельные ветки",
    bot_table: "Таблица бота", psql_query: "SQL-запрос", convert_file: "Конвертация файла", create_forum_topic: "Создать тему форума", comment: "Комментарий",
  },
};

const en = {
  toolbar: "Editor tools", canvas: "Canvas", preview: "Preview", undo: "Undo", redo: "Redo", copy: "Copy", paste: "Paste", duplicate: "Duplicate", delete: "Delete", layout: "Auto-layout",
  palette: "Node palette", paletteFilter: "Filter nodes",
  types: types.en,
  groups: { triggers: "Triggers", messages: "Messages", logic: "Logic", http: "HTTP", data: "Data", actions: "Actions", content: "Content", users: "User management", utility: "Utility", legacy: "Legacy" },
  slots: { auto: "next", button: "button", branch: "branch", default: "otherwise", input: "after answer", keyboard: "keyboard", continue: "after choice", afterLoop: "after loop", body: "each item", broadcast: "message to send" },
  actions: { goto: "Go to node", command: "Run command", url: "Open URL", contact: "Ask contact", location: "Ask location", complete: "Complete", selection: "Select (multi)" },
  sheets: { title: "Sheets", add: "Add sheet", rename: "Rename", duplicate: "Duplicate", delete: "Delete sheet", left: "Move left", right: "Move right", newName: "Sheet {{n}}", confirmDelete: "Delete sheet “{{name}}” and its nodes?" },
  search: { title: "Search", placeholder: "Node text, id or type", none: "Nothing found" },
  save: { save: "Save", message: "Commit message", autosave: "Autosave", restart: "Restart bots on save", saving: "Saving…", saved: "Saved", unsaved: "Unsaved changes", failed: "Save failed" },
  conflict: { title: "Someone else saved this project", text: "Another copy was saved at {{at}} while you were editing.", counts: "Yours: {{mine}} nodes · theirs: {{theirs}} nodes", onlyMine: "Only in yours", onlyTheirs: "Only in theirs", changed: "Different in both", keepMine: "Keep mine (overwrite)", loadTheirs: "Load theirs (drop mine)" },
  remote: { text: "This project was changed elsewhere.", dirty: "Reloading drops your unsaved changes.", reload: "Reload", dismiss: "Ignore" },
  http: { send: "Send test request", sending: "Sending…", note: "Sent by the server as written: {variables} are not filled in.", truncated: "cut at 64 KB" },
  code: { title: "Code", program: "Program", refresh: "Regenerate", download: "Download", warnings: "Warnings", noWarnings: "No warnings." },
  keys: { title: "Keyboard shortcuts", save: "Save", undo: "Undo", redo: "Redo", copyPaste: "Copy / paste nodes (also between tabs and projects)", duplicate: "Duplicate selection", selectAll: "Select all nodes of the sheet", delete: "Delete selection or edge", search: "Search nodes on every sheet", layout: "Auto-layout the sheet", marquee: "Select with a rectangle", multi: "Add to selection", help: "This help", close: "Close" },
  props: {
    title: "Properties", none: "Select a node to edit it.", many: "{{count}} nodes selected.", rawOnly: "Edit this node's fields in JSON mode.", structuredInJson: "Lists and objects ({{fields}}) are edited in JSON mode.", rawJson: "Node data (JSON)", rawObject: "Node data must be a JSON object", applyJson: "Apply JSON",
    command: "Command", description: "Description", showInMenu: "Show in the bot menu", next: "Then go to", synonyms: "Texts (one per line)", matchType: "Match",
    messageText: "Text", format: "Formatting", noPreview: "No link preview", mediaUrl: "Media URL", pickMedia: "Pick from project media…", caption: "Caption",
    keyboardType: "Keyboard", buttons: "Buttons", addButton: "Add button", newButton: "Button", buttonText: "Button text", buttonAction: "Action", buttonTarget: "Target node", skipCollect: "don't save as answer",
    layoutRows: "Button rows", layoutHint: "One line per row: Yes | No", oneTime: "Hide keyboard after use", resize: "Fit keyboard", keyboardNode: "Keyboard node",
    collect: "Wait for an answer", inputVariable: "Save answer to variable", inputTarget: "After the answer go to", inputType: "Answer type", required: "Required", append: "Append to the variable", saveDb: "Save to the user database", prompt: "Input placeholder",
    variable: "Variable", branches: "Branches", addBranch: "Add branch", branchLabel: "Label", operator: "Operator", value: "Value", value2: "Second value", defaultTarget: "Otherwise go to",
    assignments: "Assignments", addAssignment: "Add assignment", mode: "Mode", pattern: "Pattern",
    seconds: "Seconds", method: "Method", headers: "Headers (JSON)", body: "Body", timeout: "Timeout, s", auth: "Authorization", token: "Bearer token", responseVar: "Save response to", statusVar: "Save status to", urlRaw: "Variables as written",
    up: "Move up", down: "Move down", remove: "Remove",
  },
};

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

const ru: Shape<typeof en> = {
  toolbar: "Инструменты редактора", canvas: "Холст", preview: "Превью", undo: "Отменить", redo: "Повторить", copy: "Копировать", paste: "Вставить", duplicate: "Дублировать", delete: "Удалить", layout: "Авторасстановка",
  palette: "Палитра узлов", paletteFilter: "Найти узел",
  types: types.ru,
  groups: { triggers: "Триггеры", messages: "Сообщения", logic: "Логика", http: "HTTP", data: "Данные", actions: "Действия", content: "Управление контентом", users: "Пользователи", utility: "Утилиты", legacy: "Старые" },
  slots: { auto: "далее", button: "кнопка", branch: "ветка", default: "иначе", input: "после ответа", keyboard: "клавиатура", continue: "после выбора", afterLoop: "после цикла", body: "для каждого", broadcast: "что разослать" },
  actions: { goto: "Перейти к узлу", command: "Выполнить команду", url: "Открыть ссылку", contact: "Запросить контакт", location: "Запросить геопозицию", complete: "Завершить", selection: "Выбор (несколько)" },
  sheets: { title: "Листы", add: "Добавить лист", rename: "Переименовать", duplicate: "Дублировать", delete: "Удалить лист", left: "Левее", right: "Правее", newName: "Лист {{n}}", confirmDelete: "Удалить лист «{{name}}» вместе с узлами?" },
  search: { title: "Поиск", placeholder: "Текст, id или тип узла", none: "Ничего не найдено" },
  save: { save: "Сохранить", message: "Описание изменений", autosave: "Автосохранение", restart: "Перезапускать ботов при сохранении", saving: "Сохранение…", saved: "Сохранено", unsaved: "Есть несохранённые изменения", failed: "Не удалось сохранить" },
  conflict: { title: "Проект сохранил кто-то другой", text: "Пока вы редактировали, в {{at}} была сохранена другая копия.", counts: "У вас: {{mine}} узлов · у них: {{theirs}} узлов", onlyMine: "Только у вас", onlyTheirs: "Только у них", changed: "Отличаются", keepMine: "Оставить моё (перезаписать)", loadTheirs: "Загрузить их (моё удалить)" },
  remote: { text: "Проект изменён в другом месте.", dirty: "Перезагрузка сбросит ваши несохранённые изменения.", reload: "Перезагрузить", dismiss: "Не сейчас" },
  http: { send: "Отправить тестовый запрос", sending: "Отправка…", note: "Запрос отправляет сервер как есть: {переменные} не подставляются.", truncated: "обрезано до 64 КБ" },
  code: { title: "Код", program: "Программа", refresh: "Сгенерировать", download: "Скачать", warnings: "Предупреждения", noWarnings: "Предупреждений нет." },
  keys: { title: "Горячие клавиши", save: "Сохранить", undo: "Отменить", redo: "Повторить", copyPaste: "Копировать / вставить узлы (и между вкладками и проектами)", duplicate: "Дублировать выделенное", selectAll: "Выделить все узлы листа", delete: "Удалить выделенное или связь", search: "Поиск узлов на всех листах", layout: "Авторасстановка листа", marquee: "Выделить рамкой", multi: "Добавить к выделению", help: "Эта справка", close: "Закрыть" },
  props: {
    title: "Свойства", none: "Выберите узел, чтобы его изменить.", many: "Выбрано узлов: {{count}}.", rawOnly: "Поля этого узла меняются в режиме JSON.", structuredInJson: "Списки и объекты ({{fields}}) меняются в режиме JSON.", rawJson: "Данные узла (JSON)", rawObject: "Данные узла должны быть JSON-объектом", applyJson: "Применить JSON",
    command: "Команда", description: "Описание", showInMenu: "Показывать в меню бота", next: "Затем перейти к", synonyms: "Тексты (по одному в строке)", matchType: "Совпадение",
    messageText: "Текст", format: "Форматирование", noPreview: "Без превью ссылок", mediaUrl: "Ссылка на медиа", pickMedia: "Выбрать из медиа проекта…", caption: "Подпись",
    keyboardType: "Клавиатура", buttons: "Кнопки", addButton: "Добавить кнопку", newButton: "Кнопка", buttonText: "Текст кнопки", buttonAction: "Действие", buttonTarget: "Узел назначения", skipCollect: "не сохранять как ответ",
    layoutRows: "Ряды кнопок", layoutHint: "Одна строка — один ряд: Да | Нет", oneTime: "Скрыть клавиатуру после нажатия", resize: "Подогнать размер", keyboardNode: "Узел клавиатуры",
    collect: "Ждать ответа", inputVariable: "Сохранить ответ в переменную", inputTarget: "После ответа перейти к", inputType: "Тип ответа", required: "Обязательно", append: "Дописывать к переменной", saveDb: "Сохранять в базу пользователей", prompt: "Подсказка в поле ввода",
    variable: "Переменная", branches: "Ветки", addBranch: "Добавить ветку", branchLabel: "Название", operator: "Оператор", value: "Значение", value2: "Второе значение", defaultTarget: "Иначе перейти к",
    assignments: "Присваивания", addAssignment: "Добавить присваивание", mode: "Режим", pattern: "Шаблон",
    seconds: "Секунды", method: "Метод", headers: "Заголовки (JSON)", body: "Тело", timeout: "Таймаут, с", auth: "Авторизация", token: "Bearer-токен", responseVar: "Сохранить ответ в", statusVar: "Сохранить статус в", urlRaw: "Переменные как есть",
    up: "Выше", down: "Ниже", remove: "Убрать",
  },
};

export const EDITOR_STRINGS = { en, ru };

export function registerEditorStrings() {
  for (const [lng, strings] of Object.entries(EDITOR_STRINGS)) i18next.addResourceBundle(lng, "translation", { editor: strings }, true, true);
}
