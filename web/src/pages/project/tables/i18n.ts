// Strings of the Tables tab (English and Russian, same keys), added to the app's translations when
// the tab's chunk loads.
import i18next from "i18next";

const en = {
  tables: {
    title: "Scenario tables", list: "Tables", none: "No tables yet: a bot_table or psql_query node makes them as soon as the bot writes.",
    intro: "The data your scenario keeps with bot_table and psql_query. The bot reads every change at once.",
    rows_one: "{{count}} row", rows_few: "{{count}} rows", rows_many: "{{count}} rows", rows_other: "{{count}} rows", readOnly: "Read-only here: {{reason}}.", search: "Search text columns", empty: "The table is empty.", noMatch: "No row matches.",
    range: "{{from}}–{{to}} of {{total}}", rangeCapped: "{{from}}–{{to}} of more than {{total}}", sortBy: "Sort by {{column}}",
    edit: "Edit {{column}} of row {{id}}", save: "Save", cancel: "Cancel", nullValue: "empty",
    add: "Add a row", adding: "New row", addHint: "Columns left blank take their defaults.", create: "Add",
    remove: "Delete row {{id}}", removeTitle: "Delete row {{id}}?", removeText: "The row is deleted from the table; a running bot no longer finds it.", removeConfirm: "Delete",
    importTitle: "Import", file: "CSV or JSON file", mode: "Mode", modes: { append: "Append rows", replace: "Replace all rows" },
    importBtn: "Import", importing: "Importing…", imported: "{{count}} rows imported.", importHint: "CSV: the first line names the columns. All or nothing: a bad row is named and nothing is written.",
    exportTitle: "Export", exportCsv: "Download CSV", exportJson: "Download JSON",
  },
};

const ru: typeof en = {
  tables: {
    title: "Таблицы сценария", list: "Таблицы", none: "Таблиц пока нет: их создают узлы bot_table и psql_query, как только бот что-то запишет.",
    intro: "Данные, которые сценарий хранит через bot_table и psql_query. Бот сразу видит каждое изменение.",
    rows_one: "{{count}} строка", rows_few: "{{count}} строки", rows_many: "{{count}} строк", rows_other: "{{count}} строки", readOnly: "Здесь только для чтения: {{reason}}.", search: "Поиск по текстовым столбцам", empty: "Таблица пуста.", noMatch: "Ничего не найдено.",
    range: "{{from}}–{{to}} из {{total}}", rangeCapped: "{{from}}–{{to}} из более чем {{total}}", sortBy: "Сортировать по {{column}}",
    edit: "Изменить {{column}} в строке {{id}}", save: "Сохранить", cancel: "Отмена", nullValue: "пусто",
    add: "Добавить строку", adding: "Новая строка", addHint: "Незаполненные столбцы получат значения по умолчанию.", create: "Добавить",
    remove: "Удалить строку {{id}}", removeTitle: "Удалить строку {{id}}?", removeText: "Строка будет удалена из таблицы; работающий бот её больше не найдёт.", removeConfirm: "Удалить",
    importTitle: "Импорт", file: "Файл CSV или JSON", mode: "Режим", modes: { append: "Добавить строки", replace: "Заменить все строки" },
    importBtn: "Импортировать", importing: "Импорт…", imported: "Импортировано строк: {{count}}.", importHint: "CSV: первая строка — имена столбцов. Всё или ничего: ошибочная строка будет названа, и ничего не запишется.",
    exportTitle: "Экспорт", exportCsv: "Скачать CSV", exportJson: "Скачать JSON",
  },
};

let registered = false;
export function registerTablesStrings() {
  if (registered) return;
  registered = true;
  i18next.addResourceBundle("en", "translation", en, true, true);
  i18next.addResourceBundle("ru", "translation", ru, true, true);
}
