// Existing installs kept bot users, chat state and media file ids in the platform database. At
// start they move, in place, into each project's own file; the platform tables are emptied so a
// second start moves nothing. Safe to interrupt: the project file is written first (rows that are
// already there are kept), the platform rows are deleted after.
import type { Database } from "bun:sqlite";
import { mediaUrlOf } from "../lib/media-url";
import type { Db } from "./client";
import type { ProjectDatabases } from "./project-db";

export interface MoveReport {
  projects: number;
  users: number;
  states: number;
  fileIds: number;
}

type UserRow = { token_id: number; user_id: string; first_name: string | null; last_name: string | null; username: string | null; language_code: string | null; photo_url: string | null; first_seen_at: string; last_seen_at: string; interaction_count: number; variables: string };
type StateRow = { token_id: number; chat_id: string; variables: string; waiting: string | null; updated_at: string };
type MediaRow = { id: number; storage_config_id: string | null; object_key: string; messenger_file_id: string };

function projectIds(raw: Database): number[] {
  const rows = raw
    .query<{ id: number }, []>(
      "SELECT project_id AS id FROM bot_users UNION SELECT t.project_id FROM bot_state s JOIN bot_tokens t ON t.id = s.token_id " +
        "UNION SELECT project_id FROM media_files WHERE messenger_file_id IS NOT NULL ORDER BY 1",
    )
    .all();
  return rows.map((r) => r.id);
}

function fileIdsOf(m: MediaRow): [number, string][] {
  let ids: unknown;
  try {
    ids = JSON.parse(m.messenger_file_id);
  } catch {
    return [];
  }
  if (!ids || typeof ids !== "object") return [];
  const out: [number, string][] = [];
  for (const [k, v] of Object.entries(ids)) {
    const token = /^t(\d+)$/.exec(k);
    if (token && typeof v === "string" && v) out.push([Number(token[1]), v]);
  }
  return out;
}

export function moveBotRowsToProjectFiles(db: Db, files: ProjectDatabases): MoveReport {
  const raw = db.$client;
  const report: MoveReport = { projects: 0, users: 0, states: 0, fileIds: 0 };
  for (const projectId of projectIds(raw)) {
    const users = raw.query<UserRow, [number]>("SELECT * FROM bot_users WHERE project_id = ? ORDER BY id").all(projectId);
    const states = raw
      .query<StateRow, [number]>("SELECT s.* FROM bot_state s JOIN bot_tokens t ON t.id = s.token_id WHERE t.project_id = ?")
      .all(projectId);
    const media = raw
      .query<MediaRow, [number]>("SELECT id, storage_config_id, object_key, messenger_file_id FROM media_files WHERE project_id = ? AND messenger_file_id IS NOT NULL")
      .all(projectId);
    const target = files.open(projectId).$client;
    target.transaction(() => {
      const addUser = target.query(
        "INSERT OR IGNORE INTO bot_users (token_id, user_id, first_name, last_name, username, language_code, photo_url, " +
          "first_seen_at, last_seen_at, interaction_count, variables) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const u of users) {
        addUser.run(u.token_id, u.user_id, u.first_name, u.last_name, u.username, u.language_code, u.photo_url, u.first_seen_at, u.last_seen_at, u.interaction_count, u.variables);
      }
      const addState = target.query("INSERT OR IGNORE INTO bot_state (token_id, chat_id, variables, waiting, updated_at) VALUES (?, ?, ?, ?, ?)");
      for (const s of states) addState.run(s.token_id, s.chat_id, s.variables, s.waiting, s.updated_at);
      const addId = target.query("INSERT OR IGNORE INTO media_file_ids (token_id, media_url, file_id) VALUES (?, ?, ?)");
      for (const m of media) {
        for (const [tokenId, fileId] of fileIdsOf(m)) {
          addId.run(tokenId, mediaUrlOf(m.storage_config_id, m.object_key), fileId);
          report.fileIds++;
        }
      }
    })();
    raw.transaction(() => {
      raw.query("DELETE FROM bot_users WHERE project_id = ?").run(projectId);
      raw.query("DELETE FROM bot_state WHERE token_id IN (SELECT id FROM bot_tokens WHERE project_id = ?)").run(projectId);
      raw.query("UPDATE media_files SET messenger_file_id = NULL WHERE project_id = ?").run(projectId);
    })();
    report.projects++;
    report.users += users.length;
    report.states += states.length;
  }
  return report;
}
