// Shapes of the scenario tables endpoints (docs/tables.md, docs/api.md "Scenario tables").
import { z } from "zod";

export const ROWS_PER_PAGE_DEFAULT = 50;
export const ROWS_PER_PAGE_MAX = 200;
/** An import body: CSV or a JSON array, up to 50 MB (docs/api.md#limits). */
export const IMPORT_MODES = ["append", "replace"] as const;
export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A cell as the API carries it: a blob travels as base64 text. */
export const cellSchema = z.union([z.string(), z.number(), z.null()]);
export type CellOut = z.infer<typeof cellSchema>;

export const columnSchema = z.object({
  name: z.string(),
  type: z.string().describe('the declared type as written ("" when none, as bot_table makes them)'),
  notNull: z.boolean(),
  primaryKey: z.boolean(),
});

export const tableSchema = z.object({
  name: z.string(),
  columns: z.array(columnSchema),
  rows: z.number().int(),
  readOnly: z.string().nullable().describe("why the server does not write this table (its schema would run code on a write), or null"),
  key: z.string().nullable().describe("the column that is the row's _id (an INTEGER PRIMARY KEY), or null when _id is the rowid"),
});
export const tableListSchema = z.object({ items: z.array(tableSchema) });
export type TableView = z.infer<typeof tableSchema>;

export const rowSchema = z.record(z.string(), cellSchema).describe("a row: its columns, and `_id` (the rowid)");
export type RowOut = z.infer<typeof rowSchema>;

export const rowPageSchema = z.object({
  items: z.array(rowSchema),
  total: z.number().int().describe("rows of the table, or matches of the search (counted up to totalCapped's limit)"),
  totalCapped: z.boolean().describe("a search matched more rows than were counted"),
  page: z.number().int(),
  perPage: z.number().int(),
});
export type RowPage = z.infer<typeof rowPageSchema>;

/** What a client may write to a cell: text, a number, true/false (1/0) or null. */
export const cellInSchema = z.union([z.string(), z.number(), z.boolean(), z.null()], { error: "a cell is text, a number, true/false or null" });
export const rowInSchema = z.record(z.string().max(256), cellInSchema, { error: "a row is an object of column: value" });
export type RowIn = z.infer<typeof rowInSchema>;

export const importAnswerSchema = z.object({ inserted: z.number().int() });
export const successSchema = z.object({ success: z.literal(true) });
