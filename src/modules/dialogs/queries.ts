// SQL of the Dialogs: a token's chats and messages in its project's file (docs/dialogs.md). The bot
// writes the same tables (runtime/record.ts); the platform writes an operator's messages, the
// takeover flag and the read mark.
import { and, desc, eq, getTableColumns, inArray, lt, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { ProjectDb } from "../../db/project-db";
import { projects } from "../../db/schema";
import { projectAnalyticsHours as hours, projectBotChats as chats, projectBotMessageDetails as details, projectBotMessages as messages, projectBotPeople as people, projectBotUsers as users } from "../../db/project-schema";
import { containsText, searchTermOf } from "../../db/like";
import { plainText } from "./plain-text";
import { lastOrFullName } from "../bot-users/queries";

export type ChatRow = typeof chats.$inferSelect & { blocked: number; lastName: string | null };
/** A recorded message with its formatting and file (bot_message_details; null for plain text without media). */
export type MessageRow = typeof messages.$inferSelect & { format: string | null; entities: string | null; fileId: string | null; mediaId: number | null };
export type Formatting = Pick<MessageRow, "format" | "entities">;
export type Details = Pick<MessageRow, "format" | "entities" | "fileId" | "mediaId">;

const detailColumns = { format: details.format, entities: details.entities, fileId: details.fileId, mediaId: details.mediaId };
const withLook = { ...getTableColumns(messages), ...detailColumns };
const lookOf = eq(details.id, messages.id);

export interface ChatFilter {
  search: string;
  kind?: string;
  filter: "all" | "unread" | "takeover" | "blocked";
}

const blockedOf = sql<number>`coalesce(${people.blocked}, 0)`.as("blocked");

function chatWhere(db: ProjectDb, tokenId: number, f: ChatFilter): SQL {
  const parts: (SQL | undefined)[] = [eq(chats.tokenId, tokenId)];
  if (f.kind) parts.push(eq(chats.kind, f.kind));
  if (f.filter === "unread") parts.push(sql`${chats.unread} > 0`);
  if (f.filter === "takeover") parts.push(eq(chats.takeover, 1));
  if (f.filter === "blocked") parts.push(eq(people.blocked, 1));
  const term = searchTerm(f);
  if (term) {
    // The last name is kept with the user, not the chat: the chat's user is one of the token's
    // users whose last name contains the term or, for a term with a space, whose "first last"
    // or "last first" does (a term without one cannot run across the space; the first name is the chat's own).
    // The subquery names no column of the chat, so SQLite runs it once, not once per chat.
    const named = db
      .select({ userId: users.userId })
      .from(users)
      .where(and(eq(users.tokenId, tokenId), lastOrFullName(term)));
    parts.push(or(containsText(chats.title, term), containsText(chats.firstName, term), containsText(chats.username, term), eq(chats.chatId, term), eq(chats.userId, term), inArray(chats.userId, named)));
  }
  return and(...parts)!;
}

const searchTerm = (f: ChatFilter) => searchTermOf(f.search);

/** A private chat's id is its user's id: that person's blocked flag is the chat's. */
const personOfChat = and(eq(people.tokenId, chats.tokenId), eq(people.userId, chats.chatId));

export function chatPage(db: ProjectDb, tokenId: number, f: ChatFilter, limit: number, offset: number): { rows: ChatRow[]; total: number } {
  const where = chatWhere(db, tokenId, f);
  // Only the blocked filter needs the person of each chat before the page is cut.
  const keys = db.select({ r: sql<number>`${chats}.rowid` }).from(chats);
  const matching = (f.filter === "blocked" ? keys.leftJoin(people, personOfChat) : keys).where(where).orderBy(desc(chats.lastMessageAt), desc(chats.chatId));
  let page: SQLWrapper | number[];
  let total: number;
  if (searchTerm(f)) {
    // A substring has no index: the count reads every chat of the token, so that one pass also
    // gives the page's keys (the page made a second pass, stopping only once it was full). It pays
    // for reading the token's users; a term that matches most chats costs a little more than it
    // did (10,000 chats, "a": about 1.7 → 3.2 ms, still under a term that matches few).
    const all = matching.values().map(([r]) => r as number);
    total = all.length;
    page = all.slice(offset, offset + limit);
  } else {
    const counted = db.select({ n: sql<number>`count(*)` }).from(chats);
    total = (f.filter === "blocked" ? counted.leftJoin(people, personOfChat) : counted).where(where).get()?.n ?? 0;
    // The page's keys first, off the (token, last message, chat) index: a deep page skips index
    // entries, not joined rows (a 10,000-chat token's last page went from 31 ms to under 1 ms).
    page = matching.limit(limit).offset(offset);
  }
  const rows = db
    .select({
      tokenId: chats.tokenId,
      chatId: chats.chatId,
      kind: chats.kind,
      title: chats.title,
      userId: chats.userId,
      firstName: chats.firstName,
      lastName: users.lastName,
      username: chats.username,
      lastMessageAt: chats.lastMessageAt,
      lastMessageText: chats.lastMessageText,
      unread: chats.unread,
      takeover: chats.takeover,
      blocked: blockedOf,
    })
    .from(chats)
    .leftJoin(people, personOfChat)
    // the user's last name is kept with the user, not the chat: two "Maria"s are told apart by it
    .leftJoin(users, and(eq(users.tokenId, chats.tokenId), eq(users.userId, chats.userId)))
    // (keys read by an earlier statement: the token too, should a rowid have been taken again since)
    .where(Array.isArray(page) ? and(eq(chats.tokenId, tokenId), inArray(sql`${chats}.rowid`, page)) : sql`${chats}.rowid IN ${page}`)
    .orderBy(desc(chats.lastMessageAt), desc(chats.chatId))
    .all();
  return { rows, total };
}

export function chatOf(db: ProjectDb, tokenId: number, chatId: string): typeof chats.$inferSelect | undefined {
  return db.select().from(chats).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, chatId))).get();
}

/** `limit` messages before `before` (the newest without it), newest first, plus one to tell whether more exist. */
export function messagesBefore(db: ProjectDb, tokenId: number, chatId: string, before: number | undefined, limit: number): MessageRow[] {
  const where = and(eq(messages.tokenId, tokenId), eq(messages.chatId, chatId), before === undefined ? undefined : lt(messages.id, before));
  return db.select(withLook).from(messages).leftJoin(details, lookOf).where(where).orderBy(desc(messages.id)).limit(limit + 1).all();
}

export function messageOf(db: ProjectDb, tokenId: number, chatId: string, id: number): MessageRow | undefined {
  return db.select(withLook).from(messages).leftJoin(details, lookOf).where(and(eq(messages.tokenId, tokenId), eq(messages.chatId, chatId), eq(messages.id, id))).get();
}

export type NewMessage = Omit<typeof messages.$inferInsert, "id" | "tokenId" | "chatId">;

/** An operator's message, its formatting and file, its chat's last message and the person's count, in one transaction. */
export function insertOperatorMessage(db: ProjectDb, tokenId: number, chatId: string, m: NewMessage, extra: Details = { format: null, entities: null, fileId: null, mediaId: null }): MessageRow {
  return db.transaction((tx) => {
    const row = writeOutgoing(db, tokenId, chatId, m, null, extra.format);
    if (extra.format || extra.entities || extra.fileId || extra.mediaId !== null) tx.insert(details).values({ id: row.id, tokenId, ...extra }).run();
    return { ...row, ...extra };
  });
}

// The three writes of an outgoing message, prepared once per file: a campaign writes one per
// recipient, and building them per message held the event loop longer than the send (bench/campaigns.ts).
const p = (name: string) => sql.placeholder(name);
function prepareOutgoing(db: ProjectDb) {
  return {
    message: db
      .insert(messages)
      .values({
        tokenId: p("tokenId"),
        chatId: p("chatId"),
        direction: p("direction"),
        sentBy: p("sentBy"),
        operatorId: p("operatorId"),
        kind: p("kind"),
        text: p("text"),
        buttons: p("buttons"),
        callbackData: p("callbackData"),
        nodeId: p("nodeId"),
        messengerMessageId: p("messengerMessageId"),
        createdAt: p("createdAt"),
        editedAt: p("editedAt"),
        deletedAt: p("deletedAt"),
      })
      .returning()
      .prepare(),
    chat: db
      .update(chats)
      .set({ lastMessageAt: sql`${p("at")}`, lastMessageText: sql`${p("last")}` })
      .where(and(eq(chats.tokenId, p("tokenId")), eq(chats.chatId, p("chatId"))))
      .prepare(),
    person: db
      .update(people)
      .set({ messagesOut: sql`${people.messagesOut} + 1` })
      .where(and(eq(people.tokenId, p("tokenId")), eq(people.userId, p("chatId"))))
      .prepare(),
    format: db.insert(details).values({ id: p("id"), tokenId: p("tokenId"), format: p("format") }).prepare(),
    // the bot's account sent it: "messages out" of its hour (docs/analytics.md), beside the bot's own sends
    counted: db
      .insert(hours)
      .values({ tokenId: p("tokenId"), hour: p("hour"), messagesOut: 1 })
      .onConflictDoUpdate({ target: [hours.tokenId, hours.hour], set: { messagesOut: sql`${hours.messagesOut} + 1` } })
      .prepare(),
  };
}
const outgoing = new WeakMap<object, ReturnType<typeof prepareOutgoing>>();

/**
 * An outgoing message, its chat's last message, the person's count and the hour's messages out
 * (operators' and campaigns' sends count as the bot's do): called inside a transaction
 * on `db` (the file, not the transaction's object: the statements run on the file's one connection).
 * `format` is recorded with the message; `lookOf` (the format when another write records it) gives
 * the chat list its text without markup.
 */
export function writeOutgoing(db: ProjectDb, tokenId: number, chatId: string, m: NewMessage, format: string | null = null, lookOf: string | null = format): typeof messages.$inferSelect {
  let s = outgoing.get(db);
  if (!s) outgoing.set(db, (s = prepareOutgoing(db)));
  const row = s.message.get({
    tokenId,
    chatId,
    direction: m.direction,
    sentBy: m.sentBy,
    operatorId: m.operatorId ?? null,
    kind: m.kind,
    text: m.text ?? "",
    buttons: m.buttons ?? null,
    callbackData: m.callbackData ?? null,
    nodeId: m.nodeId ?? null,
    messengerMessageId: m.messengerMessageId ?? null,
    createdAt: m.createdAt,
    editedAt: m.editedAt ?? null,
    deletedAt: m.deletedAt ?? null,
  })!;
  s.chat.run({ tokenId, chatId, at: m.createdAt, last: (plainText(m.text ?? "", lookOf) || `[${m.kind}]`).slice(0, 200) });
  s.person.run({ tokenId, chatId });
  s.counted.run({ tokenId, hour: m.createdAt.slice(0, 13) });
  // the text keeps its markup; the format says how to show it (docs/dialogs.md)
  if (format) s.format.run({ id: row.id, tokenId, format });
  return row;
}

/** An edit (with the formatting of its new text; the file stays) or a deletion (which keeps both). */
export function updateMessage(db: ProjectDb, id: number, set: Partial<Pick<MessageRow, "text" | "editedAt" | "deletedAt">>, look?: Formatting): MessageRow {
  return db.transaction((tx) => {
    const row = tx.update(messages).set(set).where(eq(messages.id, id)).returning().get()!;
    if (look && (look.format || look.entities)) {
      tx.insert(details).values({ id, tokenId: row.tokenId, ...look }).onConflictDoUpdate({ target: details.id, set: look }).run();
    } else if (look) tx.update(details).set({ format: null, entities: null }).where(eq(details.id, id)).run();
    const now = tx.select(detailColumns).from(details).where(eq(details.id, id)).get();
    return { ...row, format: now?.format ?? null, entities: now?.entities ?? null, fileId: now?.fileId ?? null, mediaId: now?.mediaId ?? null };
  });
}

export function setTakeover(db: ProjectDb, tokenId: number, chatId: string, on: boolean) {
  return db.update(chats).set({ takeover: on ? 1 : 0 }).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, chatId))).run();
}

export function markRead(db: ProjectDb, tokenId: number, chatId: string) {
  return db.update(chats).set({ unread: 0 }).where(and(eq(chats.tokenId, tokenId), eq(chats.chatId, chatId))).run();
}

/**
 * The user blocked the bot (a send said so): the flag the chat list and broadcasts read, and — when
 * the user turns from "not blocked" to "blocked" — the hour's `blocked` count, as the bot's own
 * sends count it (docs/analytics.md).
 */
export function markBlocked(db: ProjectDb, tokenId: number, userId: string, at: string) {
  db.transaction((tx) => {
    const before = tx.select({ blocked: people.blocked }).from(people).where(and(eq(people.tokenId, tokenId), eq(people.userId, userId))).get();
    tx.insert(people)
      .values({ tokenId, userId, blocked: 1, blockedAt: at, firstSeenAt: at, lastSeenAt: at })
      .onConflictDoUpdate({ target: [people.tokenId, people.userId], set: { blocked: 1, blockedAt: at } })
      .run();
    if (before?.blocked === 1) return;
    tx.insert(hours)
      .values({ tokenId, hour: at.slice(0, 13), blocked: 1 })
      .onConflictDoUpdate({ target: [hours.tokenId, hours.hour], set: { blocked: sql`${hours.blocked} + 1` } })
      .run();
  });
}

/** The project's scenario (platform database), to check node ids named by goto buttons and resumeAt. */
export function projectDataOf(db: Db, projectId: number): string | null {
  return db.select({ data: projects.data }).from(projects).where(eq(projects.id, projectId)).get()?.data ?? null;
}
