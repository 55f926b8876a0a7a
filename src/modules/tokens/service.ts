// Bot tokens of a project: the credential is validated with the platform (getMe) when added, kept
// only in the database and handed to the bot runtime; no response or log line ever carries it.
import type { AppContext } from "../../context";
import { badRequest, MessengerError } from "../../errors";
import type { MessengerBot } from "../../messenger/client";
import type { BotInstanceState } from "../../bots/controller";
import { botStatusIndicator, botStatusLabel } from "../../texts";
import { removeBotFolders } from "../../bots/folders";
import { TokenAccess, type TokenRow } from "./access";
import { fetchAvatar, PHOTO_RECHECK_MS, removeUpload, uploadExists, withDeadline } from "./photos";
import type { TokenCreate, TokenListItem, TokenPatch, TokenStats } from "./model";
import { botUserCountStatements, insertToken, tokenStatements, updateToken, userAvatarsOf, type TokenChanges } from "./queries";

const DAY_MS = 24 * 3600 * 1000;
/** getMe when a token is added: below the bot-manager client's own 15 s request timeout. */
const GET_ME_DEADLINE_MS = 10_000;

/** "3d 4h", "2h 5m", "7m 12s", "0s"; "—" when the bot is not running. */
/** Whole seconds a running bot has been up, or null when it is not running. */
export function uptimeSeconds(state: BotInstanceState, now = Date.now()): number | null {
  if (state.status !== "running" || state.startedAt === null) return null;
  return Math.max(0, Math.floor((now - state.startedAt) / 1000));
}

export function formatUptime(state: BotInstanceState, now = Date.now()): string {
  const total = uptimeSeconds(state, now);
  if (total === null) return "—";
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

export class TokensService {
  readonly access: TokenAccess;
  private readonly q;

  constructor(private readonly ctx: AppContext) {
    this.access = new TokenAccess(ctx);
    this.q = tokenStatements(ctx.db);
  }

  private item(t: TokenRow): TokenListItem {
    const status = this.ctx.bots.state(t.id).status;
    return {
      id: t.id,
      projectId: t.projectId,
      name: t.name,
      botStatus: botStatusIndicator(status),
      status,
      botUsername: t.botUsername,
      botFirstName: t.botFirstName,
      launchMode: t.launchMode,
      catchAllHandlers: t.catchAllHandlers,
      protectContent: t.protectContent,
      contentCache: t.contentCache,
      messageRetentionDays: t.messageRetentionDays,
      sendsPerSecond: t.sendsPerSecond,
    };
  }

  list(projectId: number, userId: number): TokenListItem[] {
    this.ctx.access.require(projectId, userId);
    return this.q.list.all({ projectId }).map((t) => this.item(t));
  }

  /** The token a project-level action means when it names none: the project's first (lowest id). Access is checked by the caller. */
  first(projectId: number): TokenRow | undefined {
    return this.q.first.get({ projectId });
  }

  /** first(), for an action that needs a token: 400 when the project has none. */
  requireFirst(projectId: number): TokenRow {
    const token = this.first(projectId);
    if (!token) throw badRequest("The project has no bot token yet; a user adds one in the Studio (Bots tab) or through POST /api/bot/projects/{id}/tokens");
    return token;
  }

  /** Adds a credential after the platform confirmed it; the same credential again returns the existing record. */
  async add(projectId: number, userId: number, input: TokenCreate): Promise<{ id: number; name: string; projectId: number }> {
    this.ctx.access.require(projectId, userId);
    const token = input.token;
    const existing = this.q.byValue.get({ projectId, token });
    if (existing) return { id: existing.id, name: existing.name, projectId };
    // a refused credential answers 400, a platform in trouble 502 (toAppError, src/errors.ts)
    const me = await withDeadline(this.ctx.messenger.getMe(token), GET_ME_DEADLINE_MS, "getMe");
    const name = input.name?.trim() || me.firstName || me.username || "Bot";
    const row = insertToken(this.ctx.db, { projectId, token, name, botId: me.id, botUsername: me.username || null, botFirstName: me.firstName || null });
    // A concurrent add of the same credential won the insert: answer with that record.
    const saved = row ?? this.q.byValue.get({ projectId, token })!;
    return { id: saved.id, name: saved.name, projectId };
  }

  /** Stops the token's bot first, so no process keeps polling with a credential we forgot. */
  async remove(tokenId: number, userId: number) {
    const { token } = this.access.require(tokenId, userId);
    await this.ctx.bots.stop(tokenId);
    const file = this.ctx.projectFiles.existing(token.projectId);
    const avatars = file ? userAvatarsOf(file, tokenId) : [];
    this.q.remove.run({ id: tokenId });
    this.ctx.projectFiles.forgetToken(token.projectId, tokenId);
    removeBotFolders(this.ctx.config.botsDir, { projectId: token.projectId, tokenId });
    removeUpload(this.ctx.config.uploadsDir, token.photoPath);
    for (const url of avatars) removeUpload(this.ctx.config.uploadsDir, url);
  }

  update(tokenId: number, userId: number, patch: TokenPatch) {
    this.access.require(tokenId, userId);
    const set: TokenChanges = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.launchMode !== undefined) set.launchMode = patch.launchMode;
    if (patch.catchAllHandlers !== undefined) set.catchAllHandlers = patch.catchAllHandlers;
    if (patch.protectContent !== undefined) set.protectContent = patch.protectContent;
    if (patch.contentCache !== undefined) set.contentCache = patch.contentCache;
    if (patch.messageRetentionDays !== undefined) set.messageRetentionDays = patch.messageRetentionDays;
    if (patch.sendsPerSecond !== undefined) set.sendsPerSecond = patch.sendsPerSecond;
    if (Object.keys(set).length > 0) {
      set.updatedAt = new Date().toISOString();
      updateToken(this.ctx.db, tokenId, set);
    }
    const t = this.access.find(tokenId)!;
    return {
      id: t.id,
      name: t.name,
      projectId: t.projectId,
      launchMode: t.launchMode,
      catchAllHandlers: t.catchAllHandlers,
      protectContent: t.protectContent,
      contentCache: t.contentCache,
      messageRetentionDays: t.messageRetentionDays,
      sendsPerSecond: t.sendsPerSecond,
      botStatus: botStatusIndicator(this.ctx.bots.state(t.id).status),
    };
  }

  /**
   * The bot's avatar as a local `/uploads/...` path. The result (avatar or none) is cached in the
   * token row for PHOTO_RECHECK_MS; when the platform fails, the last cached avatar is answered.
   */
  async photo(tokenId: number, userId: number): Promise<{ photoUrl: string | null; total_count: number }> {
    const { token } = this.access.require(tokenId, userId);
    const dir = this.ctx.config.uploadsDir;
    const checkedAt = token.photoCheckedAt ? Date.parse(token.photoCheckedAt) : NaN;
    const fresh = Date.now() - checkedAt < PHOTO_RECHECK_MS;
    if (fresh && (token.photoPath === null || uploadExists(dir, token.photoPath))) {
      return { photoUrl: token.photoPath, total_count: token.photoPath ? 1 : 0 };
    }
    try {
      let botId = token.botId;
      if (botId === null) {
        const me = await withDeadline(this.ctx.messenger.getMe(token.token), GET_ME_DEADLINE_MS, "getMe");
        botId = me.id;
        updateToken(this.ctx.db, tokenId, { botId, botUsername: me.username || null, botFirstName: me.firstName || null });
      }
      const r = await fetchAvatar(this.ctx, token.token, botId, token.projectId, "bot_photos", `bot_${tokenId}`);
      updateToken(this.ctx.db, tokenId, { photoPath: r.photoUrl, photoCheckedAt: new Date().toISOString() });
      if (token.photoPath && token.photoPath !== r.photoUrl) removeUpload(dir, token.photoPath);
      return { photoUrl: r.photoUrl, total_count: r.totalCount };
    } catch (e) {
      if (!(e instanceof MessengerError)) throw e;
      this.ctx.log.warn(`Bot avatar of token ${tokenId} not refreshed: ${e.message}`);
      const cached = uploadExists(dir, token.photoPath) ? token.photoPath : null;
      return { photoUrl: cached, total_count: cached ? 1 : 0 };
    }
  }

  /** Counts from the project's own database file (none yet: zeros). */
  statsOf(projectId: number, tokenId: number, now = Date.now()): TokenStats {
    const today = new Date(now);
    today.setUTCHours(0, 0, 0, 0);
    const since24h = new Date(now - DAY_MS).toISOString();
    const since7d = new Date(now - 7 * DAY_MS).toISOString();
    const own = this.ctx.projectFiles.existing(projectId);
    const r = own ? botUserCountStatements(own).stats.get({ tokenId, since24h, since7d, today: today.toISOString() }) : undefined;
    return { total_users: r?.total ?? 0, active_24h: r?.active24h ?? 0, active_7d: r?.active7d ?? 0, new_today: r?.newToday ?? 0 };
  }

  stats(tokenId: number, userId: number): TokenStats {
    const { token } = this.access.require(tokenId, userId);
    return this.statsOf(token.projectId, tokenId);
  }

  /** docs/api.md#bot-manager-api-apibot: the bot instance status plus `userStats`. */
  status(tokenId: number, userId: number) {
    const { token } = this.access.require(tokenId, userId);
    const state = this.ctx.bots.state(tokenId);
    const now = Date.now();
    const s = this.statsOf(token.projectId, tokenId);
    return {
      status: state.status,
      instance: {
        botName: token.name,
        botUsername: token.botUsername ?? "",
        tokenId,
        status: state.status,
        statusLabel: botStatusLabel(state.status),
        uptime: formatUptime(state, now),
        uptimeSeconds: uptimeSeconds(state, now),
      },
      userStats: { total: s.total_users, active_24h: s.active_24h, active_7d: s.active_7d, new_today: s.new_today },
    };
  }
}
