// Folders and files that hold bot tokens and keys are private to the server's account. What
// Botloom creates it creates that way; what already exists is the owner's choice, so a looser
// folder or file is reported at start instead of being changed behind the owner's back — except
// the folders of a fresh clone, which hold nothing but `.gitkeep` (git keeps no modes, so they
// arrive 0755): those are Botloom's own and are made private before the first start writes to them.
import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from "node:fs";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates an empty file with mode 0600 unless it exists. SQLite gives its WAL, SHM and journal
 * files the mode of the database file, so a database created this way keeps all of them private.
 */
export function createPrivateFile(path: string) {
  if (existsSync(path)) return;
  try {
    writeFileSync(path, "", { mode: PRIVATE_FILE_MODE, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}

/** Makes a file Botloom itself just wrote private (writeFileSync's mode is ignored for an existing file). */
export function makePrivate(path: string) {
  chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Makes each existing folder that holds exactly `.gitkeep` — a git checkout's placeholder, nothing
 * an owner chose — 0700; returns those changed. An empty folder may be an owner's on purpose: it is
 * only reported.
 */
export function tightenFreshFolders(paths: string[]): string[] {
  const changed: string[] = [];
  for (const path of paths) {
    try {
      const st = statSync(path);
      if (!st.isDirectory() || (st.mode & 0o077) === 0) continue;
      const names = readdirSync(path);
      if (names.length !== 1 || names[0] !== ".gitkeep") continue;
      chmodSync(path, PRIVATE_DIR_MODE);
      changed.push(path);
    } catch {
      // missing, or not ours to change: the start-up check reports what stays loose
    }
  }
  return changed;
}

/** One line per existing path that other accounts may read or enter, with the command that fixes it. */
export function looseModeWarnings(paths: { label: string; path: string }[]): string[] {
  const out: string[] = [];
  for (const { label, path } of paths) {
    let mode: number;
    let dir: boolean;
    try {
      const st = statSync(path);
      mode = st.mode & 0o777;
      dir = st.isDirectory();
    } catch {
      continue;
    }
    if ((mode & 0o077) === 0) continue;
    const want = dir ? "700" : "600";
    out.push(`${label} ${path} is accessible to other accounts (mode ${mode.toString(8).padStart(3, "0")}); it holds bot tokens or keys: chmod ${want} ${path}`);
  }
  return out;
}
