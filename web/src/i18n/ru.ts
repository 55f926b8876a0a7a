// Русские строки: те же ключи, что в en.ts.
import type { Strings } from "./en";

export const ru: Strings = {
  app: { name: "Botloom Studio", skip: "К содержимому" },
  nav: { projects: "Проекты", templates: "Шаблоны", logout: "Выйти", language: "Язык", theme: "Тема", light: "Светлая", dark: "Тёмная", system: "Как в системе", account: "Аккаунт" },
  common: {
    loading: "Загрузка…", save: "Сохранить", saved: "Сохранено", cancel: "Отмена", delete: "Удалить", remove: "Убрать", edit: "Изменить", create: "Создать", close: "Закрыть", retry: "Повторить",
    error: "Что-то пошло не так", notFound: "Страница не найдена", back: "Назад", copy: "Копировать", copied: "Скопировано", prev: "← Назад", next: "Дальше →",
  },
  login: {
    title: "Вход в Botloom",
    notSetUp: "Сервер ещё не настроен. Администратор должен завершить настройку на /admin/settings.",
    devHint: "Вход разработчика: любой id пользователя (только для доверенных установок).",
    userId: "Id пользователя",
    firstName: "Имя",
    submit: "Войти",
    widgetHint: "Войдите через аккаунт Telegram.",
    checking: "Проверяем вход через Telegram…",
    noMode: "Способ входа не настроен.",
  },
  projects: {
    title: "Проекты", empty: "Проектов пока нет. Создайте новый, импортируйте project.json или начните с шаблона.", noArchived: "В архиве пусто.", newName: "Название проекта", create: "Новый проект",
    fromTemplate: "Начать с шаблона", view: "Какие проекты", active: "Активные", archived: "Архив",
    nodes: "Узлов: {{count}}", sheets: "Листов: {{count}}", created: "Создан {{date}}", updated: "Изменён {{date}}",
    rename: "Переименовать", duplicate: "Копировать", archive: "В архив", unarchive: "Из архива", moveUp: "Поднять {{name}}", moveDown: "Опустить {{name}}",
    reorderHint: "Перетащите карточку или нажмите ↑ ↓, чтобы изменить порядок.",
    deleteTitle: "Удалить «{{name}}»?", deleteConfirm: "Удалить насовсем", deleteIntro: "Это нельзя отменить. Вместе с проектом удаляются:",
    deleteBots: "Боты: {{count}}", deleteRunning: "Сейчас работают и будут остановлены: {{count}}", deleteTokens: "Токены ботов и их переменные окружения: {{count}}", deleteMedia: "Медиафайлы: {{count}}",
    deleteRest: "Пользователи ботов, их переменные, логи, история запусков и версии",
  },
  import: {
    hint: "Импорт project.json: перетащите файл сюда или", pick: "Выберите файл", busy: "Импорт…", tooBig: "Файл больше 10 МБ.",
    notJson: "«{{name}}» — не JSON-файл.", failed: "Импорт не удался: {{reason}}",
  },
  project: { tabsLabel: "Разделы проекта", tabs: { bots: "Боты", logs: "Логи", users: "Пользователи", media: "Медиа", versions: "Версии", team: "Команда", export: "Экспорт" } },
  bots: {
    addTitle: "Добавить бота", addHint: "Вставьте токен от @BotFather. Перед сохранением платформа спросит у мессенджера, что это за бот.", token: "Токен бота", nameOptional: "Название (необязательно)",
    add: "Добавить", checking: "Проверка…", added: "Добавлен: {{name}} (@{{username}})", none: "Ботов пока нет: добавьте токен выше.",
    start: "Запустить", stop: "Остановить", restart: "Перезапустить", uptime: "работает {{uptime}}", settings: "Настройки", name: "Название", mode: "Режим запуска", polling: "Polling", webhook: "Webhook",
    flags: { catchAllHandlers: "Обработчик всех сообщений", protectContent: "Защита контента", contentCache: "Кэш контента" },
    flagHints: { catchAllHandlers: "отвечать на сообщения, которые не ловит ни один узел", protectContent: "пользователи не смогут пересылать и сохранять сообщения бота", contentCache: "повторно использовать загруженные медиа" },
    remove: "Удалить бота", removeTitle: "Удалить бота «{{name}}»?", removeText: "Бот будет остановлен, его токен, переменные и пользователи удалятся из проекта.",
    status: { label: "Статус", running: "Работает", starting: "Запускается", stopped: "Остановлен", error: "Ошибка", crashed: "Упал" },
    launches: "История запусков", noLaunches: "Запусков ещё не было.", startedAt: "Запущен", stoppedAt: "Остановлен", error: "Ошибка",
  },
  env: {
    title: "Переменные окружения", none: "Переменных нет.", key: "Ключ", keyRule: "Заглавные латинские буквы, цифры и _, первая — буква", value: "Значение", secret: "Секрет",
    add: "Добавить", reveal: "Показать", hide: "Скрыть", deleteKey: "Удалить {{key}}",
  },
  logs: {
    bot: "Бот", allBots: "Все боты", level: "Уровень", allLevels: "Все уровни", search: "Поиск", pause: "Пауза", resume: "Продолжить",
    downloadText: "Скачать .txt", downloadJson: "Скачать .json", live: "Обновляется каждые {{seconds}} с", paused: "На паузе", count: "Строк: {{count}}", empty: "Строк лога нет.",
  },
  users: {
    noBots: "Добавьте бота на вкладке «Боты» — здесь появятся его пользователи.", stats: "Статистика", total: "Всего пользователей", active24h: "Активны за 24 ч", active7d: "Активны за 7 дней", newToday: "Новых сегодня",
    newPerDay: "Новые пользователи по дням", chartLabel: "График новых пользователей по дням, {{total}} за 30 дней", title: "Пользователи", search: "Поиск по имени, @username или id",
    none: "Боту ещё никто не писал.", noMatch: "Никого не нашлось.", range: "{{from}}–{{to}} из {{count}}",
    id: "Id", username: "Имя пользователя", firstSeen: "Впервые", lastSeen: "Последний раз", interactions: "Обращений", variables: "Переменные", noVariables: "Переменных нет.",
  },
  media: {
    upload: "Загрузить файлы", hint: "Изображения, видео, аудио, PDF и документы до 50 МБ.", uploading: "Загрузка {{name}}…", progress: "Ход загрузки",
    failed: "«{{name}}» не загружен: {{reason}}", none: "Медиафайлов пока нет.", copyUrl: "Копировать URL", open: "Открыть", deleteTitle: "Удалить «{{name}}»?", deleteText: "Файл удалится из хранилища; боты и сообщения, которые используют его URL, его потеряют.", deleteName: "Удалить {{name}}",
  },
  versions: {
    none: "Версий пока нет: здесь сохраняется каждое сохранение сценария.", noMessage: "Сохранение", agent: "агент {{name}}", author: "пользователь {{id}}", view: "Посмотреть", hide: "Скрыть",
    restore: "Восстановить", restoreTitle: "Восстановить эту версию?", restoreText: "Сценарий станет таким, каким был сохранён {{date}}. Текущий останется в истории.", document: "Документ (JSON)",
  },
  team: {
    title: "Команда", hint: "Соавторы могут редактировать проект и запускать его ботов. Они входят через аккаунт мессенджера.", owner: "владелец", you: "вы", removeName: "Убрать {{name}}",
    messengerId: "Id пользователя в мессенджере", add: "Добавить соавтора", adminsTitle: "Id администраторов бота", adminsHint: "Id пользователей мессенджера, которых бот считает администраторами (ADMIN_IDS).",
    noAdmins: "Администраторов нет.", adminId: "Id администратора", addAdmin: "Добавить id",
  },
  export: {
    jsonTitle: "project.json", jsonHint: "Сценарий файлом: импортируйте его на другом сервере Botloom или храните как резервную копию.", download: "Скачать project.json",
    codeTitle: "Сгенерированный код", codeHint: "Бот как обычная программа на grammY: запускается отдельно после `bun add grammy`.", generate: "Сгенерировать код", regenerate: "Сгенерировать снова",
    downloadCode: "Скачать bot.ts", lines: "Строк: {{count}}",
  },
  templates: {
    title: "Шаблоны", search: "Поиск шаблонов", category: "Категория", allCategories: "Все категории", language: "Язык", allLanguages: "Все языки",
    featuredOnly: "Только рекомендуемые", featured: "Рекомендуем", none: "Подходящих шаблонов нет.", uses: "Использован: {{count}}", page: "Страница {{page}} из {{pages}}",
    rating: "Оценка {{rating}} из 5, голосов: {{count}}", rateLabel: "Ваша оценка:", rateN: "Оценить на {{n}} из 5", thanks: "Спасибо за оценку",
    sheets: "Листы", nodeCount: "Узлов", commands: "Команды", kinds: "Виды узлов", tags: "Теги", projectName: "Название нового проекта", use: "Создать проект по шаблону",
    categories: { business: "Бизнес", support: "Поддержка", entertainment: "Развлечения", community: "Сообщество", ecommerce: "Магазин", marketing: "Маркетинг", education: "Обучение", custom: "Свои", utility: "Утилиты" },
    difficulty: { easy: "просто", medium: "средне", hard: "сложно" },
  },
  saveTemplate: { title: "Сохранить как шаблон", name: "Название шаблона", description: "Что делает бот", public: "Виден всем", save: "Сохранить шаблон", saved: "Сохранено.", open: "Открыть" },
  account: {
    title: "Аккаунт", name: "Имя", id: "Id в мессенджере", patsTitle: "Персональные токены доступа",
    patsHint: "Токен позволяет скрипту или агенту работать с API от вашего имени (заголовок Authorization: Bearer …). Он показывается один раз; храните его в секрете.",
    patName: "Название токена", patCreate: "Создать токен", patOnce: "Токен «{{name}}»: скопируйте сейчас, больше он не будет показан.", patDone: "Готово",
    noPats: "Токенов нет.", created: "Создан", lastUsed: "Использован", never: "никогда", revoke: "Отозвать", revokeTitle: "Отозвать «{{name}}»?", revokeText: "Скрипты с этим токеном сразу перестанут работать.",
  },
};
