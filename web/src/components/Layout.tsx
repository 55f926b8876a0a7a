// The frame around every signed-in page: brand, navigation, language, theme, the user and logout.
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { useTranslation } from "react-i18next";
import { displayName, useLogout, useMe } from "../auth";
import { Preferences } from "./Preferences";

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
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
        <nav aria-label={t("nav.main")}>
          {nav.map((n) => (
            <Link key={n.href} href={n.href} className={n.active ? "nav-link active" : "nav-link"} aria-current={n.active ? "page" : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <div className="topbar-end">
          <Preferences />
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
