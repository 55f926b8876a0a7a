// Login: developer login (any user id) or the Telegram Login Widget, whichever the admin chose.
// The widget runs in redirect mode (data-auth-url back to this page): its callback mode would need
// script evaluation, which the page's CSP forbids. The signed fields arrive in the query string and
// are posted to /api/auth/messenger-login, which verifies them.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, post } from "../api/client";
import { meKey, useAuthConfig } from "../auth";
import { Preferences } from "../components/Preferences";

const WIDGET_FIELDS = ["id", "first_name", "last_name", "username", "photo_url", "auth_date", "hash"];

function nextPath(): string {
  const next = new URLSearchParams(location.search).get("next");
  // Only a path of this app, never another origin.
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/projects";
}

export function LoginPage() {
  const { t } = useTranslation();
  const config = useAuthConfig();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Back from the widget with a signed payload: no need to load the widget's script again.
  const [fromWidget, setFromWidget] = useState(() => new URLSearchParams(location.search).has("hash"));

  const finish = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await post(path, body);
      await qc.invalidateQueries({ queryKey: meKey });
      location.assign(nextPath());
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
      setFromWidget(false);
    }
  };

  // Widget redirect: the signed payload is in the query string.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.get("hash") || !params.get("id")) return;
    const payload: Record<string, string | number> = {};
    for (const f of WIDGET_FIELDS) {
      const v = params.get(f);
      if (v !== null) payload[f] = f === "id" || f === "auth_date" ? Number(v) : v;
    }
    history.replaceState(null, "", "/login");
    void finish("/api/auth/messenger-login", payload);
  }, []);

  const onDevLogin = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const firstName = String(form.get("firstName") ?? "").trim();
    void finish("/api/auth/dev-login", { userId: Number(form.get("userId")), ...(firstName ? { firstName } : {}) });
  };

  const c = config.data;
  return (
    <main className="login" id="main">
      <section className="card login-card">
        <h1>{t("login.title")}</h1>
        {config.isPending && <p>{t("common.loading")}</p>}
        {config.isError && <p className="error" role="alert">{errorText(config.error)}</p>}
        {c && !c.setUp && <p className="notice" role="status">{t("login.notSetUp")}</p>}
        {c?.setUp && c.loginMode === "dev_login" && (
          <form onSubmit={onDevLogin} className="stack">
            <p className="muted">{t("login.devHint")}</p>
            <label>
              {t("login.userId")}
              <input name="userId" type="number" min={1} step={1} required inputMode="numeric" autoFocus />
            </label>
            <label>
              {t("login.firstName")}
              <input name="firstName" type="text" maxLength={64} autoComplete="given-name" />
            </label>
            <button className="btn primary" type="submit" disabled={busy}>{t("login.submit")}</button>
          </form>
        )}
        {c?.setUp && c.loginMode === "messenger_widget" && c.botUsername && fromWidget && <p role="status">{t("login.checking")}</p>}
        {c?.setUp && c.loginMode === "messenger_widget" && c.botUsername && !fromWidget && <TelegramWidget botUsername={c.botUsername} hint={t("login.widgetHint")} />}
        {c?.setUp && !c.loginMode && <p>{t("login.noMode")}</p>}
        {error && <p className="error" role="alert">{error}</p>}
        <div className="row end prefs">
          <Preferences />
        </div>
      </section>
    </main>
  );
}

function TelegramWidget({ botUsername, hint }: { botUsername: string; hint: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const script = document.createElement("script");
    script.async = true;
    script.src = "https://telegram.org/js/telegram-widget.js?22";
    script.dataset.telegramLogin = botUsername;
    script.dataset.size = "large";
    script.dataset.authUrl = `${location.origin}/login${location.search.includes("next=") ? location.search : ""}`;
    script.dataset.requestAccess = "write";
    el.appendChild(script);
    return () => void el.replaceChildren();
  }, [botUsername]);
  return (
    <div className="stack">
      <p className="muted">{hint}</p>
      <div ref={box} data-testid="telegram-widget" />
    </div>
  );
}
