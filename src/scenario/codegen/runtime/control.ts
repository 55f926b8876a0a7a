// Runtime source: loop, parallel_split and convert_file, and the dispatch of the logic and data
// nodes (http_request lives in http.ts). (Part of every generated bot; see types.ts.)
import { InputFile } from "grammy";
import { runAi } from "./ai";
import { listOf } from "./assign";
import { runSql, runTable } from "./data";
import { structured } from "./expr";
import { go, log } from "./flow";
import { runHttp } from "./http";
import { stopping } from "./launch";
import { saveState, states } from "./storage";
import type { ConvertNode, LogicNode, LoopNode, ParallelNode } from "./logic-tables";
import type { Turn } from "./types";
import { type FileRef, isFileRef, isFilled, pad2, readVar, render, toText } from "./values";

// ─── Logic and data nodes ──────────────────────────────────────────────────────

/** Loops and parallel branches may not run longer than this many body runs per update. */
export const MAX_ITERATIONS = 1000;

export function nodeError(turn: Turn, node: { id: string }, what: string) {
  console.error("[chat " + turn.chatId + "] node " + node.id + ": " + what);
}

/** Runs a logic or data node; returns the node that follows. */
export async function runLogicNode(turn: Turn, node: LogicNode): Promise<string | undefined> {
  switch (node.t) {
    case "http": return runHttp(turn, node);
    case "loop": return runLoop(turn, node);
    case "parallel": return runParallel(turn, node);
    case "convert": return runConvert(turn, node);
    case "table": return runTable(turn, node);
    case "sql": return runSql(turn, node);
    case "ai": return runAi(turn, node);
  }
}

/** A branch of the flow with its own step budget (a loop body, a parallel branch). */
export async function subFlow(turn: Turn, target: string, via: string): Promise<void> {
  const depth = (turn.depth ?? 0) + 1;
  if (depth > 5) return console.error("[chat " + turn.chatId + "] loops and parallel branches nest deeper than 5 levels at " + target + "; stopped");
  const branch: Turn = { ...turn, steps: 0, depth };
  await go(branch, target, via);
}

export async function runLoop(turn: Turn, node: LoopNode): Promise<string | undefined> {
  const raw = readVar(turn, node.source);
  const items = listOf(raw);
  if (!items) {
    nodeError(turn, node, "loop over " + node.source + ", which holds " + (raw === undefined ? "nothing" : "no list") + "; the loop is skipped");
    return node.after;
  }
  const limit = Math.min(node.limit > 0 ? node.limit : MAX_ITERATIONS, MAX_ITERATIONS);
  if (items.length > limit) log(turn, "loop " + node.id + ": " + items.length + " items, the first " + limit + " run");
  const vars = turn.state.vars;
  for (let i = 0; i < Math.min(items.length, limit); i++) {
    if (stopping) break;
    if (i > 0 && node.delaySeconds > 0) await Bun.sleep(node.delaySeconds * 1000);
    vars[node.item] = items[i];
    if (node.index) vars[node.index] = i;
    if (node.body) await subFlow(turn, node.body, node.id);
  }
  return node.after;
}

/** "<chat> <node>" of parallel_split runs whose branches go on in the background. */
export const runningSplits = new Set<string>();

export async function runParallel(turn: Turn, node: ParallelNode): Promise<string | undefined> {
  const queue = [...node.branches];
  const width = node.maxConcurrent > 0 ? node.maxConcurrent : queue.length;
  const worker = async () => {
    for (let b = queue.shift(); b; b = queue.shift()) {
      try {
        await subFlow(turn, b.target, node.id);
      } catch (err) {
        nodeError(turn, node, "branch " + JSON.stringify(b.label) + " failed: " + (err instanceof Error ? err.message : String(err)));
        if (b.onError) await subFlow(turn, b.onError, node.id);
      }
    }
  };
  if (node.awaitAll !== false) {
    await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
    return node.next;
  }
  // Fire and forget, as the older platform's default: the chat's next update does not wait for the
  // branches; what they store is saved when the last one ends (the update saved its own already).
  // Unless overlap is allowed, the chat's next run of this node stops there while they run
  // (skipIfRunning): two runs would mix their counters in the same variables.
  const key = turn.chatId + " " + node.id;
  if (!node.overlap && runningSplits.has(key)) {
    log(turn, "parallel_split " + node.id + ": its branches still run for this chat; this run stops here");
    return undefined;
  }
  runningSplits.add(key);
  void Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker))
    .catch((err) => nodeError(turn, node, "a branch's onErrorTarget failed: " + (err instanceof Error ? err.message : String(err))))
    .then(() => {
      runningSplits.delete(key);
      // a chat forgotten meanwhile (its user deleted on the platform) has no state to write back
      if (states.get(turn.chatId) === turn.state) saveState(turn);
    });
  log(turn, "parallel_split " + node.id + ": " + node.branches.length + " branches go on in the background");
  return node.next;
}

/** One CSV field: quoted when it holds the delimiter, a quote or a line break. */
export function csvField(value: unknown, delimiter: string): string {
  const s = value !== null && typeof value === "object" ? JSON.stringify(value) : toText(value);
  return s.includes(delimiter) || /["\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function runConvert(turn: Turn, node: ConvertNode): string | undefined {
  const raw = structured(readVar(turn, node.input));
  const rows = Array.isArray(raw) ? raw : isFilled(raw) ? [raw] : [];
  let body: string;
  if (node.format === "json") {
    body = JSON.stringify(rows, null, 2);
  } else {
    const columns: string[] = [];
    for (const row of rows) {
      if (row === null || typeof row !== "object" || Array.isArray(row)) continue;
      for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
    }
    const lines = node.header && columns.length > 0 ? [columns.map((c) => csvField(c, node.delimiter)).join(node.delimiter)] : [];
    for (const row of rows) {
      if (row !== null && typeof row === "object" && !Array.isArray(row)) {
        const r = row as Record<string, unknown>;
        lines.push(columns.map((c) => csvField(r[c], node.delimiter)).join(node.delimiter));
      } else {
        lines.push(csvField(row, node.delimiter));
      }
    }
    // UTF-8 with a byte order mark, as the platform's own CSV downloads: without it Excel, where
    // most people open a file a bot sent, reads Cyrillic as mojibake (docs/nodes/data.md).
    body = "\ufeff" + lines.join("\r\n");
  }
  const now = new Date();
  const stamp = now.getFullYear() + pad2(now.getMonth() + 1) + pad2(now.getDate());
  const fileName = render(turn, node.fileName.replace(/\{date\}/g, stamp)).replace(/[\\/]/g, "_") || "export." + node.format;
  const file: FileRef = {
    type: "file",
    value: fileName,
    fileName,
    mimeType: node.format === "csv" ? "text/csv" : "application/json",
    data: Buffer.from(body, "utf8").toString("base64"),
  };
  turn.state.vars[node.output] = file;
  log(turn, "convert_file " + node.id + ": " + fileName + " (" + rows.length + " rows)");
  return node.next;
}

/** A generated or downloaded file (convert_file, http_request file answers) as an upload. */
export function fileUpload(value: unknown): InputFile | undefined {
  if (!isFileRef(value) || value.type !== "file" || !value.data) return undefined;
  return new InputFile(new Uint8Array(Buffer.from(value.data, "base64")), value.fileName || "file");
}
