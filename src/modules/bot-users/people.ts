// The people of a bot (docs/dialogs.md "The people of a bot"): the users list's filters
// and sort, the detail's added fields, tags, removal and the CSV export.
import type { AppContext } from "../../context";
import type { ProjectDb } from "../../db/project-db";
import { notFound } from "../../errors";
import { CSV_BOM, csvCell } from "../../lib/csv-cell";
import { pageInfo, parseVariables, type BotUserListItem, type BotUserPage, type PaymentsPage, type PersonFields } from "./model";
import { FACETS_TOP, type Facets, type PeopleFilter } from "./model";
import { deletePerson, facetsOf, knownUser, userFactsOf, paymentsOf, peoplePage, peopleRows, personOf, setTags, takeoverOf, type ListRow } from "./queries";

export function tagsOf(raw: string | null | undefined): string[] {
  try {
    const v = JSON.parse(raw ?? "[]");
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/** One item of the users list: who, and whether blocked, held by an operator, tagged. */
export function listItemOf(r: ListRow): BotUserListItem {
  return { userId: r.userId, firstName: r.firstName ?? "", lastName: r.lastName ?? "", userName: r.username ?? "", blocked: r.blocked === 1, takeover: r.takeover === 1, tags: tagsOf(r.tags) };
}

export class PeopleService {
  constructor(private readonly ctx: AppContext) {}

  /** The token's project file; another user's token is 404 but on the older users list, which keeps its 403 (docs/api.md "Access to a token's audience"). */
  private fileOf(tokenId: number, actorId: number, hideForbidden = true): ProjectDb | null {
    const { token } = this.ctx.tokens.access.require(tokenId, actorId, { hideForbidden });
    return this.ctx.projectFiles.existing(token.projectId);
  }

  list(tokenId: number, actorId: number, f: PeopleFilter, limit: number, offset: number): BotUserPage {
    const db = this.fileOf(tokenId, actorId, false);
    if (!db) return { items: [], ...pageInfo(0, offset, limit, 0) };
    const { rows, count } = peoplePage(db, tokenId, f, limit, offset);
    const items = rows.map(listItemOf);
    return { items, ...pageInfo(count, offset, limit, items.length) };
  }

  /** The tags, languages and sources among the users who did not block the bot, most users first. */
  facets(tokenId: number, actorId: number): Facets {
    const db = this.fileOf(tokenId, actorId);
    if (!db) return { users: 0, tags: [], languages: [], sources: [] };
    return facetsOf(db, tokenId, FACETS_TOP);
  }

  /** The detail's added fields (the caller checked access and that the user exists). */
  fields(tokenId: number, actorId: number, userId: string): PersonFields {
    const db = this.fileOf(tokenId, actorId);
    const p = db ? personOf(db, tokenId, userId) : undefined;
    const u = db ? userFactsOf(db, tokenId, userId) : undefined;
    return {
      languageCode: u?.languageCode ?? p?.languageCode ?? null,
      isPremium: p?.isPremium === 1,
      blocked: p?.blocked === 1,
      blockedAt: p?.blockedAt ?? null,
      source: p?.source ?? null,
      referrerId: p?.referrerId ?? null,
      tags: tagsOf(p?.tags),
      // bot_users keeps them too (with the user database on); the message store's when it is off
      firstSeenAt: u?.firstSeenAt ?? p?.firstSeenAt ?? null,
      lastSeenAt: u?.lastSeenAt ?? p?.lastSeenAt ?? null,
      messagesIn: p?.messagesIn ?? 0,
      messagesOut: p?.messagesOut ?? 0,
      takeover: db ? takeoverOf(db, tokenId, userId) : false,
    };
  }

  tags(tokenId: number, actorId: number, userId: string, tags: string[]): { userId: string; tags: string[] } {
    const db = this.fileOf(tokenId, actorId);
    if (!db || !knownUser(db, tokenId, userId)) throw notFound("Bot user not found");
    const unique = [...new Set(tags.map((t) => t.trim()))];
    setTags(db, tokenId, userId, unique);
    return { userId, tags: unique };
  }

  /** The user's Stars payments, newest first (the bot records them: runtime/record.ts). */
  async payments(tokenId: number, actorId: number, userId: string, limit: number): Promise<PaymentsPage> {
    const db = this.fileOf(tokenId, actorId);
    if (!db || !(await knownUser(db, tokenId, userId))) throw notFound("Bot user not found");
    const { rows, total } = await paymentsOf(db, tokenId, userId, limit);
    const items = rows.map((r) => ({ chargeId: r.chargeId, providerChargeId: r.providerChargeId, amount: r.amount, currency: r.currency, payload: r.payload, status: r.status, paidAt: r.paidAt, refundedAt: r.refundedAt }));
    return { items, total };
  }

  remove(tokenId: number, actorId: number, userId: string): { success: true } {
    const db = this.fileOf(tokenId, actorId);
    if (!db || !knownUser(db, tokenId, userId)) throw notFound("Bot user not found");
    deletePerson(db, tokenId, userId);
    // a running bot holds the private chat's state in memory and would write it back at the user's next message
    this.ctx.bots.tell(tokenId, { op: "forget", chatId: userId });
    return { success: true };
  }

  /** One row per user, the fixed columns then one per variable any of them has; a BOM first (for Excel). */
  csv(tokenId: number, actorId: number, f: PeopleFilter): string {
    const db = this.fileOf(tokenId, actorId);
    const rows = db ? [...peopleRows(db, tokenId, f)] : [];
    const vars = rows.map((r) => parseVariables(r.variables));
    const keys = [...new Set(vars.flatMap((v) => Object.keys(v)))].sort();
    const fixedHead = ["id", "first_name", "last_name", "username", "language", "premium", "blocked", "source", "referrer_id", "tags", "first_seen_at", "last_seen_at", "messages_in", "messages_out"];
    // every header once: a variable named like a header before it (the runtime's own referrer_id) is
    // headed variable:<name>, again while that is taken too (a variable named variable:tags beside tags)
    const taken = new Set(fixedHead);
    const head = [...fixedHead];
    for (const k of keys) {
      let h = k;
      while (taken.has(h)) h = `variable:${h}`;
      taken.add(h);
      head.push(h);
    }
    const lines = [head.map(csvCell).join(",")];
    rows.forEach((r, i) => {
      const p = r.person;
      const fixed = [r.userId, r.firstName, r.lastName, r.username, r.languageCode ?? p?.languageCode, p?.isPremium ? 1 : 0, p?.blocked ? 1 : 0, p?.source, p?.referrerId, tagsOf(p?.tags).join(";"), r.firstSeenAt, r.lastSeenAt, p?.messagesIn ?? 0, p?.messagesOut ?? 0];
      lines.push([...fixed, ...keys.map((k) => vars[i]![k])].map(csvCell).join(","));
    });
    return CSV_BOM + lines.join("\r\n") + "\r\n";
  }
}
