import type { SettingsService } from "../../settings/service";
import { esc, page } from "./layout";

type View = ReturnType<SettingsService["publicView"]>;

/** What the admin typed, shown again after a refused save (secrets are never echoed). */
export interface SettingsForm {
  loginMode?: string;
  clientId?: string;
  botUsername?: string;
  operatorIds?: string;
  /** secrets that were typed but not saved: they must be entered again */
  retype?: ("botToken" | "clientSecret")[];
}

const FIELDS = { loginMode: "Login mode", clientId: "Client id", botToken: "Bot token", clientSecret: "Client secret", botUsername: "Bot username", operatorIds: "Platform operators" } as const;
type Field = keyof typeof FIELDS;

const FIELD_NAME = /\b(?:messenger\.|auth\.|platform\.)?(loginMode|clientId|botToken|clientSecret|botUsername|operatorIds)\b/g;

/**
 * The service speaks in API field names; the page names the fields as their labels do and marks
 * the fields at fault (those named before "when": "clientId and botToken required when loginMode is ...").
 */
function readable(message: string) {
  const fault = message.split(" when ")[0];
  const invalid = new Set<Field>([...fault.matchAll(FIELD_NAME)].map((m) => m[1] as Field));
  const text = message
    .replace(/^messenger: /, "")
    .replace(FIELD_NAME, (_m, f: Field) => FIELDS[f])
    .replace(/\bmessenger_widget\b/g, "Messenger Login Widget");
  return { text, invalid };
}

/** First-run and later settings. Works without JavaScript: the form posts to /admin/settings. */
export function settingsPage(view: View, opts: { error?: string; saved?: boolean; form?: SettingsForm } = {}) {
  const m = view.providers.messenger;
  const form = opts.form ?? {};
  const mode = form.loginMode ?? view.auth.loginMode ?? "dev_login";
  const error = opts.error ? readable(opts.error) : null;
  const attrs = (f: Field) => (error?.invalid.has(f) ? ` aria-invalid="true" aria-describedby="settings-error"` : "");
  const opt = (v: string, label: string) => `<option value="${v}"${mode === v ? " selected" : ""}>${label}</option>`;
  const first = !view.configured
    ? `<p class="ok">Welcome! Choose how users log in, then save. Until this is saved, the API answers 503 "not set up".</p>`
    : "";
  const secretHint = (field: "botToken" | "clientSecret", stored: boolean, otherwise: string) =>
    `${stored ? "stored — leave empty to keep it" : otherwise}${form.retype?.includes(field) ? " (what you typed was not saved: enter it again)" : ""}`;
  return page(
    "Settings",
    `<h2>Platform settings</h2>${first}
${error ? `<p class="error" id="settings-error" role="alert">Not saved: ${esc(error.text)}</p>` : ""}
${opts.saved ? `<p class="ok" role="status">Saved.</p>` : ""}
<form class="stack" method="post" action="/admin/settings">
  <fieldset><legend>Login</legend>
    <label>Login mode <span class="hint">Developer login lets anyone pick a user id: for trusted setups only</span>
      <select name="loginMode"${attrs("loginMode")}>${opt("dev_login", "Developer login")}${opt("messenger_widget", "Messenger Login Widget")}</select>
    </label>
  </fieldset>
  <fieldset><legend>Messenger login provider</legend>
    <p class="hint">Needed for the Login Widget. Create a bot with @BotFather, run /setdomain there with this server's domain, and paste the bot's token here.</p>
    <label>Client id <span class="hint">the bot's numeric id (the part of the token before ":")</span>
      <input name="clientId" value="${esc(form.clientId ?? m.clientId)}" inputmode="numeric" autocomplete="off"${attrs("clientId")}></label>
    <label>Bot token <span class="hint">${secretHint("botToken", m.botTokenConfigured, "not set")}</span>
      <input name="botToken" type="password" autocomplete="off"${attrs("botToken")}></label>
    <label>Client secret <span class="hint">${secretHint("clientSecret", m.clientSecretConfigured, "optional")}</span>
      <input name="clientSecret" type="password" autocomplete="off"${attrs("clientSecret")}></label>
    <label>Bot username <span class="hint">optional; read from the messenger when a token is saved</span>
      <input name="botUsername" value="${esc(form.botUsername ?? m.botUsername ?? "")}" autocomplete="off"${attrs("botUsername")}></label>
  </fieldset>
  <fieldset><legend>Platform operators</legend>
    <label>Operator user ids <span class="hint">comma-separated messenger user ids; operators may manage storage configs (where uploads are stored). Leave empty for none</span>
      <input name="operatorIds" value="${esc(form.operatorIds ?? view.platform.operatorIds)}" autocomplete="off"${attrs("operatorIds")}></label>
  </fieldset>
  <button type="submit">Save settings</button>
</form>`,
    { nav: "settings" },
  );
}
