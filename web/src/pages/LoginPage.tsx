// Login: developer login (any user id) or the Telegram Login Widget, whichever the admin chose.
// The widget runs in redirect mode (data-auth-url back to this page): its callback mode would need
// script evaluation, which the page's CSP forbids. The signed fields arrive in the query string and
// are posted to /api/auth/messenger-login, which verifies them. docs/security.md "Login": the page
// first asks for a state cookie (POST /api/auth/login-state) so the server knows this browser began
// the flow, and a payload in the URL logs in only when the person confirms the name shown.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, post } from "../api/client";
import { meKey, useAuthConfig } from "../auth";
import { Preferences } from "../components/Preferences";
import { safeNextPath } from "../../../src/lib/safe-next";

const WIDGET_FIELDS = ["id", "first_name", "last_name", "username", "photo_url", "auth_date", "hash"];

type WidgetPayload = Record<string, string | number>;

function nextPath(): string {
  return safeNextPath(new URLSearchParams(location.search).get("next"));
}

/** The signed fields of a widget redirect, or null when the URL carries none. */
function payloadFromUrl(): WidgetPayload | null {
  const params = new URLSearchParams(location.search);
  if (!params.get("hash") || !params.get("id")) return null;
  const payload: WidgetPayload = {};
  for (const f of WIDGET_FIELDS) {
    const v = params.get(f);
    if (v !== null) payload[f] = f === "id" || f === "auth_date" ? Number(v) : v;
  }
  return payload;
}

/** This page's address without the payload: only `next` survives (a reload must not offer the login again). */
function loginUrlWithoutPayload(): string {
  const next = new URLSearchParams(location.search).get("next");
  return next === null ? "/login" : `/login?${new URLSearchParams({ next })}`;
}

function payloadName(p: WidgetPayload): string {
  const full = [p.first_name, p.last_name].filter(Boolean).join(" ");
  return p.username ? `${full} (@${p.username})` : full || `#${p.id}`;
}

export function LoginPage() {
  const { t } = useTranslation();
  const config = useAuthConfig();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Back from the widget with a signed payload: it waits for the person's confirmation.
  const [pending, setPending] = useState<WidgetPayload | null>(payloadFromUrl);

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
      setPending(null);
    }
  };

  useEffect(() => {
    if (pending) history.replaceState(null, "", loginUrlWithoutPayload());
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
        {c?.setUp && c.loginMode === "messenger_widget" && c.botUsername && pending && (
          <div className="stack" data-testid="widget-confirm">
            <p>{t("login.confirmAs", { name: payloadName(pending) })}</p>
            <button className="btn primary" type="button" disabled={busy} onClick={() => void finish("/api/auth/messenger-login", pending)}>
              {t("login.confirm")}
            </button>
            <button className="btn" type="button" disabled={busy} onClick={() => setPending(null)}>
              {t("login.otherAccount")}
            </button>
          </div>
        )}
        {c?.setUp && c.loginMode === "messenger_widget" && c.botUsername && !pending && <TelegramWidget botUsername={c.botUsername} hint={t("login.widgetHint")} onError={setError} />}
        {c?.setUp && !c.loginMode && <p>{t("login.noMode")}</p>}
        {error && <p className="error" role="alert">{error}</p>}
        <div className="row end prefs">
          <Preferences />
        </div>
      </section>
    </main>
  );
}

function TelegramWidget({ botUsername, hint, onError }: { botUsername: string; hint: string; onError: (message: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let gone = false;
    // The state cookie comes first: the payload the widget brings back is accepted only with it.
    post("/api/auth/login-state")
      .then(() => {
        if (gone) return;
        const script = document.createElement("script");
        script.async = true;
        script.src = "https://telegram.org/js/telegram-widget.js?22";
        script.dataset.telegramLogin = botUsername;
        script.dataset.size = "large";
        script.dataset.authUrl = `${location.origin}${loginUrlWithoutPayload()}`;
        script.dataset.requestAccess = "write";
        el.appendChild(script);
      })
      .catch((e) => onError(errorText(e)));
    return () => {
      gone = true;
      el.replaceChildren();
    };
  }, [botUsername]);
  return (
    <div className="stack">
      <p className="muted">{hint}</p>
      <div ref={box} data-testid="telegram-widget" />
    </div>
  );
}
