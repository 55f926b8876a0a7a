// Avatars of bots and of bot users, copied from the messenger platform into the local uploads
// folder so that clients get a stable `/uploads/...` path instead of a platform URL that would
// embed the bot token. File names are generated; nothing of the platform's path is trusted.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import type { AppContext } from "../../context";
import { randomBase62 } from "../../lib/crypto";
import { MessengerError } from "../../errors";

export type PhotoKind = "bot_photos" | "user_photos";

/** A cached avatar (or "none") is trusted this long before the platform is asked again. */
export const PHOTO_RECHECK_MS = 6 * 3600 * 1000;
/** Whole avatar fetch (up to three platform requests) must fit in the client's own timeout (15 s). */
export const PHOTO_DEADLINE_MS = 8000;
const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

const UPLOAD_URL = /^\/uploads\/(\d+)\/(bot_photos|user_photos)\/([A-Za-z0-9_-]{1,80}\.[a-z0-9]{1,5})$/;

export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MessengerError("unreachable", `The messenger platform did not answer ${what} in time`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Disk path of one of our avatar URLs; null for anything else (never a path outside the folder). */
export function uploadPathOf(uploadsDir: string, url: string | null | undefined): string | null {
  const m = url ? UPLOAD_URL.exec(url) : null;
  return m ? join(uploadsDir, m[1], m[2], m[3]) : null;
}

export function uploadExists(uploadsDir: string, url: string | null | undefined): boolean {
  const p = uploadPathOf(uploadsDir, url);
  return p !== null && existsSync(p);
}

export function removeUpload(uploadsDir: string, url: string | null | undefined) {
  const p = uploadPathOf(uploadsDir, url);
  if (p) rmSync(p, { force: true });
}

function safeExt(filePath: string): string {
  const ext = extname(filePath).toLowerCase();
  return /^\.[a-z0-9]{1,5}$/.test(ext) ? ext : ".jpg";
}

/**
 * Downloads the newest avatar of `subjectId` (a bot's own id or a user id) as seen by `token`.
 * Throws MessengerError when the platform fails; answers photoUrl null when there is no avatar.
 */
export async function fetchAvatar(
  ctx: AppContext,
  token: string,
  subjectId: number,
  projectId: number,
  kind: PhotoKind,
  namePrefix: string,
): Promise<{ photoUrl: string | null; totalCount: number }> {
  let expired = false;
  return withDeadline(
    (async () => {
      const { fileId, totalCount } = await ctx.messenger.newestPhotoFileId(token, subjectId);
      if (!fileId) return { photoUrl: null, totalCount };
      const { bytes, filePath } = await ctx.messenger.downloadFile(token, fileId, MAX_AVATAR_BYTES);
      // The caller already gave up: do not leave a file nobody references.
      if (expired) return { photoUrl: null, totalCount };
      const name = `${namePrefix}_${randomBase62(12)}${safeExt(filePath)}`;
      const dir = join(ctx.config.uploadsDir, String(projectId), kind);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, name), bytes);
      return { photoUrl: `/uploads/${projectId}/${kind}/${name}`, totalCount };
    })(),
    PHOTO_DEADLINE_MS,
    "the avatar request",
  ).catch((e) => {
    expired = true;
    throw e;
  });
}

/** Project delete: its avatar folders go with it (rows are removed by the FK cascade). */
export function removeProjectAvatars(uploadsDir: string, projectId: number) {
  for (const kind of ["bot_photos", "user_photos"] as const) rmSync(join(uploadsDir, String(projectId), kind), { recursive: true, force: true });
}
