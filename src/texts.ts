// Words the server itself writes for people, kept out of the services: the defaults the API keeps
// for the older platform's clients (docs/api.md: a duplicate is named "<name> (копия)", a token's
// status reads "Работает") and their English. Services ask for words by key; the language is the
// caller's (the contract's default until a request or project carries one).
import type { BotStatus } from "./bots/controller";

export type Lang = "ru" | "en";
export const DEFAULT_LANG: Lang = "ru";

const TEXTS = {
  ru: {
    copyOf: (name: string) => `${name} (копия)`,
    botStatus: { running: "Работает", starting: "Запускается", stopped: "Остановлен", error: "Ошибка" } as Record<BotStatus, string>,
  },
  en: {
    copyOf: (name: string) => `${name} (copy)`,
    botStatus: { running: "Running", starting: "Starting", stopped: "Stopped", error: "Error" } as Record<BotStatus, string>,
  },
} satisfies Record<Lang, unknown>;

export const texts = (lang: Lang = DEFAULT_LANG) => TEXTS[lang];

/** The indicator bot-manager clients show in front of a bot's name (the same in every language). */
const INDICATOR: Record<BotStatus, string> = { running: "🟢", starting: "🟡", stopped: "🔴", error: "⚠️" };
export const botStatusIndicator = (s: string) => INDICATOR[s as BotStatus] ?? "⚪";

/** A bot's status in words; an unknown status reads as itself. */
export const botStatusLabel = (s: string, lang: Lang = DEFAULT_LANG) => texts(lang).botStatus[s as BotStatus] ?? s;
