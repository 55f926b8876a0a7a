// What the preview service works out on the event loop for a session, loaded with the first preview
// (cold start): the program it runs, generated off the event loop (and cached per project for a
// stored scenario), and a webhook_trigger's answer from the document that runs.
import { badRequest, ScenarioError } from "../../errors";
import { generateBot } from "../../scenario";
import { generatePreviewProgram, projectCache } from "../../scenario/codegen/off-thread";
import { hookNodesOf, hookVarsOf, type HookValue } from "../../scenario/hook-request";
import { normalizeDocument } from "../../scenario/model";
import { answerOf, hookSettingsIn } from "../hooks/service";
import { readStoredScenario, STORED_SCENARIO, storedOverLimit } from "../projects/document";

export interface ScenarioSource {
  projectName: string;
  userDatabaseEnabled: boolean;
  /** the scenario as JSON text: the stored row as it is, or an unsaved document the client sent */
  json: string;
  /**
   * For the stored row (checked against the limits in the worker; a corrupt row reads as empty):
   * its fingerprint, the program cache's key; absent for a document the client sent
   */
  stored?: { fingerprint: string };
}

/** The program as UTF-8 bytes (over a SharedArrayBuffer when the generator made it), and its warnings; a 400 for an unusable scenario. */
export async function previewProgram(projectId: number, source: ScenarioSource): Promise<{ code: Uint8Array; warnings: string[] }> {
  try {
    const opts = { projectName: source.projectName, userDatabaseEnabled: source.userDatabaseEnabled, enableLogging: true, preview: true };
    // A stored scenario's program is cached per project (an unchanged one starts again without
    // generating); a document the client sent is generated each time.
    const { stored, json } = source;
    const out = await generatePreviewProgram(json, opts, stored ? STORED_SCENARIO : undefined, stored ? projectCache(projectId, stored.fingerprint) : undefined);
    if ("limit" in out) throw storedOverLimit(out.limit);
    // A corrupt stored row reads as the empty document (readStoredScenario): small, generated here.
    const bot = "bot" in out ? out.bot : generateBot(readStoredScenario(json), opts);
    const code = "bot" in out && out.codeBytes ? out.codeBytes : new TextEncoder().encode(bot.code);
    return { code, warnings: bot.warnings.map((w) => (w.nodeId ? `${w.nodeId}: ${w.message}` : w.message)) };
  } catch (e) {
    if (e instanceof ScenarioError) throw badRequest(`The scenario cannot run: ${e.message}`, { issues: e.issues });
    throw e;
  }
}

/**
 * The webhook_trigger nodes of each running document, read at its first fired hook rather than at
 * each (a document is up to megabytes of JSON, parsed on the event loop). A session whose document
 * is replaced gets a new source (PreviewService.replaceDocument), so this never answers an old one.
 */
const hookNodesBySource = new WeakMap<ScenarioSource, Map<string, Record<string, unknown>>>();

/** A webhook_trigger of the running document fired with `body` (docs/hooks.md "In the preview"): its variables and its answer. */
export function previewHook(source: ScenarioSource, nodeId: string, body: Record<string, unknown>) {
  let nodes = hookNodesBySource.get(source);
  if (!nodes) hookNodesBySource.set(source, (nodes = hookNodesOf(normalizeDocument(readStoredScenario(source.json)))));
  const settings = hookSettingsIn(nodes, nodeId);
  const vars: Record<string, HookValue> = hookVarsOf(settings, body);
  return { vars, answer: answerOf(settings, vars) };
}
