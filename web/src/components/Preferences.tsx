// Interface language and theme switches (top bar, login page).
import { useTranslation } from "react-i18next";
import { LANGUAGES, setLanguage, type Language } from "../i18n";
import { setTheme, storedTheme, type Theme } from "../theme";

export function Preferences() {
  const { t, i18n } = useTranslation();
  return (
    <>
      <label className="compact">
        <span className="sr-only">{t("nav.language")}</span>
        <select value={i18n.language} onChange={(e) => setLanguage(e.target.value as Language)} aria-label={t("nav.language")}>
          {LANGUAGES.map((l) => <option key={l} value={l}>{l.toUpperCase()}</option>)}
        </select>
      </label>
      <label className="compact">
        <span className="sr-only">{t("nav.theme")}</span>
        <select defaultValue={storedTheme()} onChange={(e) => setTheme(e.target.value as Theme)} aria-label={t("nav.theme")}>
          <option value="system">{t("nav.system")}</option>
          <option value="light">{t("nav.light")}</option>
          <option value="dark">{t("nav.dark")}</option>
        </select>
      </label>
    </>
  );
}
