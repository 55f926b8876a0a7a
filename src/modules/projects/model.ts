// Shapes of docs/api.md#projects: request bodies (zod, shared by routes and services) and the two
// response records (full Project, ProjectListItem).
import { z } from "zod";

// 0/1 or a boolean; no zod transforms here, so the schemas stay representable in the OpenAPI docs.
const flag = z.union([z.literal(0), z.literal(1), z.boolean()]);
const bool = z.union([z.boolean(), z.literal(0), z.literal(1)]);
export type Flag = z.infer<typeof flag>;
export const toFlag = (v: Flag): 0 | 1 => (v === true || v === 1 ? 1 : 0);
const sortOrder = z.number().int().min(-1_000_000_000).max(1_000_000_000);

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 5000;

const name = z.string().trim().min(1, "name is required").max(NAME_MAX);
const description = z.string().max(DESCRIPTION_MAX);

/** POST /api/projects. Unknown fields (e.g. `ownerId`) are dropped: the owner comes from the session. */
export const createProjectSchema = z.object({
  name,
  description: description.optional(),
  data: z.unknown().optional(),
  userDatabaseEnabled: flag.optional(),
  sortOrder: sortOrder.optional(),
});

/**
 * PUT /api/projects/{id}: a partial update; anything not listed here is a 400. The record's own
 * read-only fields are accepted and ignored, so an editor may send back the record it read.
 */
const readOnly = z.unknown().optional();
export const updateProjectSchema = z.strictObject({
  id: readOnly,
  ownerId: readOnly,
  botToken: readOnly,
  sessionId: readOnly,
  createdAt: readOnly,
  updatedAt: readOnly,
  isArchivedForMe: readOnly,
  nodeCount: readOnly,
  sheetsCount: readOnly,
  name: name.optional(),
  description: description.optional(),
  data: z.unknown().optional(),
  userDatabaseEnabled: flag.optional(),
  sortOrder: sortOrder.optional(),
  adminIds: z.string().max(10_000).nullable().optional(),
  commitMessage: z.string().max(1000).nullable().optional(),
  agentEdit: bool.optional(),
  agentSessionId: z.string().max(200).nullable().optional(),
  agentDisplayName: z.string().max(200).nullable().optional(),
  restartOnUpdate: bool.optional(),
  /**
   * Optimistic concurrency: the `updatedAt` the editor's copy was read at. When the stored record
   * changed since, the update is refused with 409 and the current record. Absent: last write wins.
   */
  baseUpdatedAt: z.string().max(100).optional(),
});

export const adminIdsSchema = z.strictObject({ adminIds: z.string().max(10_000) });
export const adminIdRemoveSchema = z.strictObject({ adminId: z.union([z.string().max(100), z.number().int().positive()]) });
export const duplicateSchema = z.object({ name: name.optional() }).optional();
/** Only these two are read; anything else in the body is ignored (docs/api.md). */
export const generateSchema = z.object({ userDatabaseEnabled: bool.optional(), enableLogging: bool.optional() }).optional();

/** The answer of POST /api/projects/{id}/generate (documented in OpenAPI). */
export const generateResponseSchema = z.object({
  code: z.string(),
  lines: z.number().int(),
  generatedAt: z.number().int().describe("epoch milliseconds"),
  warnings: z
    .array(
      z.object({
        nodeId: z.string().nullable(),
        sheetId: z.string().nullable(),
        code: z
          .string()
          .describe(
            "a stable word: NODE_TYPE_OUT_OF_SCOPE, NODE_TYPE_UNKNOWN, DANGLING_TARGET, UNREACHABLE, " +
              "BUTTON_INCOMPLETE, TARGET_NOT_RUNNABLE, COMMAND_CONFLICT, QUESTION_MISSING, INVALID_DATA",
          ),
        message: z.string().describe("the English sentence"),
        detail: z
          .object({
            key: z.string().describe("the stable key of the generator's sentence, e.g. invoice.amountRange"),
            params: z
              .record(z.string(), z.union([z.string(), z.number()]))
              .describe("the values the sentence names, by slot: node (a node id), amount, max, …"),
          })
          .optional()
          .describe("the generator's own warnings: what a client needs to say the message in another language"),
      }),
    )
    .describe("what the generated bot skips or works around, per node"),
});
export const reorderSchema = z.strictObject({
  projectIds: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1, "projectIds must not be empty").max(10_000),
});

export type CreateProjectInput = {
  name: string;
  description?: string;
  data?: unknown;
  /** 0/1 (a boolean is accepted too) */
  userDatabaseEnabled?: number | boolean;
  sortOrder?: number;
};
export type ProjectPatch = z.output<typeof updateProjectSchema>;

export interface ProjectFull {
  id: number;
  ownerId: number;
  name: string;
  description: string;
  data: unknown;
  botToken: string | null;
  sessionId: string | null;
  userDatabaseEnabled: number;
  sortOrder: number;
  adminIds: string | null;
  createdAt: string;
  updatedAt: string;
  isArchivedForMe: boolean;
}

export const projectListItemSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  name: z.string(),
  description: z.string(),
  userDatabaseEnabled: z.number().int(),
  sortOrder: z.number().int(),
  adminIds: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nodeCount: z.number().int(),
  sheetsCount: z.number().int(),
  isArchivedForMe: z.boolean(),
});
export type ProjectListItem = z.output<typeof projectListItemSchema>;

export interface TeamEntry {
  userId: number;
  name: string;
  photoUrl: string | null;
}

export interface LaunchEntry {
  status: string;
  startedAt: string;
  stoppedAt: string | null;
  errorMessage: string | null;
}

export interface LogEntry {
  level: string;
  message: string;
  createdAt: string;
}
