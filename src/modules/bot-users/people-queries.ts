// SQL of the people of a bot (docs/dialogs.md "The people of a bot"): bot_users joined
// with what the message store knows of each person (bot_people) and their private chat (bot_chats).
import { and, asc, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { ProjectDb } from "../../db/project-db";
import { containsText } from "../../db/like";
import {
  projectBotChats as chats,
  projectBotMessages as messages,
  projectBotPeople as people,
  projectBotState as states,
  projectBotUsers as users,
} from "../../db/project-schema";

/** A user seen within this many days counts as active. */
export const ACTIVE_DAYS = 30;

export const PEOPLE_FILTERS = ["active", "inactive", "blocked"] as const;
export const PEOPLE_SORTS = ["lastSeen", "registered", "messages", "name"] as const;

export interface PeopleFilter {
  search: string;
  filter?: (typeof PEOPLE_FILTERS)[number];
  language?: string;
  tag?: string;
  source?: string;
  sort?: (typeof PEOPLE_SORTS)[number];
}

const samePerson = and(eq(people.tokenId, users.tokenId), eq(people.userId, users.userId));
const isBlocked = sql`coalesce(${people.blocked}, 0) = 1`;
const notBlocked = sql`coalesce(${people.blocked}, 0) = 0`;

function where(tokenId: number, f: PeopleFilter, now: number): SQL {
  const since = new Date(now - ACTIVE_DAYS * 86_400_000).toISOString();
  const parts: (SQL | undefined)[] = [eq(users.tokenId, tokenId)];
  if (f.filter === "blocked") parts.push(isBlocked);
  if (f.filter === "active") parts.push(and(notBlocked, gte(users.lastSeenAt, since)));
  if (f.filter === "inactive") parts.push(and(notBlocked, lt(users.lastSeenAt, since)));
  if (f.language) parts.push(sql`lower(coalesce(${users.languageCode}, ${people.languageCode}, '')) = ${f.language.toLowerCase()}`);
  if (f.source) parts.push(eq(people.source, f.source));
  if (f.tag) parts.push(sql`EXISTS (SELECT 1 FROM json_each(${people.tags}) WHERE value = ${f.tag})`);
  const term = f.search.trim().replace(/^@/, "");
  if (term) parts.push(or(containsText(users.firstName, term), containsText(users.lastName, term), containsText(users.username, term), eq(users.userId, term)));
  return and(...parts)!;
}

function order(sort: PeopleFilter["sort"]) {
  switch (sort) {
    case "lastSeen":
      return [desc(users.lastSeenAt), desc(users.id)];
    case "messages":
      return [desc(sql`coalesce(${people.messagesIn}, 0) + coalesce(${people.messagesOut}, 0)`), desc(users.id)];
    case "name":
      return [asc(sql`lower(coalesce(${users.firstName}, ''))`), asc(users.id)];
    default:
      // the list's own order (docs/api.md): newest sign-ups first
      return [desc(users.firstSeenAt), desc(users.id)];
  }
}

export type PersonRow = typeof users.$inferSelect & { person: typeof people.$inferSelect | null };

export function peoplePage(db: ProjectDb, tokenId: number, f: PeopleFilter, limit: number, offset: number, now = Date.now()) {
  const w = where(tokenId, f, now);
  const count = db.select({ n: sql<number>`count(*)` }).from(users).leftJoin(people, samePerson).where(w).get()?.n ?? 0;
  const rows = db
    .select({ userId: users.userId, firstName: users.firstName, username: users.username })
    .from(users)
    .leftJoin(people, samePerson)
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
    const page = db.select().from(users).leftJoin(people, samePerson).where(w).orderBy(...order(f.sort)).limit(1000).offset(offset).all();
    for (const r of page) yield { ...r.bot_users, person: r.bot_people };
    if (page.length < 1000) return;
  }
}

export function personOf(db: ProjectDb, tokenId: number, userId: string) {
  return db.select().from(people).where(and(eq(people.tokenId, tokenId), eq(people.userId, userId))).get();
}

export function userFactsOf(db: ProjectDb, tokenId: number, userId: string) {
  return db
    .select({ languageCode: users.languageCode, firstSeenAt: users.firstSeenAt, lastSeenAt: users.lastSeenAt })
    .from(users)
    .where(and(eq(users.tokenId, tokenId), eq(users.userId, userId)))
    .get();
}

export function takeoverOf(db: ProjectDb, tokenId: number, userId: string): boolean {
  return db.select({ t: chats.takeover }).from(chats).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, userId))).get()?.t === 1;
}

export function knownUser(db: ProjectDb, tokenId: number, userId: string): boolean {
  return !!db.select({ id: users.id }).from(users).where(and(eq(users.tokenId, tokenId), eq(users.userId, userId))).get() || !!personOf(db, tokenId, userId);
}

export function setTags(db: ProjectDb, tokenId: number, userId: string, tags: string[]) {
  const now = new Date().toISOString();
  const json = JSON.stringify(tags);
  db.insert(people)
    .values({ tokenId, userId, tags: json, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoUpdate({ target: [people.tokenId, people.userId], set: { tags: json } })
    .run();
}

/** The user, their variables and state, their person row, their private chat and its messages. */
export function deletePerson(db: ProjectDb, tokenId: number, userId: string) {
  db.transaction((tx) => {
    tx.delete(users).where(and(eq(users.tokenId, tokenId), eq(users.userId, userId))).run();
    tx.delete(people).where(and(eq(people.tokenId, tokenId), eq(people.userId, userId))).run();
    tx.delete(states).where(and(eq(states.tokenId, tokenId), eq(states.chatId, userId))).run();
    tx.delete(messages).where(and(eq(messages.tokenId, tokenId), eq(messages.chatId, userId))).run();
    tx.delete(chats).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, userId))).run();
  });
}
