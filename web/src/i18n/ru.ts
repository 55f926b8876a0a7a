// Русские строки: те же ключи, что в en.ts.
import type { Strings } from "./en";

export const ru: Strings = {
  app: { name: "Botloom Studio", skip: "К содержимому" },
  nav: { projects: "Проекты", templates: "Шаблоны", logout: "Выйти", language: "Язык", theme: "Тема", light: "Светлая", dark: "Тёмная", system: "Как в системе" },
  common: { loading: "Загрузка…", save: "Сохранить", cancel: "Отмена", delete: "Удалить", create: "Создать", close: "Закрыть", retry: "Повторить", error: "Что-то пошло не так", notFound: "Страница не найдена", back: "Назад" },
  login: {
    title: "Вход в Botloom",
    notSetUp: "Сервер ещё не настроен. Администратор должен завершить настройку на /admin/settings.",
    devHint: "Вход разработчика: любой id пользователя (только для доверенных установок).",
    userId: "Id пользователя",
    firstName: "Имя",
    submit: "Войти",
    widgetHint: "Войдите через аккаунт Telegram.",
    noMode: "Способ входа не настроен.",
  },
  projects: { title: "Проекты", empty: "Проектов пока нет. Создайте новый или начните с шаблона.", newName: "Название проекта", create: "Новый проект", nodes: "Узлов: {{count}}", sheets: "Листов: {{count}}", updated: "Изменён {{date}}" },
  project: { tabs: { scenario: "Сценарий", bots: "Боты", logs: "Логи", users: "Пользователи", media: "Медиа", versions: "Версии", team: "Команда", export: "Экспорт" } },
};
