// Projects as the bot API shows them (docs/api.md#bot-manager-api-apibot): summaries without data, create,
// rename, delete by any member, data replace, export and import. Records are written through
// ctx.projects so that versions, events and bot stopping happen in one place.
import { scenarioLimitProblem } from "../../lib/json-limits";
import { base64JsonStream, prettyJsonPieces } from "../../lib/json-stream";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { countNodes, normalizeDocument } from "../../scenario";
import {
  DEFAULT_IMPORT_NAME,
  DEFAULT_PROJECT_NAME,
  DESCRIPTION_MAX,
  nameFrom,
  parseTextBody,
  type ExportFile,
  type ProjectSummary,
} from "./model";
import { isObject } from "../../lib/values";

const summary = (p: { id: number; name: string; description: string }): ProjectSummary => ({ id: p.id, name: p.name, description: p.description });

/** Export file name from the project name: letters, digits, space, `-` and `_` survive. */
export function exportFileName(projectId: number, name: string): string {
  const base = name
    .normalize("NFC")
    .replace(/[^\p{L}\p{N} _-]+/gu, "_")
    .replace(/\s+/g, " ")
    .replace(/_+/g, "_")
    .trim()
    .slice(0, 80)
    .trim();
  return `${base && base !== "_" ? base : `project_${projectId}`}.json`;
}

/**
 * What an import (or data replace) body holds: the scenario document in any accepted form
 * (document, `{json_data}`, legacy flat, template record) and, for records, a name and description.
 */
export function readImport(body: unknown): { doc: Record<string, unknown>; name: string; description: string } {
  let value = body;
  // A document sent as a JSON string inside the body (double encoded): read it once more.
  if (typeof value === "string") value = parseTextBody(value);
  if (value === undefined) throw badRequest("Request body is empty: send a project.json document ({ sheets } or { json_data })");
  if (!isObject(value)) throw badRequest("project.json must be a JSON object with sheets (or json_data)");
  const doc = normalizeDocument(value);
  if (!isObject(doc) || !Array.isArray(doc.sheets)) {
    throw badRequest('Not a project document: expected "sheets" (an array), "json_data", a template record with "data", or the legacy "nodes"/"connections" form');
  }
  const name = nameFrom(value.name) || nameFrom(doc.name);
  const description = typeof value.description === "string" ? value.description.slice(0, DESCRIPTION_MAX) : "";
  return { doc, name, description };
}

export class BotProjectsService {
  constructor(private readonly ctx: AppContext) {}

  /** The caller's active projects (owned and shared), in the caller's own order; archived ones are hidden as in their list. */
  list(userId: number): ProjectSummary[] {
    return this.ctx.projects.listItems(userId, false).map(summary);
  }

  /** Never 400 (docs/api.md lists 200/401/403): an unusable body or name falls back to the default name. */
  create(userId: number, rawBody: unknown): { id: number; name: string } {
    let body: unknown;
    try {
      body = parseTextBody(rawBody);
    } catch {
      body = undefined;
    }
    const name = (isObject(body) && nameFrom(body.name)) || DEFAULT_PROJECT_NAME;
    const p = this.ctx.projects.create(userId, { name });
    return { id: p.id, name: p.name };
  }

  get(projectId: number, userId: number): ProjectSummary {
    this.ctx.access.require(projectId, userId);
    return summary(this.ctx.projects.getItem(projectId, userId));
  }

  rename(projectId: number, userId: number, name: string): { id: number; name: string } {
    this.ctx.access.require(projectId, userId);
    return this.ctx.projects.rename(projectId, userId, name);
  }

  /** Owner or collaborator (docs/api.md); bots stop and files go through ProjectsService.delete. */
  async remove(projectId: number, userId: number) {
    await this.ctx.projects.delete(projectId, userId, { allowCollaborator: true });
  }

  /** Replaces the scenario; the project's tokens stay as they are. */
  replaceData(projectId: number, userId: number, rawBody: unknown) {
    this.ctx.access.require(projectId, userId);
    const { doc } = readImport(parseTextBody(rawBody));
    const p = this.ctx.projects.replaceData(projectId, userId, doc, { commitMessage: "Data replaced through the bot API" });
    const { sheetsCount, nodesCount } = countNodes(doc);
    return { id: p.id, name: p.name, sheetsCount, nodesCount };
  }

  /** project.json is the scenario document itself, pretty-printed; importing it gives an equal document. */
  /**
   * docs/api.md's export file, `{ type: "file", data: <base64 of the pretty-printed project.json>, ... }`,
   * streamed: the document is printed and encoded a piece at a time instead of holding the text,
   * its base64 and the JSON answer around it in memory together (issue 12).
   */
  export(projectId: number, userId: number): Response {
    this.ctx.access.require(projectId, userId);
    const p = this.ctx.projects.getFull(projectId, userId);
    // Pretty-printing indents every level: a row stored before the limits could balloon (issue 12).
    const problem = scenarioLimitProblem(p.data, "The stored scenario");
    if (problem) throw badRequest(`${problem} (it was saved before this limit existed: save a smaller document)`);
    const meta: Omit<ExportFile, "data" | "type"> = { mimeType: "application/json", fileName: exportFileName(p.id, p.name) };
    const tail = JSON.stringify(meta).slice(1);
    const body = base64JsonStream('{"type":"file","data":"', prettyJsonPieces(p.data), `",${tail}`);
    return new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } });
  }

  /** A new project owned by the caller; no tokens come along (a record's `botToken` is ignored). */
  import(userId: number, rawBody: unknown): { id: number; name: string } {
    const { doc, name, description } = readImport(parseTextBody(rawBody));
    const p = this.ctx.projects.create(userId, { name: name || DEFAULT_IMPORT_NAME, description, data: doc });
    return { id: p.id, name: p.name };
  }
}
