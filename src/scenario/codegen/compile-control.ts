// `loop`, `parallel_split` and `convert_file` nodes (field names of the reference editor).
import { CompileContext, num, text, type RawNode } from "./compile-context";
import type { ConvertNode, LoopNode, ParallelNode } from "./runtime/logic-tables";

const adminOnly = (node: RawNode) => (node.data.adminOnly === true ? (true as const) : undefined);

/** A variable name given as "name" or "{name}". */
export const varName = (v: unknown): string | undefined => text(v)?.trim().replace(/^\{(.+)\}$/, "$1");

export function compileLoop(node: RawNode, ctx: CompileContext): LoopNode {
  const d = node.data;
  const source = varName(d.sourceVariable) ?? "";
  if (!source) ctx.warn(node, "loop.noSource");
  return {
    t: "loop",
    id: node.id,
    source,
    item: varName(d.itemVariable) ?? "item",
    index: varName(d.indexVariable) ?? "index",
    limit: Math.max(0, Math.trunc(num(d.maxIterations) ?? 0)),
    delaySeconds: Math.max(0, num(d.delaySeconds) ?? 0),
    body: ctx.target(node, text(d.autoTransitionTo), "loop body (autoTransitionTo)"),
    after: ctx.target(node, text(d.afterLoopTo), "afterLoopTo"),
    adminOnly: adminOnly(node),
  };
}

export function compileParallel(node: RawNode, ctx: CompileContext): ParallelNode {
  const d = node.data;
  const branches: ParallelNode["branches"] = [];
  for (const b of Array.isArray(d.parallelBranches) ? d.parallelBranches : []) {
    if (!b || typeof b !== "object") continue;
    const label = text(b.label) ?? text(b.id) ?? `branch ${branches.length + 1}`;
    const target = ctx.target(node, text(b.target), { branch: label });
    if (!target) continue;
    branches.push({ label, target, onError: ctx.target(node, text(b.onErrorTarget), { branch: label, onError: true }) });
  }
  if (branches.length === 0) ctx.warn(node, "parallel.noBranches");
  return {
    t: "parallel",
    id: node.id,
    branches,
    maxConcurrent: Math.max(0, Math.trunc(num(d.maxConcurrent) ?? 0)),
    // only an explicit false: without the field the branches finish first, as before (docs/nodes/logic.md)
    awaitAll: d.awaitAll === false ? false : undefined,
    overlap: d.awaitAll === false && d.skipIfRunning === false ? true : undefined,
    next: ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo"),
    adminOnly: adminOnly(node),
  };
}

export function compileConvertFile(node: RawNode, ctx: CompileContext): ConvertNode {
  const d = node.data;
  const format = d.convertFileFormat === "json" ? "json" : "csv";
  const input = varName(d.convertFileInputVariable) ?? "";
  const output = varName(d.convertFileOutputVariable) ?? "";
  if (!input) ctx.warn(node, "convert.noInput");
  if (!output) ctx.warn(node, "convert.noOutput");
  return {
    t: "convert",
    id: node.id,
    input,
    format,
    fileName: text(d.convertFileFileName) ?? `export_{date}.${format}`,
    delimiter: typeof d.convertFileCsvDelimiter === "string" && d.convertFileCsvDelimiter !== "" ? d.convertFileCsvDelimiter.replace("\\t", "\t") : ",",
    header: d.convertFileIncludeHeaderRow !== false,
    output: output || "converted_file",
    next: ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo"),
    adminOnly: adminOnly(node),
  };
}
