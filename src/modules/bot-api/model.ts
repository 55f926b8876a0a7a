import { z } from "zod";
import { badRequest } from "../../errors";
import { DESCRIPTION_MAX, NAME_MAX } from "../projects/model";

export { DESCRIPTION_MAX, NAME_MAX };

/** docs/api.md: POST /api/bot/projects without a name. */
export const DEFAULT_PROJECT_NAME = "Новый проект";
/** Import of a document that carries no name of its own. */
export const DEFAULT_IMPORT_NAME = "Импортированный проект";

export const renameSchema = z.object({
  name: z.string({ error: "name must be a string" }).trim().min(1, "name is required").max(NAME_MAX, `name must be at most ${NAME_MAX} characters`),
});

/** `user_id` is an integer in docs/api.md; a numeric string is accepted too (template-built bodies quote everything). */
export const collaboratorAddSchema = z.object({
  user_id: z.union(
    [z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,16}$/).transform(Number).pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))],
    { error: "user_id must be a positive integer (a messenger user id)" },
  ),
});

export interface ProjectSummary {
  id: number;
  name: string;
  description: string;
}

export interface Collaborator {
  projectId: number;
  userId: number;
  invitedBy: number;
}

export interface ExportFile {
  type: "file";
  data: string;
  mimeType: string;
  fileName: string;
}


/**
 * Bodies of create, import and data replace are read as text (the bot-manager client posts the
 * downloaded project.json as `text/plain`), then parsed here. Empty → undefined.
 */
export function parseTextBody(raw: unknown): unknown {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "string") return raw;
  const text = raw.replace(/^\uFEFF/, "");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("Malformed request body: expected valid JSON");
  }
}

/** A display name: trimmed, cut to the column limit; "" when absent or not a string. */
export function nameFrom(v: unknown): string {
  return typeof v === "string" ? v.trim().slice(0, NAME_MAX).trim() : "";
}
