// Interface languages: Russian and English. The browser's language decides at first; the user's
// choice is remembered. Each screen adds its strings to en.ts and ru.ts (same keys in both).
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./en";
import { ru } from "./ru";

export const LANGUAGES = ["en", "ru"] as const;
export type Language = (typeof LANGUAGES)[number];
const KEY = "botloom.lang";

export function initialLanguage(): Language {
  const stored = localStorage.getItem(KEY);
  if (stored === "en" || stored === "ru") return stored;
  return navigator.language?.toLowerCase().startsWith("ru") ? "ru" : "en";
}

export function initI18n() {
  const lng = initialLanguage();
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en }, ru: { translation: ru } },
    lng,
    fallbackLng: "en",
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  document.documentElement.lang = lng;
}

export function setLanguage(lng: Language) {
  localStorage.setItem(KEY, lng);
  document.documentElement.lang = lng;
  void i18next.changeLanguage(lng);
}
