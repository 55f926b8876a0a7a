// Users, sessions and personal access tokens. Secrets (session ids, PATs) are stored only as
// SHA-256; the cookie carries an opaque id plus an HMAC so forged cookies never reach the database.
import type { Db } from "../../db/client";
import { hmacHex, randomBase62, safeEqual, sha256Hex } from "../../lib/crypto";
import { conflict, notFound, unauthorized } from "../../errors";
import type { PublicUser, WidgetLogin } from "./model";
import { authStatements, countPats, deletePat, insertPat, insertSession, listPats, upsertUser, usersWithoutSearchText, type UserChanges } from "./queries";
import type { Actor } from "../../actor";
import { markPayloadUsed } from "./queries";

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** `lastUsedAt` is refreshed at most this often, so authenticating is not a write on every request. */
const PAT_TOUCH_INTERVAL_MS = 60_000;
const WIDGET_MAX_AGE_S = 24 * 3600;
/** How far in the future a payload's auth_date may lie (clock skew between us and the messenger). */
const WIDGET_FUTURE_S = 300;

export type PatScope = "bot_manager";

export interface UserProfile {
  id: number;
  firstName?: string;
  lastName?: string | null;
  username?: string | null;
  photoUrl?: string | null;
}

export class AuthService {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly sessionSecret: string,
  ) {
    this.q = authStatements(db);
  }

  upsertUser(p: UserProfile) {
    const now = new Date().toISOString();
    const values = { id: p.id, firstName: p.firstName ?? "", lastName: p.lastName ?? null, username: p.username ?? null, photoUrl: p.photoUrl ?? null };
    const set: UserChanges = { updatedAt: now };
    if (p.firstName !== undefined) set.firstName = values.firstName;
    if (p.lastName !== undefined) set.lastName = values.lastName;
    if (p.username !== undefined) set.username = values.username;
    if (p.photoUrl !== undefined) set.photoUrl = values.photoUrl;
    upsertUser(this.db, values, set);
    const user = this.getUser(p.id)!;
    this.q.setSearchText.run({ id: p.id, searchText: userSearchText(user) });
    return user;
  }

  /** Fills `search_text` of rows written before the column existed (a no-op once done). */
  backfillSearchText() {
    for (const u of usersWithoutSearchText(this.db)) this.q.setSearchText.run({ id: u.id, searchText: userSearchText(u) });
  }

  /** Creates the user row if unknown (collaborator invites, PATs for a messenger id). */
  ensureUser(id: number) {
    // Every bot_manager request names its acting user: a prepared read keeps that from being a
    // write (and a write lock beside the bot processes) on each call.
    if (this.q.userExists.get({ id })) return;
    this.q.addUserId.run({ id });
  }

  getUser(id: number): PublicUser | null {
    const u = this.q.user.get({ id });
    return u ? { id: u.id, firstName: u.firstName, lastName: u.lastName, username: u.username, photoUrl: u.photoUrl } : null;
  }

  // --- sessions -----------------------------------------------------------------------------

  private sign(id: string) {
    return hmacHex(this.sessionSecret, `session:${id}`);
  }

  /** Returns the cookie value. */
  createSession(userId: number): string {
    const id = randomBase62(32);
    insertSession(this.db, sha256Hex(id), userId, new Date(Date.now() + SESSION_TTL_MS).toISOString());
    return `${id}.${this.sign(id)}`;
  }

  private sessionIdOf(cookieValue: unknown): string | null {
    if (typeof cookieValue !== "string" || cookieValue.length > 200) return null;
    const dot = cookieValue.lastIndexOf(".");
    if (dot <= 0) return null;
    const id = cookieValue.slice(0, dot);
    return safeEqual(cookieValue.slice(dot + 1), this.sign(id)) ? id : null;
  }

  resolveSession(cookieValue: unknown): number | null {
    const id = this.sessionIdOf(cookieValue);
    if (!id) return null;
    const row = this.q.session.get({ id: sha256Hex(id) });
    if (!row) return null;
    if (Date.parse(row.expiresAt) < Date.now()) {
      this.q.deleteSession.run({ id: sha256Hex(id) });
      return null;
    }
    return row.userId;
  }

  deleteSession(cookieValue: unknown) {
    const id = this.sessionIdOf(cookieValue);
    if (id) this.q.deleteSession.run({ id: sha256Hex(id) });
  }

  // --- personal access tokens -----------------------------------------------------------------

  createPat(userId: number, name: string, scopes: PatScope[] = []) {
    const token = `mcp_${randomBase62(32)}`;
    const row = insertPat(this.db, userId, name, sha256Hex(token), JSON.stringify(scopes));
    return { id: row.id, name: row.name, userId: row.userId, scopes: [...scopes], token, createdAt: row.createdAt };
  }

  resolvePat(token: string): Actor | null {
    if (!/^mcp_[A-Za-z0-9]{20,80}$/.test(token)) return null;
    const row = this.q.pat.get({ hash: sha256Hex(token) });
    if (!row) return null;
    const now = Date.now();
    if (!row.lastUsedAt || now - Date.parse(row.lastUsedAt) > PAT_TOUCH_INTERVAL_MS) {
      this.q.touchPat.run({ id: row.id, at: new Date(now).toISOString() });
    }
    return { userId: row.userId, via: "pat", scopes: parseScopes(row.scopes) };
  }

  /** A user's own PAT: the per-user cap applies (the admin's and the CLI's are not capped). */
  createOwnPat(userId: number, name: string, maxPerUser: number) {
    const held = this.countPats(userId);
    if (held >= maxPerUser) throw conflict(`You already hold ${held} personal access tokens (at most ${maxPerUser}); delete one first`);
    return this.createPat(userId, name, []);
  }

  countPats(userId: number): number {
    return countPats(this.db, userId);
  }

  listPats(userId?: number, page?: { page: number; perPage: number }) {
    const rows = listPats(this.db, userId, page && { limit: page.perPage, offset: (page.page - 1) * page.perPage });
    return rows.map((r) => ({ id: r.id, name: r.name, userId: r.userId, scopes: parseScopes(r.scopes), createdAt: r.createdAt, lastUsedAt: r.lastUsedAt }));
  }

  /** Deletes a PAT; with `userId`, only one of that user's (404 otherwise, never revealing others'). */
  deletePat(id: number, userId?: number) {
    if (!deletePat(this.db, id, userId)) throw notFound("Personal access token not found");
  }

  // --- Telegram Login Widget --------------------------------------------------------------------

  /** Verifies a Login Widget payload (docs/api.md#authentication) against the provider bot token. */
  verifyWidget(payload: WidgetLogin, botToken: string, nowS = Math.floor(Date.now() / 1000)): void {
    if (!botToken) throw unauthorized("Messenger login is not configured");
    const { hash, ...fields } = payload;
    const dataCheck = Object.keys(fields)
      .filter((k) => (fields as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${k}=${(fields as Record<string, unknown>)[k]}`)
      .join("\n");
    const secret = new Bun.CryptoHasher("sha256").update(botToken).digest();
    if (!safeEqual(hmacHex(secret, dataCheck), hash.toLowerCase())) throw unauthorized("Login data could not be verified");
    const age = nowS - Number(payload.auth_date);
    if (age > WIDGET_MAX_AGE_S) throw unauthorized("Login data is older than 24 hours; log in again");
    if (age < -WIDGET_FUTURE_S) throw unauthorized("Login data is dated in the future");
  }

  /**
   * A verified payload logs in once (docs/security.md "Login"): its hash is kept until the payload would be
   * too old anyway, so a link or a captured request cannot log anyone in again.
   */
  consumeWidget(payload: WidgetLogin, nowS = Math.floor(Date.now() / 1000)): void {
    const expiresAt = new Date((Number(payload.auth_date) + WIDGET_MAX_AGE_S + WIDGET_FUTURE_S) * 1000).toISOString();
    if (!markPayloadUsed(this.db, payload.hash.toLowerCase(), expiresAt, new Date(nowS * 1000).toISOString())) {
      throw unauthorized("This login was already used; log in again");
    }
  }
}

function parseScopes(s: string): string[] {
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** What the admin search matches names against (schema.ts `users.searchText`). */
export function userSearchText(u: { firstName: string; lastName: string | null; username: string | null }): string {
  return [u.firstName, u.lastName ?? "", u.username ?? ""].join(" ").toLocaleLowerCase();
}
