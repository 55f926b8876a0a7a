// SQL of campaigns (docs/campaigns.md) in the token's project file: the campaigns, the audience
// (bot_users with bot_people), the snapshot of recipients and the sender's per-recipient steps.
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Statement } from "bun:sqlite";
import type { Db } from "../../db/client";
import type { ProjectDb } from "../../db/project-db";
import { projects } from "../../db/schema";
import {
  projectBotMessages as messages,
  projectBotPeople as people,
  projectCampaignAlbumMessages as album,
  projectCampaignTimeZones as zones,
  projectBotState as state,
  projectBotUsers as users,
  projectCampaignRecipients as recipients,
  projectCampaigns as campaigns,
  type CampaignStatus,
} from "../../db/project-schema";
import { writeOutgoing, type NewMessage } from "../dialogs/queries";
import { ACTIVE_DAYS_DEFAULT, type Audience, type Counts } from "./model";

export type CampaignRow = typeof campaigns.$inferSelect;
export type RecipientRow = typeof recipients.$inferSelect;
export type NewCampaign = Omit<typeof campaigns.$inferInsert, "id">;

/** JSON text of a SQL list parameter: one bound value whatever the list's length. */
const inJson = (column: SQL | typeof users.userId, list: string[]) => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(list)}))`;

/** The people an audience names: bot_users of the token with their bot_people row; the blocked never. */
function audienceWhere(tokenId: number, a: Audience, now: number): SQL {
  const lastSeen = sql`coalesce(${people.lastSeenAt}, ${users.lastSeenAt})`;
  const language = sql`coalesce(${people.languageCode}, ${users.languageCode})`;
  const parts: SQL[] = [eq(users.tokenId, tokenId), sql`coalesce(${people.blocked}, 0) = 0`];
  if (a.filter === "active" || a.filter === "inactive") {
    const cutoff = new Date(now - (a.activeWithinDays ?? ACTIVE_DAYS_DEFAULT) * 86_400_000).toISOString();
    parts.push(a.filter === "active" ? sql`${lastSeen} >= ${cutoff}` : sql`${lastSeen} < ${cutoff}`);
  }
  // "en" also takes "en-GB": a language matches itself or its primary subtag
  if (a.languages?.length) {
    const langs = a.languages.map((l) => l.toLowerCase());
    parts.push(sql`(${inJson(sql`lower(${language})`, langs)} OR ${inJson(sql`lower(substr(${language}, 1, instr(${language} || '-', '-') - 1))`, langs)})`);
  }
  if (a.tags?.length) parts.push(sql`EXISTS (SELECT 1 FROM json_each(${people.tags}) t WHERE ${inJson(sql`t.value`, a.tags)})`);
  if (a.sources?.length) parts.push(inJson(sql`${people.source}`, a.sources));
  if (a.registeredFrom) parts.push(sql`${users.firstSeenAt} >= ${a.registeredFrom}`);
  if (a.registeredTo) parts.push(sql`${users.firstSeenAt} <= ${a.registeredTo}`);
  if (a.userIds?.length) parts.push(inJson(users.userId, a.userIds));
  return and(...parts)!;
}

const personOfUser = and(eq(people.tokenId, users.tokenId), eq(people.userId, users.userId));

export function audienceSize(db: ProjectDb, tokenId: number, a: Audience, now: number): number {
  return db.select({ n: sql<number>`count(*)` }).from(users).leftJoin(people, personOfUser).where(audienceWhere(tokenId, a, now)).get()?.n ?? 0;
}

/** Tags among the given ones that no person of the token carries (an unknown tag is a mistake, not an empty segment). */
export function unknownTags(db: ProjectDb, tokenId: number, tags: string[]): string[] {
  const known = db
    .select({ tag: sql<string>`DISTINCT t.value` })
    .from(people)
    .innerJoin(sql`json_each(${people.tags}) t`, sql`1`)
    .where(and(eq(people.tokenId, tokenId), inJson(sql`t.value`, tags)))
    .all()
    .map((r) => r.tag);
  return tags.filter((t) => !known.includes(t));
}

export function insertCampaign(db: ProjectDb, c: NewCampaign): CampaignRow {
  return db.insert(campaigns).values(c).returning().get();
}

/** The zone a campaign's schedule is typed and shown in: UTC unless one was set. */
export function timeZoneOf(db: ProjectDb, campaignId: number): string {
  // read with every view of a campaign (the Studio polls it): a statement the connection keeps
  return db.$client.query<{ z: string }, [number]>("SELECT time_zone AS z FROM campaign_time_zones WHERE campaign_id = ?").get(campaignId)?.z ?? "UTC";
}

export function setTimeZone(db: ProjectDb, campaignId: number, timeZone: string) {
  db.insert(zones).values({ campaignId, timeZone }).onConflictDoUpdate({ target: zones.campaignId, set: { timeZone } }).run();
}

export function campaignOf(db: ProjectDb, tokenId: number, id: number): CampaignRow | undefined {
  return db.select().from(campaigns).where(and(eq(campaigns.tokenId, tokenId), eq(campaigns.id, id))).get();
}

export function campaignById(db: ProjectDb, id: number): CampaignRow | undefined {
  return db.select().from(campaigns).where(eq(campaigns.id, id)).get();
}

export function campaignPage(db: ProjectDb, tokenId: number, limit: number, offset: number): { rows: CampaignRow[]; total: number } {
  const total = db.select({ n: sql<number>`count(*)` }).from(campaigns).where(eq(campaigns.tokenId, tokenId)).get()?.n ?? 0;
  const rows = db.select().from(campaigns).where(eq(campaigns.tokenId, tokenId)).orderBy(desc(campaigns.id)).limit(limit).offset(offset).all();
  return { rows, total };
}

/** Changes a campaign only while it is in one of `from`: the one writer that wins a race (two starts at once). */
export function updateCampaignIf(db: ProjectDb, id: number, from: CampaignStatus[], set: Partial<CampaignRow>): CampaignRow | undefined {
  return db.update(campaigns).set(set).where(and(eq(campaigns.id, id), inArray(campaigns.status, from))).returning().get();
}

export function deleteCampaign(db: ProjectDb, id: number) {
  db.transaction((tx) => {
    tx.delete(zones).where(eq(zones.campaignId, id)).run();
    tx.delete(album).where(inArray(album.recipientId, tx.select({ id: recipients.id }).from(recipients).where(eq(recipients.campaignId, id)))).run();
    tx.delete(recipients).where(eq(recipients.campaignId, id)).run();
    tx.delete(campaigns).where(eq(campaigns.id, id)).run();
  });
}

/**
 * Start: the status moves from draft/scheduled to sending and the audience is written as recipients
 * (one INSERT … SELECT) in one transaction, so a second start finds the status taken and a crash
 * leaves either no recipients or all of them. Undefined when the status was not startable.
 */
export function startCampaign(db: ProjectDb, c: CampaignRow, a: Audience, now: number): CampaignRow | undefined {
  return db.transaction((tx) => {
    const started = tx
      .update(campaigns)
      .set({ status: "sending", startedAt: new Date(now).toISOString(), scheduledAt: null })
      .where(and(eq(campaigns.id, c.id), inArray(campaigns.status, ["draft", "scheduled"])))
      .returning()
      .get();
    if (!started) return undefined;
    const chosen = tx.select({ campaignId: sql`${c.id}`.as("campaign_id"), userId: users.userId }).from(users).leftJoin(people, personOfUser).where(audienceWhere(c.tokenId, a, now)).orderBy(users.id);
    tx.run(sql`INSERT INTO ${recipients} (campaign_id, user_id) SELECT campaign_id, user_id FROM ${chosen}`);
    const n = tx.select({ n: sql<number>`count(*)` }).from(recipients).where(eq(recipients.campaignId, c.id)).get()?.n ?? 0;
    return tx.update(campaigns).set({ audienceSize: n }).where(eq(campaigns.id, c.id)).returning().get();
  });
}

/**
 * The counts off the (campaign, status, id) index alone; only the failed rows are read for their
 * reason (reading every row's error made a 100,000-recipient campaign's GET ~20 ms: bench/campaigns.ts).
 */
export function countsOf(db: ProjectDb, campaignId: number): Counts {
  const rows = db.select({ status: recipients.status, n: sql<number>`count(*)` }).from(recipients).where(eq(recipients.campaignId, campaignId)).groupBy(recipients.status).all();
  const counts: Counts = { pending: 0, sent: 0, failed: 0, blocked: 0, deactivated: 0, unknown: 0 };
  for (const r of rows) {
    if (r.status === "sent") counts.sent = r.n;
    else if (r.status === "failed") counts.failed = r.n;
    else counts.pending += r.n;
  }
  // the failures by reason, for the report (the sender writes these three as they are; any other
  // error is the messenger's own words)
  if (counts.failed > 0) {
    const as = (error: string) => sql<number>`count(*) filter (where ${recipients.error} = ${error})`;
    const by = db
      .select({ blocked: as("blocked"), deactivated: as("deactivated"), unknown: as("unknown") })
      .from(recipients)
      .where(and(eq(recipients.campaignId, campaignId), eq(recipients.status, "failed")))
      .get();
    counts.blocked = by?.blocked ?? 0;
    counts.deactivated = by?.deactivated ?? 0;
    counts.unknown = by?.unknown ?? 0;
  }
  return counts;
}

/** A recipients filter: `pending` takes a send in flight too. */
const statusIs = (status: "pending" | "sent" | "failed" | undefined) =>
  status === undefined ? undefined : status === "pending" ? inArray(recipients.status, ["pending", "sending"]) : eq(recipients.status, status);

/** A recipient with the user's names as the bot last saw them (null: no longer recorded). */
export type NamedRecipient = RecipientRow & { firstName: string | null; lastName: string | null; username: string | null };

export function recipientPage(db: ProjectDb, tokenId: number, campaignId: number, status: "pending" | "sent" | "failed" | undefined, limit: number, offset: number): { rows: NamedRecipient[]; total: number } {
  const where = and(eq(recipients.campaignId, campaignId), statusIs(status));
  const total = db.select({ n: sql<number>`count(*)` }).from(recipients).where(where).get()?.n ?? 0;
  const page = db.select().from(recipients).where(where).orderBy(recipients.id).limit(limit).offset(offset).all();
  // the page's users only (a join would be made for every row the offset skips too), by a
  // statement the connection keeps: the Studio polls this page while a campaign sends
  const named = new Map(
    page.length === 0
      ? []
      : db.$client
          .query<{ userId: string; firstName: string | null; lastName: string | null; username: string | null }, [number, string]>(
            "SELECT user_id AS userId, first_name AS firstName, last_name AS lastName, username FROM bot_users WHERE token_id = ? AND user_id IN (SELECT value FROM json_each(?))",
          )
          .all(tokenId, JSON.stringify(page.map((r) => r.userId)))
          .map((u) => [u.userId, u] as const),
  );
  const rows = page.map((r) => {
    const u = named.get(r.userId);
    return { ...r, firstName: u?.firstName ?? null, lastName: u?.lastName ?? null, username: u?.username ?? null };
  });
  return { rows, total };
}

// --- the sender's steps -------------------------------------------------------------------------

export interface Addressee {
  id: number;
  userId: string;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  /** the user's saved variables (bot_users.variables) */
  variables: string | null;
  /** the chat's variables (bot_state.variables) */
  chatVariables: string | null;
}

/** The next pending recipients in order, with what their message is rendered from. */
export function nextPending(db: ProjectDb, tokenId: number, campaignId: number, limit: number): Addressee[] {
  return db
    .select({
      id: recipients.id,
      userId: recipients.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      variables: users.variables,
      chatVariables: state.variables,
    })
    .from(recipients)
    .leftJoin(users, and(eq(users.tokenId, tokenId), eq(users.userId, recipients.userId)))
    .leftJoin(state, and(eq(state.tokenId, tokenId), eq(state.chatId, recipients.userId)))
    .where(and(eq(recipients.campaignId, campaignId), eq(recipients.status, "pending")))
    .orderBy(recipients.id)
    .limit(limit)
    .all();
}

/** What a test send renders from: the same fields for any user ids (unknown users have none). */
export function addresseesOf(db: ProjectDb, tokenId: number, userIds: string[]): Map<string, Omit<Addressee, "id" | "userId">> {
  const rows = db
    .select({ userId: users.userId, firstName: users.firstName, lastName: users.lastName, username: users.username, variables: users.variables, chatVariables: state.variables })
    .from(users)
    .leftJoin(state, and(eq(state.tokenId, tokenId), eq(state.chatId, users.userId)))
    .where(and(eq(users.tokenId, tokenId), inJson(users.userId, userIds)))
    .all();
  return new Map(rows.map((r) => [r.userId, r]));
}

// The sender's statements, prepared once per file: built by drizzle for each of 100,000 recipients
// they cost more than the send itself (bench/campaigns.ts).
const hot = new WeakMap<ProjectDb, { claim: Statement; sent: Statement; failed: Statement; back: Statement; album: Statement; file: Statement; counted: Statement; countedOf: Statement }>();
function hotOf(db: ProjectDb) {
  let s = hot.get(db);
  if (!s) {
    s = {
      claim: db.$client.prepare("UPDATE campaign_recipients SET status = 'sending' WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending' RETURNING id"),
      sent: db.$client.prepare("UPDATE campaign_recipients SET status = 'sent', messenger_message_id = ?, sent_at = ?, error = NULL WHERE id = ?"),
      failed: db.$client.prepare("UPDATE campaign_recipients SET status = 'failed', error = ? WHERE id = ?"),
      back: db.$client.prepare("UPDATE campaign_recipients SET status = 'pending' WHERE id = ?"),
      album: db.$client.prepare("INSERT OR IGNORE INTO campaign_album_messages (recipient_id, messenger_message_id) VALUES (?, ?)"),
      // a media message's file beside its format (writeOutgoing may have written the format row)
      file: db.$client.prepare(
        "INSERT INTO bot_message_details (id, token_id, file_id, media_id) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET file_id = excluded.file_id, media_id = excluded.media_id",
      ),
      // a send of a token that keeps no messages has no chat record (writeOutgoing counts those):
      // its messages (an album's each) still are messages out of their hour (docs/analytics.md)
      counted: db.$client.prepare(
        "INSERT INTO analytics_hours (token_id, hour, messages_out) SELECT c.token_id, ?, ? FROM campaign_recipients r JOIN campaigns c ON c.id = r.campaign_id " +
          "WHERE r.id = ? ON CONFLICT (token_id, hour) DO UPDATE SET messages_out = analytics_hours.messages_out + excluded.messages_out",
      ),
      countedOf: db.$client.prepare(
        "INSERT INTO analytics_hours (token_id, hour, messages_out) VALUES (?, ?, ?) ON CONFLICT (token_id, hour) DO UPDATE SET messages_out = analytics_hours.messages_out + excluded.messages_out",
      ),
    };
    hot.set(db, s);
  }
  return s;
}

/**
 * Marks the pending ones among these recipients `sending` in one commit, before the messenger is
 * called for any of them; answers the ids it marked (one no longer pending is left out).
 */
export function claimRecipients(db: ProjectDb, ids: number[]): Set<number> {
  if (ids.length === 0) return new Set();
  return new Set((hotOf(db).claim.all(JSON.stringify(ids)) as { id: number }[]).map((r) => r.id));
}

/** A sent message as its chat's record holds it (send-one.ts recordsOf). */
export type ChatRecord = { tokenId: number; chatId: string; message: NewMessage; format: string | null; fileId?: string | null; mediaId?: number | null };

/** How one claimed send ended: taken (with the chat's record when kept), refused, or not taken (429: pending again). */
export type Settled =
  | { id: number; sent: { messageId: number; at: string; albumIds?: number[]; records: ChatRecord[] } }
  | { id: number; failed: string }
  | { id: number; back: true };

/**
 * The outcomes of a window of sends, with their chat records, in one commit. Answers the chats it
 * recorded in, each with its newest record: what the Studio's live Dialogs hears (chat-message).
 */
export function settleRecipients(db: ProjectDb, outcomes: Settled[]): [string, number][] {
  if (outcomes.length === 0) return [];
  const s = hotOf(db);
  const chats = new Map<string, number>();
  db.transaction(() => {
    for (const o of outcomes) {
      if ("sent" in o) {
        s.sent.run(o.sent.messageId, o.sent.at, o.id);
        const albumIds = o.sent.albumIds ?? [];
        for (const m of albumIds) s.album.run(o.id, m);
        for (const r of o.sent.records) chats.set(r.chatId, writeRecord(db, s, r));
        if (o.sent.records.length === 0) s.counted.run(o.sent.at.slice(0, 13), 1 + albumIds.length, o.id);
      } else if ("failed" in o) s.failed.run(o.failed, o.id);
      else s.back.run(o.id);
    }
  });
  return [...chats];
}

function writeRecord(db: ProjectDb, s: ReturnType<typeof hotOf>, r: ChatRecord): number {
  const row = writeOutgoing(db, r.tokenId, r.chatId, r.message, r.format);
  if (r.fileId || r.mediaId) s.file.run(row.id, r.tokenId, r.fileId ?? null, r.mediaId ?? null);
  return row.id;
}

/**
 * A test send's messages to one chat, in one commit: recorded like a recipient's (a test is no
 * recipient, so no campaign row changes), or, for a token that keeps no messages, counted as
 * messages out of their hour. Answers the newest record (none kept: undefined).
 */
export function recordTestSend(db: ProjectDb, tokenId: number, at: string, messages: number, records: ChatRecord[]): number | undefined {
  const s = hotOf(db);
  return db.transaction(() => {
    if (records.length === 0) {
      s.countedOf.run(tokenId, at.slice(0, 13), messages);
      return undefined;
    }
    let newest: number | undefined;
    for (const r of records) newest = writeRecord(db, s, r);
    return newest;
  });
}

/**
 * After a crash: a recipient left `sending` may or may not have received the message; it is never
 * retried (at most once) and reads failed "unknown" (docs/campaigns.md#exactly-once).
 */
export function failInFlight(db: ProjectDb): number {
  return db.update(recipients).set({ status: "failed", error: "unknown" }).where(eq(recipients.status, "sending")).returning({ id: recipients.id }).all().length;
}

export function campaignsIn(db: ProjectDb, statuses: CampaignStatus[]): CampaignRow[] {
  return db.select().from(campaigns).where(inArray(campaigns.status, statuses)).all();
}

/**
 * Sent messages not yet deleted, a batch at a time (delete-sent); one the messenger would not delete
 * is here again for the next delete-sent. `albumIds`: an album's messages after the first (JSON
 * text of an array), or null.
 */
export function sentNotDeleted(db: ProjectDb, campaignId: number, afterId: number, limit: number): { id: number; userId: string; messageId: number | null; albumIds: string | null }[] {
  return db
    .select({
      id: recipients.id,
      userId: recipients.userId,
      messageId: recipients.messengerMessageId,
      albumIds: sql<string | null>`(SELECT json_group_array(${album.messengerMessageId}) FROM ${album} WHERE ${album.recipientId} = ${recipients.id} HAVING count(*) > 0)`,
    })
    .from(recipients)
    .where(and(eq(recipients.campaignId, campaignId), eq(recipients.status, "sent"), sql`${recipients.deletedAt} IS NULL`, sql`${recipients.id} > ${afterId}`))
    .orderBy(recipients.id)
    .limit(limit)
    .all();
}

/**
 * A recipient's messages the messenger deleted (or had no more): the recipient's deletedAt, the
 * report's mark (docs/campaigns.md), and the chat's records of them show as deleted, as an
 * operator's deletion does (docs/dialogs.md). A message too old to delete is not passed here: it
 * stays in the chat, in its record, and unmarked in the report.
 */
export function recipientDeleted(db: ProjectDb, r: { id: number; tokenId: number; chatId: string; messageIds: number[] }, at: string): number[] {
  return db.transaction((tx) => {
    tx.update(recipients).set({ deletedAt: at }).where(eq(recipients.id, r.id)).run();
    return tx
      .update(messages)
      .set({ deletedAt: at })
      .where(and(eq(messages.tokenId, r.tokenId), eq(messages.chatId, r.chatId), inArray(messages.messengerMessageId, r.messageIds), eq(messages.sentBy, "campaign"), sql`${messages.deletedAt} IS NULL`))
      .returning({ id: messages.id })
      .all()
      .map((m) => m.id);
  });
}

/** Every project (platform database): whose files the sender's start-up looks into. */
export function projectIds(db: Db): number[] {
  return db.select({ id: projects.id }).from(projects).all().map((r) => r.id);
}

/** Recipients after `afterId` in order with the user's names, for the CSV report (read a page at a time). */
export function recipientRowsForCsv(db: ProjectDb, tokenId: number, campaignId: number, status: "pending" | "sent" | "failed" | undefined, afterId: number, limit: number) {
  return db
    .select({ id: recipients.id, userId: recipients.userId, firstName: users.firstName, username: users.username, status: recipients.status, error: recipients.error, sentAt: recipients.sentAt, deletedAt: recipients.deletedAt })
    .from(recipients)
    .leftJoin(users, and(eq(users.tokenId, tokenId), eq(users.userId, recipients.userId)))
    .where(and(eq(recipients.campaignId, campaignId), statusIs(status), sql`${recipients.id} > ${afterId}`))
    .orderBy(recipients.id)
    .limit(limit)
    .all();
}
