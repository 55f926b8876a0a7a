// Strings of the Analytics tab and the editor's funnel overlay (English and Russian, same keys),
// added to the app's translations when either chunk loads.
import i18next from "i18next";

const en = {
  analytics: {
    noBots: "Add a bot on the Bots tab: its figures appear here once people use it.",
    period: "Period", presets: { "24h": "24 h", "7d": "7 days", "30d": "30 days", "90d": "90 days", custom: "Dates…" }, from: "From", to: "To",
    bucket: "Step", buckets: { hour: "By hour", day: "By day" },
    problem: { missing: "Pick both dates.", order: "The end date is before the start date.", future: "The start date is in the future." },
    clamped: "The period is longer than the server answers for this step: the figures cover {{from}} to {{to}}.",
    noData: "No data yet.", noDataLong: "No data yet for this period: figures appear as soon as people use the bot.",
    totals: "Totals", users: "Users", messages: "Messages",
    figures: { users: "Users", activeUsers: "Active users", newUsers: "New users", messagesIn: "Messages in", messagesOut: "Messages out", blocked: "Blocked the bot" },
    sources: "Sources", languages: "Languages", commands: "Commands", buttons: "Buttons",
    col: { source: "Source (deep link)", language: "Language", command: "Command", button: "Button", node: "Node", users: "Users", count: "Times" },
    noSource: "(none)", unknownLanguage: "(unknown)", openNode: "Open node {{node}} in the editor", csvOf: "Download {{table}} as CSV",
    funnel: {
      toggle: "Analytics", title: "Funnel: users who reached each node, and who went on", bot: "Bot", noBots: "Add a bot on the Bots tab to see its funnel here.",
      loading: "Loading figures…", empty: "No data yet for this period: the figures appear on the nodes once people use the bot.",
      legend: "Line width and colour: the share of a node's users who followed that link.",
      badge_one: "{{count}} user", badge_other: "{{count}} users", drop: "{{percent}}% stop here", node: "Analytics of this node", visits: "Visits", users: "Users", dropOff: "Drop-off here",
      dropOffText: "{{gone}} of {{users}} went no further ({{percent}}%)", noVisits: "Nobody reached this node in this period.", next: "Went on to",
      edge_one: "{{count}} user ({{percent}}%)", edge_other: "{{count}} users ({{percent}}%)",
    },
  },
};

/** Russian has two more plural forms than English. */
type Ru = typeof en & { analytics: { funnel: { badge_few: string; badge_many: string; edge_few: string; edge_many: string } } };

const ru: Ru = {
  analytics: {
    noBots: "Добавьте бота на вкладке «Боты» — здесь появятся его показатели, когда им начнут пользоваться.",
    period: "Период", presets: { "24h": "24 ч", "7d": "7 дней", "30d": "30 дней", "90d": "90 дней", custom: "Даты…" }, from: "С", to: "По",
    bucket: "Шаг", buckets: { hour: "По часам", day: "По дням" },
    problem: { missing: "Выберите обе даты.", order: "Дата окончания раньше даты начала.", future: "Дата начала в будущем." },
    clamped: "Период длиннее, чем сервер отдаёт с этим шагом: показаны данные с {{from}} по {{to}}.",
    noData: "Данных пока нет.", noDataLong: "За этот период данных пока нет: они появятся, как только ботом начнут пользоваться.",
    totals: "Итого", users: "Пользователи", messages: "Сообщения",
    figures: { users: "Пользователи", activeUsers: "Активные", newUsers: "Новые", messagesIn: "Входящие", messagesOut: "Исходящие", blocked: "Заблокировали бота" },
    sources: "Источники", languages: "Языки", commands: "Команды", buttons: "Кнопки",
    col: { source: "Источник (диплинк)", language: "Язык", command: "Команда", button: "Кнопка", node: "Узел", users: "Пользователи", count: "Раз" },
    noSource: "(нет)", unknownLanguage: "(неизвестен)", openNode: "Открыть узел {{node}} в редакторе", csvOf: "Скачать «{{table}}» в CSV",
    funnel: {
      toggle: "Аналитика", title: "Воронка: сколько пользователей дошло до каждого узла и сколько пошло дальше", bot: "Бот", noBots: "Добавьте бота на вкладке «Боты», чтобы увидеть здесь его воронку.",
      loading: "Загрузка показателей…", empty: "За этот период данных пока нет: цифры появятся на узлах, когда ботом начнут пользоваться.",
      legend: "Толщина и цвет связи — доля пользователей узла, прошедших по ней.",
      badge_one: "{{count}} пользователь", badge_few: "{{count}} пользователя", badge_many: "{{count}} пользователей", badge_other: "{{count}} пользователя", drop: "{{percent}}% ушли здесь", node: "Аналитика узла", visits: "Посещения", users: "Пользователи", dropOff: "Ушли здесь",
      dropOffText: "{{gone}} из {{users}} не пошли дальше ({{percent}}%)", noVisits: "За этот период до узла никто не дошёл.", next: "Пошли дальше",
      edge_one: "{{count}} пользователь ({{percent}}%)", edge_few: "{{count}} пользователя ({{percent}}%)", edge_many: "{{count}} пользователей ({{percent}}%)", edge_other: "{{count}} пользователя ({{percent}}%)",
    },
  },
};

/** Adds the strings to the app's translations; a second call (the other chunk) changes nothing. */
export function registerAnalyticsStrings() {
  for (const [lng, strings] of Object.entries({ en, ru })) i18next.addResourceBundle(lng, "translation", strings, true, true);
}
