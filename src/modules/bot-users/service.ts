// Users of a bot, as recorded by the bot process in its project's database file (bot_users).
import type { AppContext } from "../../context";
import type { ProjectDb } from "../../db/project-db";
import { notFound } from "../../errors";
import { MessengerError } from "../../errors";
import type { TokenAccess, TokenRow } from "../tokens/access";
import { fetchAvatar, PHOTO_RECHECK_MS, uploadExists } from "../tokens/photos";
import { formatDateTime, pageInfo, parseVariables, type BotUserDetail, type BotUserPage, type DailyNewUsers } from "./model";
import { listItemOf } from "./people";
import { botUserStatements, newUsersPerDay, searchBotUsers, type BotUserRow } from "./queries";
import { searchTermOf } from "../../db/like";

/** Bounds the in-memory "checked, no avatar" cache. */
const NO_PHOTO_CACHE_MAX = 10_000;
/** After a platform failure, the next attempt for that user waits this long (keeps the card fast). */
const FAILURE_RETRY_MS = 5 * 60 * 1000;

export class BotUsersService {
  private readonly tokens: TokenAccess;
  /** `${tokenId}:${userId}` → when to ask the platform again after "no avatar" or a failure (no column for it). */
  private readonly retryAt = new Map<string, number>();

  constructor(private readonly ctx: AppContext) {
    this.tokens = ctx.tokens.access;
  }

  /** The project's file; a project whose bots never ran has none, hence no users. */
  private fileOf(projectId: number): ProjectDb | null {
    return this.ctx.projectFiles.existing(projectId);
  }

  list(tokenId: number, actorId: number, limit: number, offset: number, search = ""): BotUserPage {
    const { token } = this.tokens.require(tokenId, actorId);
    const db = this.fileOf(token.projectId);
    const term = searchTermOf(search);
    if (db && term) return this.search(db, tokenId, limit, offset, term);
    const q = db ? botUserStatements(db) : undefined;
    const count = q?.count.get({ tokenId })?.n ?? 0;
    const rows = q?.page.all({ tokenId, limit, offset }) ?? [];
    const items = rows.map(listItemOf);
    return { items, ...pageInfo(count, offset, limit, items.length) };
  }

  private search(db: ProjectDb, tokenId: number, limit: number, offset: number, term: string): BotUserPage {
    const { count, rows } = searchBotUsers(db, tokenId, term, limit, offset);
    const items = rows.map(listItemOf);
    return { items, ...pageInfo(count, offset, limit, items.length) };
  }

  /** New users per UTC day over the last `days` days, oldest first, days without users included. */
  daily(tokenId: number, actorId: number, days: number, now = Date.now()): DailyNewUsers {
    const { token } = this.tokens.require(tokenId, actorId);
    const first = new Date(now);
    first.setUTCHours(0, 0, 0, 0);
    first.setUTCDate(first.getUTCDate() - (days - 1));
    const db = this.fileOf(token.projectId);
    const rows = db ? newUsersPerDay(db, tokenId, first.toISOString()) : [];
    const counts = new Map(rows.map((r) => [r.day, r.n]));
    const items = Array.from({ length: days }, (_, i) => {
      const date = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      return { date, newUsers: counts.get(date) ?? 0 };
    });
    return { items, count: items.length };
  }

  async detail(tokenId: number, actorId: number, botUserId: string): Promise<BotUserDetail> {
    const { token } = this.tokens.require(tokenId, actorId);
    const db = this.fileOf(token.projectId);
    const row = db ? botUserStatements(db).one.get({ tokenId, userId: botUserId }) : undefined;
    if (!db || !row) throw notFound("Bot user not found");
    return {
      userId: row.userId,
      firstName: row.firstName ?? "",
      lastName: row.lastName ?? "",
      userName: row.username ?? "",
      registeredAt: formatDateTime(row.firstSeenAt),
      lastInteraction: formatDateTime(row.lastSeenAt),
      interactionCount: row.interactionCount,
      variables: parseVariables(row.variables),
      // docs/api.md types the detail's photoUrl as a string path: "" without an avatar (the older
      // platform's clients test `= ""`), unlike the bot photo endpoint's documented null.
      photoUrl: (await this.photoOf(db, token, row)) ?? "",
    };
  }

  /**
   * The user's avatar as a local `/uploads/...` path, downloaded once and kept in
   * bot_users.photo_url. Only our own upload paths are ever answered: a value of another form
   * (say, a platform URL) could carry the bot token.
   */
  private async photoOf(db: ProjectDb, token: TokenRow, row: BotUserRow): Promise<string | null> {
    const dir = this.ctx.config.uploadsDir;
    if (uploadExists(dir, row.photoUrl)) return row.photoUrl;
    const cacheKey = `${token.id}:${row.userId}`;
    const retryAt = this.retryAt.get(cacheKey);
    if (retryAt !== undefined && Date.now() < retryAt) return null;
    let photoUrl: string | null = null;
    let retryIn = PHOTO_RECHECK_MS;
    try {
      photoUrl = (await fetchAvatar(this.ctx, token.token, Number(row.userId), token.projectId, "user_photos", `u${token.id}`)).photoUrl;
    } catch (e) {
      if (!(e instanceof MessengerError)) throw e;
      retryIn = FAILURE_RETRY_MS;
      this.ctx.log.warn(`Avatar of a user of token ${token.id} not fetched: ${e.message}`);
    }
    if (photoUrl) {
      this.retryAt.delete(cacheKey);
    } else {
      if (this.retryAt.size >= NO_PHOTO_CACHE_MAX) this.retryAt.clear();
      this.retryAt.set(cacheKey, Date.now() + retryIn);
    }
    if (photoUrl !== row.photoUrl) botUserStatements(db).setPhoto.run({ photoUrl, id: row.id });
    return photoUrl;
  }
}
