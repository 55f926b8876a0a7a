// Opens the per-project database files (DATA_DIR/projects/<projectId>.db; scenario tables live in
// <projectId>-tables.db beside it, which only the tables module opens: docs/tables.md). The platform reads them
// for the bot-users and stats endpoints, writes the content mirror for contentCache bots, and
// removes a file with its project. Connections are kept open for a few recently used projects.
import { Database } from "bun:sqlite";
import { existsSync, linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { drizzleOver } from "./drizzle";
import { closeNow } from "../lib/shared-runtime";
import { eq, inArray } from "drizzle-orm";
import { repairSchema, schemaIsSound, type SchemaEntry } from "./project-schema-check";
import { PROJECT_DB_DDL, projectAnalyticsTables, projectBotChats, projectBotMessageDetails, projectBotMessages, projectBotPayments, projectBotPeople, projectBotState, projectBotUsers, projectBotWaits, projectCampaignAlbumMessages, projectCampaignRecipients, projectCampaigns, projectCampaignTimeZones, projectContent, projectMediaFileIds, projectSchema, projectSendPace } from "./project-schema";

/**
 * Where a project's scenario tables live: <id>.db → <id>-tables.db. The bot runtime names the same
 * file (runtime/scenario-file.ts); it is loaded as text and cannot be imported here as a module,
 * so test/scenario/bot-project-files.test.ts holds the two equal.
 */
export function scenarioTablesPath(databasePath: string): string {
  return databasePath.replace(/(\.db)?$/, "-tables.db");
}

export type ProjectDb = BunSQLiteDatabase<typeof projectSchema> & { $client: Database };

/** Told when a file's schema was not Botloom's and what was dropped to make it so. */
export type SchemaRepaired = (projectId: number, dropped: SchemaEntry[]) => void;

/**
 * Open connections kept (each holds three file descriptors and a small page cache). Closing one
 * checkpoints its WAL with an fsync (measured 13 ms on a busy disk), so the cache is sized to
 * avoid churn on a server with many projects in use.
 */
const MAX_OPEN = 128;

function validId(projectId: number): number {
  if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new Error(`not a project id: ${projectId}`);
  return projectId;
}

let image: Uint8Array | undefined;

/** The bytes of an empty project database: its tables, WAL mode (file format 2, bytes 18-19). */
function emptyImage(): Uint8Array {
  if (!image) {
    const memory = new Database(":memory:");
    for (const ddl of PROJECT_DB_DDL) memory.exec(ddl);
    const bytes = new Uint8Array(memory.serialize());
    memory.close();
    bytes[18] = 2;
    bytes[19] = 2;
    image = bytes;
  }
  return image;
}

export class ProjectDatabases {
  readonly dir: string;
  private readonly open_ = new Map<number, ProjectDb>();
  /** PRAGMA schema_version of each open file when its schema was last checked. */
  private readonly checked = new Map<number, number>();

  constructor(
    dataDir: string,
    private readonly onRepaired: SchemaRepaired = () => {},
  ) {
    this.dir = join(dataDir, "projects");
  }

  /** The file a project's bots get as DATABASE_PATH. */
  pathOf(projectId: number): string {
    return join(this.dir, `${validId(projectId)}.db`);
  }

  /** The project's database, created with its tables when missing. */
  open(projectId: number): ProjectDb {
    const cached = this.open_.get(projectId);
    if (cached) {
      // Most recently used last, so eviction drops the oldest.
      this.open_.delete(projectId);
      this.open_.set(projectId, cached);
      // Reading the header's schema cookie is cheap; a change since the check means another look.
      if (schemaVersion(cached.$client) !== this.checked.get(projectId)) this.verify(projectId, cached.$client);
      return cached;
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const path = this.pathOf(projectId);
    // Bot users and their data: 0600 (the image is written so; SQLite gives the WAL and SHM files
    // the same mode). A new file is written whole from an image that already has the tables and WAL
    // mode: setting them up in place costs two journal switches and their syncs (measured 10 ms per
    // file on a busy disk). Written aside and linked into place, so no reader ever sees half a file;
    // a file that appeared meanwhile (a bot made it) is kept.
    if (!existsSync(path)) {
      const aside = `${path}.${process.pid}.new`;
      // 0600, and SQLite gives the WAL and SHM files the same mode.
      writeFileSync(aside, emptyImage(), { mode: 0o600 });
      try {
        linkSync(aside, path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      } finally {
        rmSync(aside, { force: true });
      }
    }
    const sqlite = new Database(path, { create: true, strict: true });
    sqlite.exec("PRAGMA busy_timeout = 5000");
    sqlite.exec("PRAGMA journal_mode = WAL");
    sqlite.exec("PRAGMA synchronous = NORMAL");
    // Functions with side effects never run from the schema (defence in depth: verify() is the check).
    sqlite.exec("PRAGMA trusted_schema = OFF");
    try {
      this.verify(projectId, sqlite);
    } catch (e) {
      // A schema that cannot even be dropped (a virtual table of an unknown module) is not read.
      closeNow(sqlite);
      throw e;
    }
    // A bot process writes this file too: read-then-write transactions begin IMMEDIATE (db/drizzle.ts).
    const db: ProjectDb = drizzleOver(sqlite, projectSchema);
    this.open_.set(projectId, db);
    while (this.open_.size > MAX_OPEN) {
      const [oldest, conn] = this.open_.entries().next().value!;
      this.open_.delete(oldest);
      this.checked.delete(oldest);
      closeNow(conn.$client);
    }
    return db;
  }

  /**
   * Makes the file's schema Botloom's before any read: what else is on the bot's tables (a
   * generated column, an expression index, a view or trigger, left by an older version's scenario
   * SQL or a crafted file) would run in this process on every read. No-ops on a sound file; they
   * complete a file an older version or a bot left behind.
   */
  private verify(projectId: number, sqlite: Database) {
    // A sound file is only read: a write lock would wait for the bot's own writes.
    const dropped = schemaIsSound(sqlite) ? [] : sqlite.transaction(() => repairSchema(sqlite)).immediate();
    this.checked.set(projectId, schemaVersion(sqlite));
    if (dropped.length > 0) this.onRepaired(projectId, dropped);
  }

  /** The project's database when its file exists (a project whose bots never ran has none). */
  existing(projectId: number): ProjectDb | null {
    if (this.open_.has(projectId)) return this.open(projectId);
    return existsSync(this.pathOf(projectId)) ? this.open(projectId) : null;
  }

  /** Closes the project's connection, if open (another thread's: the campaign sender's, before the file goes). */
  close(projectId: number) {
    const open = this.open_.get(projectId);
    if (open) closeNow(open.$client);
    this.open_.delete(projectId);
    this.checked.delete(projectId);
  }

  /** Deletes the project's file (its bots are stopped first). */
  remove(projectId: number) {
    const path = this.pathOf(projectId);
    const open = this.open_.get(projectId)?.$client;
    if (open) {
      // Closing checkpoints the WAL; no need to wait for the disk for a file about to go.
      open.exec("PRAGMA synchronous = OFF");
      closeNow(open);
    }
    this.open_.delete(projectId);
    this.checked.delete(projectId);
    for (const file of [path, scenarioTablesPath(path)]) {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    }
  }

  /** Rows of a deleted token: its users, chat state, media file ids, pending waits, its message store (docs/dialogs.md), analytics (docs/analytics.md), campaigns and its send pace (docs/campaigns.md). */
  forgetToken(projectId: number, tokenId: number) {
    const db = this.existing(projectId);
    if (!db) return;
    db.transaction((tx) => {
      tx.delete(projectBotUsers).where(eq(projectBotUsers.tokenId, tokenId)).run();
      tx.delete(projectBotState).where(eq(projectBotState.tokenId, tokenId)).run();
      tx.delete(projectMediaFileIds).where(eq(projectMediaFileIds.tokenId, tokenId)).run();
      tx.delete(projectBotWaits).where(eq(projectBotWaits.tokenId, tokenId)).run();
      tx.delete(projectBotMessages).where(eq(projectBotMessages.tokenId, tokenId)).run();
      tx.delete(projectBotMessageDetails).where(eq(projectBotMessageDetails.tokenId, tokenId)).run();
      tx.delete(projectBotPayments).where(eq(projectBotPayments.tokenId, tokenId)).run();
      tx.delete(projectBotChats).where(eq(projectBotChats.tokenId, tokenId)).run();
      tx.delete(projectBotPeople).where(eq(projectBotPeople.tokenId, tokenId)).run();
      for (const table of projectAnalyticsTables) tx.delete(table).where(eq(table.tokenId, tokenId)).run();
      const campaigns = tx.select({ id: projectCampaigns.id }).from(projectCampaigns).where(eq(projectCampaigns.tokenId, tokenId));
      const recipients = tx.select({ id: projectCampaignRecipients.id }).from(projectCampaignRecipients).where(inArray(projectCampaignRecipients.campaignId, campaigns));
      tx.delete(projectCampaignAlbumMessages).where(inArray(projectCampaignAlbumMessages.recipientId, recipients)).run();
      tx.delete(projectCampaignRecipients).where(inArray(projectCampaignRecipients.campaignId, campaigns)).run();
      tx.delete(projectCampaignTimeZones).where(inArray(projectCampaignTimeZones.campaignId, campaigns)).run();
      tx.delete(projectCampaigns).where(eq(projectCampaigns.tokenId, tokenId)).run();
      tx.delete(projectSendPace).where(eq(projectSendPace.tokenId, tokenId)).run();
    });
  }

  /** Mirrors the project's scenario for contentCache bots (they read no other database). */
  writeContent(projectId: number, data: string, updatedAt: string, create = false) {
    const db = create ? this.open(projectId) : this.existing(projectId);
    if (!db) return;
    db.insert(projectContent)
      .values({ id: 1, data, updatedAt })
      .onConflictDoUpdate({ target: projectContent.id, set: { data, updatedAt } })
      .run();
  }

  closeAll() {
    for (const db of this.open_.values()) closeNow(db.$client);
    this.open_.clear();
    this.checked.clear();
  }
}

function schemaVersion(sqlite: Database): number {
  return sqlite.query<{ schema_version: number }, []>("PRAGMA schema_version").get()?.schema_version ?? -1;
}
