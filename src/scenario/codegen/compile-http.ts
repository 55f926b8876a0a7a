// `http_request` nodes (field names of the reference editor: httpRequest*).
import { CompileContext, num, text, type RawNode } from "./compile-context";
import { varName } from "./compile-control";
import type { HttpNode } from "./runtime/logic-tables";

const METHODS = new Set<HttpNode["method"]>(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** A JSON-object template with {variables}: checked with placeholders standing in for values. */
function jsonTemplateProblem(template: string | undefined): boolean {
  if (!template || template.trim() === "") return false;
  // 0 reads as a number outside JSON strings and as text inside them.
  const probe = template.replace(/\{=?[^{}"]+\}/g, "0");
  try {
    const v = JSON.parse(probe);
    return v === null || typeof v !== "object" || Array.isArray(v);
  } catch {
    return true;
  }
}

function auth(d: Record<string, unknown>): HttpNode["auth"] {
  switch (d.httpRequestAuthType) {
    case "bearer": return { type: "bearer", value: text(d.httpRequestAuthBearerToken) ?? "" };
    case "basic": return { type: "basic", name: text(d.httpRequestAuthBasicUsername) ?? "", value: text(d.httpRequestAuthBasicPassword) ?? "" };
    case "header": return { type: "header", name: text(d.httpRequestAuthHeaderName), value: text(d.httpRequestAuthHeaderValue) ?? "" };
    case "query": return { type: "query", name: text(d.httpRequestAuthQueryName), value: text(d.httpRequestAuthQueryValue) ?? "" };
    default: return undefined;
  }
}

export function compileHttp(node: RawNode, ctx: CompileContext): HttpNode {
  const d = node.data;
  const method = (text(d.httpRequestMethod) ?? "GET").toUpperCase() as HttpNode["method"];
  const url = text(d.httpRequestUrl)?.trim() ?? "";
  if (!url) ctx.warn(node, "http.noUrl");
  if (!METHODS.has(method)) ctx.warn(node, "http.unknownMethod", { method });
  const headers = text(d.httpRequestHeaders);
  const query = text(d.httpRequestQueryParams);
  if (jsonTemplateProblem(headers)) ctx.warn(node, "http.badHeaders");
  if (jsonTemplateProblem(query)) ctx.warn(node, "http.badQuery");
  const format = d.httpRequestBodyFormat;
  const response = d.httpRequestResponseFormat;
  const path = text(d.httpRequestResponseJsonPath);
  const extractTo = varName(d.httpRequestResponseExtractTo);
  return {
    t: "http",
    id: node.id,
    method: METHODS.has(method) ? method : "GET",
    url,
    urlRaw: d.httpRequestUrlRaw === true ? true : undefined,
    headers: headers?.trim() === "{}" ? undefined : headers,
    query: query?.trim() === "{}" ? undefined : query,
    body: text(d.httpRequestBody),
    bodyFormat: format === "raw" ? "raw" : format === "form-urlencoded" || format === "form" ? "form" : "json",
    auth: auth(d),
    timeoutSeconds: Math.min(Math.max(num(d.httpRequestTimeout) ?? 30, 1), 300),
    response: response === "json" || response === "text" || response === "file" ? response : "auto",
    responseVar: varName(d.httpRequestResponseVariable) ?? (d.httpRequestResponseVariable === undefined ? "response" : undefined),
    statusVar: varName(d.httpRequestStatusVariable),
    extract: path && extractTo ? { path, variable: extractTo } : undefined,
    pages: d.httpRequestEnablePagination === true
      ? {
          mode: d.httpRequestPaginationMode === "fetch_all" ? "fetch_all" : "interactive",
          offsetVar: varName(d.httpRequestPaginationOffsetVar),
          totalField: text(d.httpRequestPaginationTotalField) ?? "count",
          itemsField: text(d.httpRequestPaginationItemsField) ?? "items",
          limit: Math.min(Math.max(Math.trunc(num(d.httpRequestPaginationLimit) ?? 10), 1), 1000),
          maxPages: Math.min(Math.max(Math.trunc(num(d.httpRequestPaginationMaxPages) ?? 20), 1), 100),
        }
      : undefined,
    ignoreSsl: d.httpRequestIgnoreSsl === true ? true : undefined,
    batch: batchOf(node, ctx, path),
    next: ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo"),
    adminOnly: d.adminOnly === true ? true : undefined,
  };
}

/** Batch mode (httpRequestBatch*, the older platform's names); undefined when off. */
function batchOf(node: RawNode, ctx: CompileContext, path: string | undefined): HttpNode["batch"] {
  const d = node.data;
  if (d.httpRequestBatchEnabled !== true) return undefined;
  const source = varName(d.httpRequestBatchSource);
  const result = varName(d.httpRequestBatchResultVariable);
  if (!source || !result) {
    ctx.warn(node, "http.batchIncomplete");
    return undefined;
  }
  const fields: { key: string; value: string }[] = [];
  for (const f of Array.isArray(d.httpRequestBatchResultFields) ? d.httpRequestBatchResultFields : []) {
    const key = f && typeof f === "object" ? text(f.key) : undefined;
    if (key) fields.push({ key, value: text(f.value) ?? "" });
  }
  return { source, item: varName(d.httpRequestBatchItemVar) ?? "item", result, path, fields };
}
