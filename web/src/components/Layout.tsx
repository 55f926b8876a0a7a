// The frame around every signed-in page: brand, navigation, language, theme, the user and logout.
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { useTranslation } from "react-i18next";
import { displayName, useLogout, useMe } from "../auth";
import { LANGUAGES, setLanguage, type Language } from "../i18n";
import { setTheme, storedTheme, type Theme } from "../theme";

export function Layout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const me = useMe().data;
  const logout = useLogout();
  const [path] = useLocation();
  const nav = [
    { href: "/projects", label: t("nav.projects"), active: path === "/" || path.startsWith("/projects") },
    { href: "/templates", label: t("nav.templates"), active: path.startsWith("/templates") },
  ];
  return (
    <div className="shell">
      <a className="skip" href="#main">{t("app.skip")}</a>
      <header className="topbar">
        <Link href="/projects" className="brand">Botloom</Link>
        <nav aria-label="main">
          {nav.map((n) => (
            <Link key={n.href} href={n.href} className={n.active ? "nav-link active" : "nav-link"} aria-current={n.active ? "page" : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <div className="topbar-end">
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
          {me && (
            <Link href="/account" className="user-link" aria-current={path === "/account" ? "page" : undefined}>
              {me.photoUrl && <img src={me.photoUrl} alt="" width={24} height={24} className="avatar" />}
              <span className="user-name" data-testid="user-name">{displayName(me)}</span>
            </Link>
          )}
          <button type="button" className="btn ghost" onClick={() => void logout()}>{t("nav.logout")}</button>
        </div>
      </header>
      <main id="main" className="main">{children}</main>
    </div>
  );
}
