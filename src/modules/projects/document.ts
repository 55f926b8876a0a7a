// The scenario document as projects store it (SCENARIO.md "Document"): checks only what would make
// it unusable, normalises the legacy flat form to one sheet, and counts nodes and sheets for the
// cached columns. Everything else (unknown keys, `edges` vs `connections`) is kept as given.
import { badRequest } from "../../http/errors";

export const DEFAULT_DATA = () => ({ sheets: [{ id: "sheet-1", name: "Main", nodes: [], edges: [] }] });

export interface ScenarioDocument {
  doc: Record<string, unknown> & { sheets: unknown[] };
  /** JSON text as stored in projects.data / project_versions.data. */
  json: string;
  nodeCount: number;
  sheetsCount: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v);

/** `{ json_data: <document or its JSON text> }` (bot API import and data replace). */
export function unwrapJsonData(body: unknown): unknown {
  if (!isObject(body) || !("json_data" in body)) return body;
  const inner = body.json_data;
  if (typeof inner !== "string") return inner;
  try {
    return JSON.parse(inner);
  } catch {
    throw badRequest("json_data is not valid JSON");
  }
}

/** Legacy `{ nodes, connections }` → one sheet; other top-level keys stay where they are. */
function toSheets(raw: Record<string, unknown>): Record<string, unknown> & { sheets: unknown[] } {
  if (Array.isArray(raw.sheets)) return raw as Record<string, unknown> & { sheets: unknown[] };
  if (raw.sheets === undefined && Array.isArray(raw.nodes)) {
    const { nodes, edges, connections, ...rest } = raw;
    const sheet: Record<string, unknown> = { id: "sheet-1", name: "Main", nodes };
    if (connections !== undefined) sheet.connections = connections;
    if (edges !== undefined || connections === undefined) sheet.edges = edges ?? [];
    return { ...rest, sheets: [sheet] };
  }
  const got = raw.sheets === undefined ? "it is missing" : `got ${kindOf(raw.sheets)}`;
  throw badRequest(`data: "sheets" must be an array of sheets (${got})`);
}

/** Validates and normalises a scenario document; 400 with a readable message when unusable. */
export function parseDocument(raw: unknown): ScenarioDocument {
  if (!isObject(raw)) throw badRequest(`data must be a JSON object, got ${kindOf(raw)}`);
  const doc = toSheets(raw);
  const problems: string[] = [];
  const seen = new Set<string>();
  let nodeCount = 0;
  doc.sheets.forEach((sheet, si) => {
    if (!isObject(sheet)) return void problems.push(`sheet #${si + 1} must be an object, got ${kindOf(sheet)}`);
    if (sheet.nodes === undefined) return;
    if (!Array.isArray(sheet.nodes)) return void problems.push(`"nodes" of sheet #${si + 1} must be an array, got ${kindOf(sheet.nodes)}`);
    for (const [ni, node] of sheet.nodes.entries()) {
      nodeCount++;
      if (!isObject(node)) {
        problems.push(`node #${ni + 1} of sheet #${si + 1} must be an object`);
        continue;
      }
      if (typeof node.id !== "string" || node.id.trim() === "") problems.push(`node #${ni + 1} of sheet #${si + 1} has no "id"`);
      else if (seen.has(node.id)) problems.push(`duplicate node id "${node.id}"`);
      else seen.add(node.id);
      if (typeof node.type !== "string" || node.type.trim() === "") problems.push(`node #${ni + 1} of sheet #${si + 1} has no "type"`);
    }
  });
  if (problems.length) {
    throw badRequest(`data is not a usable scenario: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ""}`, {
      issues: problems.slice(0, 50).map((message) => ({ message })),
    });
  }
  return { doc, json: JSON.stringify(doc), nodeCount, sheetsCount: doc.sheets.length };
}

/** Parses stored JSON text (never fails on our own rows; a corrupt row reads as an empty document). */
export function readStored(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return DEFAULT_DATA();
  }
}
