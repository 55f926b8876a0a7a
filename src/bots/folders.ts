// Bot folders: <BOTS_DIR>/<slug>_<projectId>_<tokenId>/ holding bot.ts and .env (docs/bots.md#running-bots).
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_DIR_MODE } from "../lib/file-modes";
import { slugOf } from "../lib/slug";

const FOLDER_RE = /_(\d+)_(\d+)$/;

/** Filesystem-safe slug of a project name. */
export const slugify = (name: string) => slugOf(name, { max: 40, fallback: "bot" });

export const folderName = (projectName: string, projectId: number, tokenId: number) => `${slugify(projectName)}_${projectId}_${tokenId}`;

export function parseFolderName(name: string): { projectId: number; tokenId: number } | null {
  const m = FOLDER_RE.exec(name);
  return m ? { projectId: Number(m[1]), tokenId: Number(m[2]) } : null;
}

/** Direct child folders of BOTS_DIR that belong to a token (a renamed project leaves the old slug behind). */
export function foldersOfToken(botsDir: string, tokenId: number, projectId: number): string[] {
  if (!existsSync(botsDir)) return [];
  return readdirSync(botsDir).filter((n) => {
    const p = parseFolderName(n);
    return p !== null && p.tokenId === tokenId && p.projectId === projectId;
  });
}

/**
 * Removes the folders of a token's bot, or of every bot of a project: they hold the bot token in
 * `.env`, so they go when the token or project goes (the bots are stopped first). Real folders
 * only: a symlink is never followed.
 */
export function removeBotFolders(botsDir: string, of: { projectId: number; tokenId?: number }) {
  if (!existsSync(botsDir)) return;
  for (const name of readdirSync(botsDir)) {
    const p = parseFolderName(name);
    if (!p || p.projectId !== of.projectId || (of.tokenId !== undefined && p.tokenId !== of.tokenId)) continue;
    const full = join(botsDir, name);
    if (lstatSync(full).isDirectory()) rmSync(full, { recursive: true, force: true });
  }
}

/** `.env` lines; values are quoted so spaces and `#` survive, newlines are refused upstream by key/value rules. */
export function renderEnv(vars: Record<string, string>): string {
  return (
    Object.entries(vars)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join("\n") + "\n"
  );
}

export function writeBotFolder(botsDir: string, name: string, code: string, env: Record<string, string>): string {
  const dir = join(botsDir, name);
  // BOTS_DIR holds every bot's token (.env): private to the server's account when we create it.
  mkdirSync(botsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "bot.ts"), code);
  const envFile = join(dir, ".env");
  writeFileSync(envFile, renderEnv(env), { mode: 0o600 });
  chmodSync(envFile, 0o600);
  return dir;
}

export interface CleanupResult {
  deleted: string[];
  skipped: string[];
  count: number;
  message: string;
}

/**
 * docs/api.md#admin-rules rule 3: delete direct children of BOTS_DIR whose project no longer exists.
 * Never follows symlinks (a link is skipped, never its target deleted), never deletes a running
 * bot's folder, leaves unparseable names (and node_modules) alone.
 */
export function cleanupBotFolders(botsDir: string, projectExists: (id: number) => boolean, isRunning: (tokenId: number) => boolean): CleanupResult {
  const deleted: string[] = [];
  const skipped: string[] = [];
  if (existsSync(botsDir)) {
    for (const name of readdirSync(botsDir).sort()) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const full = join(botsDir, name);
      const st = lstatSync(full);
      if (st.isSymbolicLink() || !st.isDirectory()) {
        skipped.push(name);
        continue;
      }
      const parsed = parseFolderName(name);
      if (!parsed) {
        skipped.push(name);
        continue;
      }
      if (projectExists(parsed.projectId) || isRunning(parsed.tokenId)) continue;
      rmSync(full, { recursive: true, force: true });
      deleted.push(name);
    }
  }
  const message = deleted.length ? `Deleted ${deleted.length} folder(s) of deleted projects` : "Nothing to clean up";
  return { deleted, skipped, count: deleted.length, message };
}

/** `KEY=value` or `export KEY=value` → [key, raw value]; null for comments and other lines. */
function envLine(line: string): [string, string] | null {
  const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
  return m ? [m[1], m[2]] : null;
}

/** Reads one variable from a bot folder's .env (values written by renderEnv or by hand). */
export function readEnvValue(envFile: string, key: string): string | null {
  if (!existsSync(envFile)) return null;
  for (const line of readFileSync(envFile, "utf8").split("\n")) {
    const kv = envLine(line);
    if (!kv || kv[0] !== key) continue;
    const raw = kv[1].trim();
    if (raw.startsWith('"')) {
      try {
        return JSON.parse(raw);
      } catch {}
    }
    return raw.replace(/^'(.*)'$/, "$1");
  }
  return null;
}

/**
 * Sets one variable of a .env in the renderEnv format, keeping every other line as it is: the
 * first line of the key is replaced (later duplicates dropped), or the line is appended. A new
 * file is created 0600, like writeBotFolder's.
 */
export function setEnvValue(envFile: string, key: string, value: string) {
  const line = `${key}=${JSON.stringify(value)}`;
  const lines = existsSync(envFile) ? readFileSync(envFile, "utf8").split("\n") : [];
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let replaced = false;
  const out: string[] = [];
  for (const l of lines) {
    if (envLine(l)?.[0] !== key) out.push(l);
    else if (!replaced) {
      out.push(line);
      replaced = true;
    }
  }
  if (!replaced) out.push(line);
  writeFileSync(envFile, out.join("\n") + "\n", { mode: 0o600 });
}

/**
 * Bot folders written by older versions name the platform database in `.env` (DATABASE_PATH) and
 * the whole uploads folder (UPLOADS_DIR). Until such a bot is started again (which rewrites its
 * folder), its .env is repointed in place: DATABASE_PATH to its project's own file, MEDIA_DIR to
 * its project's media folder, UPLOADS_DIR removed. Returns the folders changed.
 */
export function repointLegacyEnvFiles(botsDir: string, platformDb: string, own: (projectId: number) => { database: string; media: string }): string[] {
  const changed: string[] = [];
  if (!existsSync(botsDir)) return changed;
  for (const name of readdirSync(botsDir)) {
    const parsed = parseFolderName(name);
    const dir = join(botsDir, name);
    const envFile = join(dir, ".env");
    if (!parsed || !lstatSync(dir).isDirectory() || !existsSync(envFile) || lstatSync(envFile).isSymbolicLink()) continue;
    if (readEnvValue(envFile, "DATABASE_PATH") !== platformDb && readEnvValue(envFile, "UPLOADS_DIR") === null) continue;
    const paths = own(parsed.projectId);
    const kept = readFileSync(envFile, "utf8").split("\n").filter((l) => envLine(l)?.[0] !== "UPLOADS_DIR");
    writeFileSync(envFile, kept.join("\n"), { mode: 0o600 });
    setEnvValue(envFile, "DATABASE_PATH", paths.database);
    setEnvValue(envFile, "MEDIA_DIR", paths.media);
    changed.push(name);
  }
  return changed;
}
