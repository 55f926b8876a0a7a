// Reads and writes of bot_users in a project's own database file (src/db/project-schema.ts).
// Newest first (first_seen_at, then row id, both descending) so that a bot-manager client shows
// recent sign-ups on its first page.
import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { containsText, searchTermOf } from "../../db/like";
import type { ProjectDb } from "../../db/project-db";
import {
  projectBotChats as chats,
  projectBotMessages as messages,
  projectBotMessageDetails as details,
  projectBotPayments as payments,
  projectBotPeople as people,
  projectBotState as states,
  projectBotUsers as botUsers,
  projectBotWaits as waits,
} from "../../db/project-schema";
import { ACTIVE_DAYS, type PeopleFilter } from "./model";
import { statements } from "../../db/prepared";

export type BotUserRow = typeof botUsers.$inferSelect;

const byToken = eq(botUsers.tokenId, sql.placeholder("tokenId"));
const samePerson = and(eq(people.tokenId, botUsers.tokenId), eq(people.userId, botUsers.userId));
/** A user's private chat has the user's id: its takeover flag is the user's. */
const privateChat = and(eq(chats.tokenId, botUsers.tokenId), eq(chats.chatId, botUsers.userId));
/** A list item: the user and what the message store knows (blocked, takeover, tags; docs/dialogs.md). */
const listColumns = {
  userId: botUsers.userId,
  firstName: botUsers.firstName,
  lastName: botUsers.lastName,
  username: botUsers.username,
  blocked: sql<number>`coalesce(${people.blocked}, 0)`,
  takeover: sql<number>`coalesce(${chats.takeover}, 0)`,
  tags: people.tags,
};
export type ListRow = { userId: string; firstName: string | null; lastName: string | null; username: string | null; blocked: number; takeover: number; tags: string | null };
const newestFirst = [desc(botUsers.firstSeenAt), desc(botUsers.id)];

/** The list's rows: each user with their person row and private chat (primary-key lookups). */
function listOf(db: ProjectDb) {
  return db.select(listColumns).from(botUsers).leftJoin(people, samePerson).leftJoin(chats, privateChat);
}

export const botUserStatements = statements((db: ProjectDb) => ({
  count: () => db.select({ n: sql<number>`count(*)` }).from(botUsers).where(byToken).prepare(),
  page: () => listOf(db).where(byToken).orderBy(...newestFirst).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(),
  one: () => db.select().from(botUsers).where(and(byToken, eq(botUsers.userId, sql.placeholder("userId")))).prepare(),
  setPhoto: () => db.update(botUsers).set({ photoUrl: sql`${sql.placeholder("photoUrl")}` }).where(eq(botUsers.id, sql.placeholder("id"))).prepare(),
}));

/**
 * "first last first" of a user: the full name read either way, "Мария Иванова" and, as names are
 * often written in Russian, "Иванова Мария", in one text (one scan where two took a quarter longer
 * on 10,000 users, bench/dialogs.ts). The last name alone without a first; NULL, matching nothing,
 * without a last name.
 */
const fullNames = sql`coalesce(${botUsers.firstName} || ' ', '') || ${botUsers.lastName} || coalesce(' ' || ${botUsers.firstName}, '')`;

/**
 * The user's last name contains `term`, or (a term with a space) their full name in either order
 * does: the Users and the Dialogs search alike.
 */
export function lastOrFullName(term: string) {
  return or(containsText(botUsers.lastName, term), term.includes(" ") ? containsText(fullNames, term) : undefined);
}

/**
 * The search of the Users tab and of the people list: a substring of the first or last name, of
 * "first last" or "last first" typed together, or of the @username (case folded in every alphabet, wildcards
 * literal), or the exact id. The Dialogs search matches names through lastOrFullName too.
 */
function nameOrId(term: string) {
  return or(containsText(botUsers.firstName, term), lastOrFullName(term), containsText(botUsers.username, term), eq(botUsers.userId, term));
}

function matching(tokenId: number, term: string) {
  return and(eq(botUsers.tokenId, tokenId), nameOrId(term));
}

/** The Studio's search: rarer than paging, so not prepared. */
export function searchBotUsers(db: ProjectDb, tokenId: number, term: string, limit: number, offset: number) {
  const where = matching(tokenId, term);
  const count = db.select({ n: sql<number>`count(*)` }).from(botUsers).where(where).get()?.n ?? 0;
  const rows = listOf(db).where(where).orderBy(...newestFirst).limit(limit).offset(offset).all();
  return { count, rows };
}

/** New users of a token per UTC day (YYYY-MM-DD) since `since`. */
export function newUsersPerDay(db: ProjectDb, tokenId: number, since: string): { day: string; n: number }[] {
  return db
    .select({ day: sql<string>`substr(${botUsers.firstSeenAt}, 1, 10)`, n: sql<number>`count(*)` })
    .from(botUsers)
    .where(and(eq(botUsers.tokenId, tokenId), gte(botUsers.firstSeenAt, since)))
    .groupBy(sql`1`)
    .all();
}

// ─── The people of a bot (docs/dialogs.md): bot_users with what the message store knows (bot_people, bot_chats) ───

const isBlocked = sql`coalesce(${people.blocked}, 0) = 1`;
const notBlocked = sql`coalesce(${people.blocked}, 0) = 0`;

function where(tokenId: number, f: PeopleFilter, now: number): SQL {
  const since = new Date(now - ACTIVE_DAYS * 86_400_000).toISOString();
  const parts: (SQL | undefined)[] = [eq(botUsers.tokenId, tokenId)];
  if (f.filter === "blocked") parts.push(isBlocked);
  if (f.filter === "active") parts.push(and(notBlocked, gte(botUsers.lastSeenAt, since)));
  if (f.filter === "inactive") parts.push(and(notBlocked, lt(botUsers.lastSeenAt, since)));
  if (f.language) parts.push(sql`lower(coalesce(${botUsers.languageCode}, ${people.languageCode}, '')) = ${f.language.toLowerCase()}`);
  if (f.source) parts.push(eq(people.source, f.source));
  if (f.tag) parts.push(sql`EXISTS (SELECT 1 FROM json_each(${people.tags}) WHERE value = ${f.tag})`);
  const term = searchTermOf(f.search);
  if (term) parts.push(nameOrId(term));
  return and(...parts)!;
}

function order(sort: PeopleFilter["sort"]) {
  switch (sort) {
    case "lastSeen":
      return [desc(botUsers.lastSeenAt), desc(botUsers.id)];
    case "messages":
      return [desc(sql`coalesce(${people.messagesIn}, 0) + coalesce(${people.messagesOut}, 0)`), desc(botUsers.id)];
    case "name":
      return [asc(sql`lower(coalesce(${botUsers.firstName}, ''))`), asc(botUsers.id)];
    default:
      // the list's own order (docs/api.md): newest sign-ups first
      return [desc(botUsers.firstSeenAt), desc(botUsers.id)];
  }
}

export type PersonRow = typeof botUsers.$inferSelect & { person: typeof people.$inferSelect | null };

export function peoplePage(db: ProjectDb, tokenId: number, f: PeopleFilter, limit: number, offset: number, now = Date.now()) {
  const w = where(tokenId, f, now);
  const count = db.select({ n: sql<number>`count(*)` }).from(botUsers).leftJoin(people, samePerson).where(w).get()?.n ?? 0;
  const rows = listOf(db)
    .where(w)
    .orderBy(...order(f.sort))
    .limit(limit)
    .offset(offset)
    .all();
  return { rows, count };
}

/** Every matching user with their person row, for the CSV export (in pages, so a big bot does not hold one huge statement). */
export function* peopleRows(db: ProjectDb, tokenId: number, f: PeopleFilter, now = Date.now()): Generator<PersonRow> {
  const w = where(tokenId, f, now);
  for (let offset = 0; ; offset += 1000) {
    const page = db.select().from(botUsers).leftJoin(people, samePerson).where(w).orderBy(...order(f.sort)).limit(1000).offset(offset).all();
    for (const r of page) yield { ...r.bot_users, person: r.bot_people };
    if (page.length < 1000) return;
  }
}

export function personOf(db: ProjectDb, tokenId: number, userId: string) {
  return db.select().from(people).where(and(eq(people.tokenId, tokenId), eq(people.userId, userId))).get();
}

export function userFactsOf(db: ProjectDb, tokenId: number, userId: string) {
  return db
    .select({ languageCode: botUsers.languageCode, firstSeenAt: botUsers.firstSeenAt, lastSeenAt: botUsers.lastSeenAt })
    .from(botUsers)
    .where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, userId)))
    .get();
}

export function takeoverOf(db: ProjectDb, tokenId: number, userId: string): boolean {
  return db.select({ t: chats.takeover }).from(chats).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, userId))).get()?.t === 1;
}

export function knownUser(db: ProjectDb, tokenId: number, userId: string): boolean {
  return !!db.select({ id: botUsers.id }).from(botUsers).where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, userId))).get() || !!personOf(db, tokenId, userId);
}

export function setTags(db: ProjectDb, tokenId: number, userId: string, tags: string[]) {
  const now = new Date().toISOString();
  const json = JSON.stringify(tags);
  db.insert(people)
    .values({ tokenId, userId, tags: json, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoUpdate({ target: [people.tokenId, people.userId], set: { tags: json } })
    .run();
}

/** A user's Stars payments, newest first, and how many there are. */
export function paymentsOf(db: ProjectDb, tokenId: number, userId: string, limit: number) {
  const theirs = and(eq(payments.tokenId, tokenId), eq(payments.userId, userId));
  const total = db.select({ n: sql<number>`count(*)` }).from(payments).where(theirs).get()?.n ?? 0;
  const rows = db.select().from(payments).where(theirs).orderBy(desc(payments.id)).limit(limit).all();
  return { rows, total };
}

/** The user, their variables and state, their person row, their private chat and its messages. */
export function deletePerson(db: ProjectDb, tokenId: number, userId: string) {
  db.transaction((tx) => {
    tx.delete(botUsers).where(and(eq(botUsers.tokenId, tokenId), eq(botUsers.userId, userId))).run();
    tx.delete(people).where(and(eq(people.tokenId, tokenId), eq(people.userId, userId))).run();
    tx.delete(payments).where(and(eq(payments.tokenId, tokenId), eq(payments.userId, userId))).run();
    tx.delete(states).where(and(eq(states.tokenId, tokenId), eq(states.chatId, userId))).run();
    // a delay or an answer's time limit pending in their chat would run the old flow for them again
    tx.delete(waits).where(and(eq(waits.tokenId, tokenId), eq(waits.chatId, userId))).run();
    const ofChat = and(eq(messages.tokenId, tokenId), eq(messages.chatId, userId));
    tx.delete(details).where(inArray(details.id, tx.select({ id: messages.id }).from(messages).where(ofChat))).run();
    tx.delete(messages).where(ofChat).run();
    tx.delete(chats).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, userId))).run();
  });
}

/**
 * The values a campaign's audience can name, each with how many users who did not block the bot
 * carry it, most users first (docs/campaigns.md#the-audience): one grouped read each, no user rows.
 */
export function facetsOf(db: ProjectDb, tokenId: number, top: number) {
  const reachable = and(eq(botUsers.tokenId, tokenId), notBlocked);
  const language = sql<string>`coalesce(${people.languageCode}, ${botUsers.languageCode})`;
  const n = sql<number>`count(*)`;
  const grouped = (value: SQL<string>, extra?: SQL) =>
    db
      .select({ value, users: n })
      .from(botUsers)
      .leftJoin(people, samePerson)
      .where(and(reachable, sql`${value} IS NOT NULL AND ${value} <> ''`, extra))
      .groupBy(value)
      .orderBy(desc(n), asc(value))
      .limit(top)
      .all();
  const tags = db
    .select({ value: sql<string>`t.value`, users: sql<number>`count(DISTINCT ${botUsers.userId})` })
    .from(botUsers)
    .innerJoin(people, samePerson)
    .innerJoin(sql`json_each(${people.tags}) t`, sql`1`)
    .where(and(reachable, sql`typeof(t.value) = 'text' AND t.value <> ''`))
    .groupBy(sql`t.value`)
    .orderBy(desc(sql`2`), asc(sql`t.value`))
    .limit(top)
    .all();
  const users = db.select({ n }).from(botUsers).leftJoin(people, samePerson).where(reachable).get()?.n ?? 0;
  return { users, tags, languages: grouped(language), sources: grouped(sql<string>`${people.source}`) };
}
