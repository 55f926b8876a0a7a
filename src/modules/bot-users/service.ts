// Users of a bot, as recorded by the bot process in bot_users. Newest first (first_seen_at, then
// row id, both descending) so that a bot-manager client shows recent sign-ups on its first page.
import { and, desc, eq, gte, or, sql, type AnyColumn } from "drizzle-orm";
import type { AppContext } from "../../context";
import { botUsers } from "../../db/schema";
import { notFound } from "../../http/errors";
import { MessengerError } from "../../messenger/client";
import type { TokenAccess, TokenRow } from "../tokens/access";
import { fetchAvatar, PHOTO_RECHECK_MS, uploadExists } from "../tokens/photos";
import { formatDateTime, pageInfo, parseVariables, type BotUserDetail, type BotUserPage, type DailyNewUsers } from "./model";

type BotUserRow = typeof botUsers.$inferSelect;

/** Bounds the in-memory "checked, no avatar" cache. */
const NO_PHOTO_CACHE_MAX = 10_000;
/** After a platform failure, the next attempt for that user waits this long (keeps the card fast). */
const FAILURE_RETRY_MS = 5 * 60 * 1000;

export class BotUsersService {
  private readonly tokens: TokenAccess;
  private readonly q;
  /** `${tokenId}:${userId}` → when to ask the platform again after "no avatar" or a failure (no column for it). */
  private readonly retryAt = new Map<string, number>();

  constructor(private readonly ctx: AppContext) {
    this.tokens = ctx.tokens.access;
    const db = ctx.db;
    const byToken = eq(botUsers.tokenId, sql.placeholder("tokenId"));
    // Substring of a name or @username (LIKE with the wildcards of the search escaped), or the exact id.
    const like = (c: AnyColumn) => sql`${c} like ${sql.placeholder("pattern")} escape '\\'`;
    const matches = or(like(botUsers.firstName), like(botUsers.lastName), like(botUsers.username), eq(botUsers.userId, sql.placeholder("exact")));
    this.q = {
      count: db.select({ n: sql<number>`count(*)` }).from(botUsers).where(byToken).prepare(),
      page: db
        .select({ userId: botUsers.userId, firstName: botUsers.firstName, username: botUsers.username })
        .from(botUsers)
        .where(byToken)
        .orderBy(desc(botUsers.firstSeenAt), desc(botUsers.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
      countSearch: db.select({ n: sql<number>`count(*)` }).from(botUsers).where(and(byToken, matches)).prepare(),
      pageSearch: db
        .select({ userId: botUsers.userId, firstName: botUsers.firstName, username: botUsers.username })
        .from(botUsers)
        .where(and(byToken, matches))
        .orderBy(desc(botUsers.firstSeenAt), desc(botUsers.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
      daily: db
        .select({ day: sql<string>`substr(${botUsers.firstSeenAt}, 1, 10)`, n: sql<number>`count(*)` })
        .from(botUsers)
        .where(and(byToken, gte(botUsers.firstSeenAt, sql.placeholder("since"))))
        .groupBy(sql`1`)
        .prepare(),
      one: db
        .select()
        .from(botUsers)
        .where(and(byToken, eq(botUsers.userId, sql.placeholder("userId"))))
        .prepare(),
    };
  }

  list(tokenId: number, actorId: number, limit: number, offset: number, search = ""): BotUserPage {
    this.tokens.require(tokenId, actorId);
    const term = search.trim().replace(/^@/, "");
    const filter = { pattern: `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, exact: term };
    const count = (term ? this.q.countSearch.get({ tokenId, ...filter }) : this.q.count.get({ tokenId }))?.n ?? 0;
    const rows = term ? this.q.pageSearch.all({ tokenId, limit, offset, ...filter }) : this.q.page.all({ tokenId, limit, offset });
    const items = rows.map((r) => ({ userId: r.userId, firstName: r.firstName ?? "", userName: r.username ?? "" }));
    return { items, ...pageInfo(count, offset, limit, items.length) };
  }

  async detail(tokenId: number, actorId: number, botUserId: string): Promise<BotUserDetail> {
    const { token } = this.tokens.require(tokenId, actorId);
    const row = this.q.one.get({ tokenId, userId: botUserId });
    if (!row) throw notFound("Bot user not found");
    return {
      userId: row.userId,
      firstName: row.firstName ?? "",
      lastName: row.lastName ?? "",
      userName: row.username ?? "",
      registeredAt: formatDateTime(row.firstSeenAt),
      lastInteraction: formatDateTime(row.lastSeenAt),
      interactionCount: row.interactionCount,
      variables: parseVariables(row.variables),
      // API.md types the detail's photoUrl as a string path: "" without an avatar (the older
      // platform's clients test `= ""`), unlike the bot photo endpoint's documented null.
      photoUrl: (await this.photoOf(token, row)) ?? "",
    };
  }

  /** New users per UTC day over the last `days` days, oldest first, days without users included. */
  daily(tokenId: number, actorId: number, days: number, now = Date.now()): DailyNewUsers {
    this.tokens.require(tokenId, actorId);
    const first = new Date(now);
    first.setUTCHours(0, 0, 0, 0);
    first.setUTCDate(first.getUTCDate() - (days - 1));
    const counts = new Map(this.q.daily.all({ tokenId, since: first.toISOString() }).map((r) => [r.day, r.n]));
    const items = Array.from({ length: days }, (_, i) => {
      const date = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      return { date, newUsers: counts.get(date) ?? 0 };
    });
    return { items, count: items.length };
  }

  /**
   * The user's avatar as a local `/uploads/...` path, downloaded once and kept in
   * bot_users.photo_url. Only our own upload paths are ever answered: a value of another form
   * (say, a platform URL) could carry the bot token.
   */
  private async photoOf(token: TokenRow, row: BotUserRow): Promise<string | null> {
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
    if (photoUrl !== row.photoUrl) this.ctx.db.update(botUsers).set({ photoUrl }).where(eq(botUsers.id, row.id)).run();
    return photoUrl;
  }
}
