// Platform settings (admin rules 1-2) and the "set up" state the guard checks on every request.
// The state is derived from the stored rows and cached in memory; it is recomputed after every
// committed write, so the 503 → open transition happens exactly once, after the data is durable.
import type { Db } from "../../db/client";
import { badRequest, MessengerError } from "../../errors";
import type { MessengerClient } from "../../messenger/client";
import type { LoginMode, SettingsPut, StoredAuth, StoredMessenger, StoredPlatform } from "./model";
import { allSettings, putSettings } from "./queries";

const EMPTY_MESSENGER: StoredMessenger = { clientId: "", botUsername: "", clientSecret: "", botToken: "" };

export class SettingsService {
  private cache: { auth: StoredAuth | null; messenger: StoredMessenger; platform: StoredPlatform; operators: Set<number>; adminSessionsFrom: number } | null = null;

  constructor(
    private readonly db: Db,
    private readonly messenger: MessengerClient,
  ) {}

  private load() {
    if (this.cache) return this.cache;
    const rows = allSettings(this.db);
    const get = (k: string) => {
      const r = rows.find((x) => x.key === k);
      return r ? JSON.parse(r.value) : null;
    };
    const platform: StoredPlatform = { operatorIds: "", ...(get("platform") ?? {}) };
    const operators = new Set(platform.operatorIds.split(",").filter(Boolean).map(Number));
    const adminSessionsFrom = Number(get("adminSessions")?.from) || 0;
    this.cache = { auth: get("auth"), messenger: { ...EMPTY_MESSENGER, ...(get("messenger") ?? {}) }, platform, operators, adminSessionsFrom };
    return this.cache;
  }

  /** Admin cookies issued before this time (ms) are void: the admin logged out then (docs/security.md "Admin area"). */
  adminSessionsFrom(): number {
    return this.load().adminSessionsFrom;
  }

  /** Ends every admin session issued until now, across restarts. */
  async endAdminSessions(now = Date.now()) {
    await putSettings(this.db, [["adminSessions", { from: now }]]);
    this.cache = null;
  }

  loginMode(): LoginMode | null {
    return this.load().auth?.loginMode ?? null;
  }

  /** docs/api.md#storage-configs: users the admin named may manage storage configs. */
  isOperator(userId: number): boolean {
    return this.load().operators.has(userId);
  }

  /** Bot token of the messenger login provider (verifies Login Widget hashes). */
  messengerBotToken(): string {
    return this.load().messenger.botToken;
  }

  messengerConfigured(): boolean {
    const m = this.load().messenger;
    return m.clientId !== "" && m.botToken !== "";
  }

  /** docs/api.md#authentication (setup guard): the auth section is saved, and the messenger provider is complete when the widget is the login mode. */
  isSetUp(): boolean {
    const { auth } = this.load();
    if (!auth) return false;
    return auth.loginMode !== "messenger_widget" || this.messengerConfigured();
  }

  publicView() {
    const { auth, messenger, platform } = this.load();
    return {
      auth: { loginMode: auth?.loginMode ?? null, devLoginEnabled: auth?.loginMode === "dev_login" },
      providers: {
        messenger: {
          clientId: messenger.clientId,
          botUsername: messenger.botUsername || null,
          clientSecretConfigured: messenger.clientSecret !== "",
          botTokenConfigured: messenger.botToken !== "",
          configured: this.messengerConfigured(),
        },
      },
      platform: { operatorIds: platform.operatorIds },
      configured: this.isSetUp(),
    };
  }

  /** Upsert per section (admin rule 2). Empty secrets keep the stored ones. */
  async update(input: SettingsPut) {
    const current = this.load();
    const nextAuth: StoredAuth | null = input.auth ? { loginMode: input.auth.loginMode } : current.auth;
    const nextMessenger: StoredMessenger = { ...current.messenger };
    if (input.messenger) {
      const m = input.messenger;
      if (m.clientId !== undefined) nextMessenger.clientId = m.clientId.trim();
      if (m.clientSecret) nextMessenger.clientSecret = m.clientSecret;
      const givenUsername = (m.botUsername ?? "").trim().replace(/^@/, "");
      if (givenUsername !== "") nextMessenger.botUsername = givenUsername;
      if (m.botToken) {
        const token = m.botToken.trim();
        if (token !== current.messenger.botToken || !nextMessenger.botUsername) {
          const me = await this.resolveBot(token);
          if (givenUsername === "") nextMessenger.botUsername = me.username;
        }
        nextMessenger.botToken = token;
      }
    }
    if (nextAuth?.loginMode === "messenger_widget") {
      const missing = [!nextMessenger.clientId && "clientId", !nextMessenger.botToken && "botToken"].filter(Boolean);
      if (missing.length) throw badRequest(`messenger: ${missing.join(" and ")} required when loginMode is messenger_widget`);
    }
    const sections: [string, unknown][] = [];
    if (input.auth && nextAuth) sections.push(["auth", nextAuth]);
    if (input.messenger) sections.push(["messenger", nextMessenger]);
    if (input.platform) sections.push(["platform", { operatorIds: input.platform.operatorIds } satisfies StoredPlatform]);
    putSettings(this.db, sections);
    this.cache = null;
    return this.publicView();
  }

  private async resolveBot(token: string) {
    try {
      return await this.messenger.getMe(token);
    } catch (e) {
      if (e instanceof MessengerError && e.kind === "unreachable") throw e; // 502 (src/errors.ts)
      throw badRequest(`messenger.botToken: ${e instanceof Error ? e.message : "rejected"}`);
    }
  }

  /** For tests and after restore: forget the cached rows. */
  reload() {
    this.cache = null;
    this.load();
  }
}
