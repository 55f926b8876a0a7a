// The scenario document as projects store it (docs/scenario.md#the-document): rejects only what would
// make it unusable, normalises the legacy flat form to one sheet, and counts nodes and sheets for
// the cached columns. Everything else (unknown keys, `edges` vs `connections`) is kept as given.
import { badRequest, ScenarioError } from "../../errors";
import { countNodes, normalizeDocument, validateScenario } from "../../scenario";
import { isObject, kindOf } from "../../lib/values";
import { scenarioLimitProblem } from "../../lib/json-limits";

export const DEFAULT_DATA = () => ({ sheets: [{ id: "sheet-1", name: "Main", nodes: [], edges: [] }] });

/** A document that passed parseDocument: the normalised document, its JSON text and its counts. */
export interface ParsedDocument {
  doc: Record<string, unknown> & { sheets: unknown[] };
  /** JSON text as stored in projects.data / project_versions.data. */
  json: string;
  nodeCount: number;
  sheetsCount: number;
}


/**
 * Validates and normalises a scenario document with the scenario engine's own checks (the same
 * ones generate and start apply); 400 with the engine's messages when unusable.
 */
export function parseDocument(raw: unknown): ParsedDocument {
  // Only objects here: a JSON string inside `data` is a client mistake, not a document.
  if (!isObject(raw)) throw badRequest(`data must be a JSON object, got ${kindOf(raw)}`);
  // Limits first (before anything recursive walks it), on the input and on what a JSON string in
  // it (json_data, a template record's data) turned into.
  const rawProblem = scenarioLimitProblem(raw);
  if (rawProblem) throw badRequest(rawProblem);
  const doc = normalizeDocument(raw);
  const problem = doc === raw ? null : scenarioLimitProblem(doc);
  if (problem) throw badRequest(problem);
  const { errors } = validateScenario(doc);
  if (errors.length > 0 || !isObject(doc) || !Array.isArray(doc.sheets)) {
    const err = new ScenarioError(errors.length ? errors : [{ message: '"sheets" must be an array of sheets.' }]);
    throw badRequest(`data is not a usable scenario: ${err.message}`, { issues: err.issues.slice(0, 50) });
  }
  const { nodesCount, sheetsCount } = countNodes(doc);
  return { doc: doc as ParsedDocument["doc"], json: JSON.stringify(doc), nodeCount: nodesCount, sheetsCount };
}

/**
 * A stored scenario about to be walked (generate, export): rows stored before the limits existed
 * may break them, and are then a 400 naming the limit instead of a walk that overflows or balloons.
 */
export function readStoredScenario(json: string): unknown {
  const doc = readStored(json);
  const problem = scenarioLimitProblem(doc, STORED_SCENARIO);
  if (problem) throw storedOverLimit(problem);
  return doc;
}

/** How a limit problem names a stored scenario. */
export const STORED_SCENARIO = "The stored scenario";

/** A stored scenario over a limit: what to do about it. */
export const storedOverLimit = (problem: string) => badRequest(`${problem} (it was saved before this limit existed: save a smaller document)`);

/** Parses stored JSON text (never fails on our own rows; a corrupt row reads as an empty document). */
export function readStored(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return DEFAULT_DATA();
  }
}
