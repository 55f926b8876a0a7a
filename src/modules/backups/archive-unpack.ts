// What restore reads of a backup archive (docs/cli.md "restore FILE"): the archive streams from its
// file through gunzip and the tar reader (tar-read.ts), each database written to the staging folder
// as it arrives, so a restore holds a chunk of the archive at a time, never the archive or a
// database in it.
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../lib/file-modes";
import { FORMAT, MANIFEST, PLATFORM_DB, PROJECT_DB_NAME, type Manifest } from "./archive-format";
import { readTar, TarError, type TarHeader } from "./tar-read";

const PROJECTS = "projects/";
/** The manifest is read whole: one this long is not a backup's (a list of project file names). */
const MAX_MANIFEST = 1 << 20;
const CHUNK = 1 << 16;

export interface Unpacked {
  manifest: Manifest;
  /** The project databases written to `<staging>/projects`, by file name. */
  projects: string[];
}

/** An archive a backup cannot be: refused with the reason. */
class NotABackup extends Error {}

/**
 * Unpacks the backup archive `file` (a .tar.gz, or the same tar not compressed) into `staging`:
 * botloom.db, and each project database into projects/. Only the entries a backup holds are
 * written, regular files under names of this code's making; anything else (`../` paths, links,
 * folders, other files) is read past and never written, so a hostile archive cannot write outside
 * `staging`. Returns what it held, or why it is not a backup archive.
 */
export async function unpackArchive(file: string, staging: string): Promise<Unpacked | string> {
  mkdirSync(join(staging, "projects"), { mode: PRIVATE_DIR_MODE });
  let manifest: Manifest | null = null;
  let platform = false;
  const projects: string[] = [];
  const seen = new Set<string>();

  async function entry(header: TarHeader, data: AsyncIterable<Uint8Array>) {
    const target = placeOf(header);
    if (target === null) return;
    // The writer writes each name once; a second one would silently replace the first.
    if (seen.has(header.name)) throw new NotABackup(`${header.name} is in it twice`);
    seen.add(header.name);
    if (header.name === MANIFEST) {
      manifest = parseManifest(await text(data, header.size));
      return;
    }
    await pipeline(data, createWriteStream(join(staging, target), { flags: "wx", mode: PRIVATE_FILE_MODE }));
    if (target === PLATFORM_DB) platform = true;
    else projects.push(target.slice(PROJECTS.length));
  }

  const read = (source: AsyncIterable<Uint8Array>) => readTar(source, entry);
  try {
    if (isGzip(file)) await pipeline(createReadStream(file, { highWaterMark: CHUNK }), createGunzip({ chunkSize: CHUNK }), read);
    else await pipeline(createReadStream(file, { highWaterMark: CHUNK }), read);
  } catch (e) {
    // zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR) say the gzip stream is damaged or cut short.
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof TarError || e instanceof NotABackup || (typeof code === "string" && code.startsWith("Z_"))) return `it is not a Botloom backup archive (${(e as Error).message})`;
    // The rest (a full disk, say) is not the archive's fault: said as it is.
    throw e;
  }
  if (!manifest || !platform) return "it is not a Botloom backup archive (no manifest or no botloom.db)";
  // The manifest lists what the backup wrote: an archive that lost or gained a project database
  // since was damaged or altered, and restoring it would silently drop or add a project's data.
  const listed = new Set((manifest as Manifest).projects);
  const missing = [...listed].filter((name) => !projects.includes(name));
  if (missing.length) return `it lacks project database${missing.length > 1 ? "s" : ""} its manifest lists (${missing.slice(0, 5).map((n) => PROJECTS + n).join(", ")}): the archive is damaged`;
  const unlisted = projects.filter((name) => !listed.has(name));
  if (unlisted.length) return `it holds project database${unlisted.length > 1 ? "s" : ""} its manifest does not list (${unlisted.slice(0, 5).map((n) => PROJECTS + n).join(", ")}): the archive was altered`;
  return { manifest, projects };
}

/** Where in the staging folder an entry goes: the entries a backup holds, by their exact names; null for any other. */
function placeOf(header: TarHeader): string | null {
  if (!header.file) return null;
  if (header.name === MANIFEST || header.name === PLATFORM_DB) return header.name;
  const name = header.name.slice(PROJECTS.length);
  return header.name.startsWith(PROJECTS) && PROJECT_DB_NAME.test(name) ? header.name : null;
}

/** The manifest, or null when it is not a Botloom backup's (the archive is then refused for that). */
function parseManifest(text: string): Manifest | null {
  try {
    const m = JSON.parse(text);
    const names = m?.projects;
    const listsProjects = Array.isArray(names) && names.every((n: unknown) => typeof n === "string" && PROJECT_DB_NAME.test(n));
    return m && m.format === FORMAT && listsProjects ? (m as Manifest) : null;
  } catch {
    return null;
  }
}

async function text(data: AsyncIterable<Uint8Array>, size: number): Promise<string> {
  if (size > MAX_MANIFEST) throw new NotABackup(`its ${MANIFEST} has ${size} bytes`);
  const bytes = new Uint8Array(size);
  let at = 0;
  for await (const piece of data) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return new TextDecoder().decode(bytes);
}

function isGzip(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = new Uint8Array(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}
