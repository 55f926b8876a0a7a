import type { SettingsService } from "../../settings/service";
import { esc, page } from "./layout";

type View = ReturnType<SettingsService["publicView"]>;

/** First-run and later settings. Works without JavaScript: the form posts to /admin/settings. */
export function settingsPage(view: View, opts: { error?: string; saved?: boolean } = {}) {
  const m = view.providers.messenger;
  const mode = view.auth.loginMode ?? "dev_login";
  const opt = (v: string, label: string) => `<option value="${v}"${mode === v ? " selected" : ""}>${label}</option>`;
  const first = !view.configured
    ? `<p class="ok">Welcome! Choose how users log in, then save. Until this is saved, the API answers 503 "not set up".</p>`
    : "";
  return page(
    "Settings",
    `<h2>Platform settings</h2>${first}
${opts.error ? `<p class="error" role="alert">${esc(opts.error)}</p>` : ""}
${opts.saved ? `<p class="ok" role="status">Saved.</p>` : ""}
<form class="stack" method="post" action="/admin/settings">
  <fieldset><legend>Login</legend>
    <label>Login mode
      <select name="loginMode">${opt("dev_login", "Developer login (anyone picks a user id — trusted setups only)")}${opt("messenger_widget", "Messenger Login Widget")}</select>
    </label>
  </fieldset>
  <fieldset><legend>Messenger login provider</legend>
    <p class="hint">Needed for the Login Widget. Create a bot with @BotFather, run /setdomain there with this server's domain, and paste the bot's token here.</p>
    <label>Client id <span class="hint">the bot's numeric id (the part of the token before ":")</span>
      <input name="clientId" value="${esc(m.clientId)}" inputmode="numeric"></label>
    <label>Bot token <span class="hint">${m.botTokenConfigured ? "stored — leave empty to keep it" : "not set"}</span>
      <input name="botToken" type="password" autocomplete="off"></label>
    <label>Client secret <span class="hint">${m.clientSecretConfigured ? "stored — leave empty to keep it" : "optional"}</span>
      <input name="clientSecret" type="password" autocomplete="off"></label>
    <label>Bot username <span class="hint">optional; read from the messenger when a token is saved</span>
      <input name="botUsername" value="${esc(m.botUsername ?? "")}"></label>
  </fieldset>
  <button type="submit">Save settings</button>
</form>`,
    { nav: true },
  );
}
