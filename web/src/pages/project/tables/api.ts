// The Tables tab's records (typed from the server's OpenAPI document) and its calls.
import { api, del, get, patch, post } from "../../../api/client";
import type { Answer } from "../../../api/types";

export type TableList = Answer<"/api/projects/{id}/tables">;
export type TableItem = TableList["items"][number];
export type RowPage = Answer<"/api/projects/{id}/tables/{name}/rows">;
export type Row = RowPage["items"][number];
export type Cell = Row[string];

const base = (projectId: number, name?: string) => `/api/projects/${projectId}/tables${name === undefined ? "" : `/${encodeURIComponent(name)}`}`;

export const listTables = (projectId: number) => get<TableList>(base(projectId));
export const readRows = (projectId: number, name: string, query: { page: number; perPage: number; sort: string; order: "asc" | "desc"; search: string }) =>
  get<RowPage>(`${base(projectId, name)}/rows`, { query });
export const insertRow = (projectId: number, name: string, row: Record<string, Cell>) => post<Row>(`${base(projectId, name)}/rows`, row);
export const updateRow = (projectId: number, name: string, id: number, cells: Record<string, Cell>) => patch<Row>(`${base(projectId, name)}/rows/${id}`, cells);
export const deleteRow = (projectId: number, name: string, id: number) => del<{ success: true }>(`${base(projectId, name)}/rows/${id}`);
/** The file goes as it is: text/csv, or JSON for a .json file. */
export const importFile = (projectId: number, name: string, file: File, mode: "append" | "replace") => {
  const type = /\.json$/i.test(file.name) || file.type === "application/json" ? "application/json" : "text/csv";
  return api<{ inserted: number }>("POST", `${base(projectId, name)}/import`, new Blob([file], { type }), { query: { mode } });
};
/** A plain link: the browser streams the download itself (a large table never sits in the page). */
export const exportUrl = (projectId: number, name: string, format: "csv" | "json") => `${base(projectId, name)}/export?format=${format}`;
