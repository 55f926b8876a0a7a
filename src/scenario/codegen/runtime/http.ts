// Runtime source: http_request, the token's env variables as scenario variables, and the masking
// of the bot token in everything the bot prints. (Part of every generated bot; see types.ts.)
import { listOf, valueAt } from "./assign";
import { MAX_ITERATIONS, nodeError } from "./control";
import { evalExpr } from "./expr";
import { log } from "./flow";
import type { HttpNode } from "./logic-tables";
import { API_ROOT, BOT_TOKEN, env, parseJson } from "./storage";
import type { Turn, Vars } from "./types";
import { PLACEHOLDER_OR_EXPR, evaluate, readVar, render, toNumber, toText } from "./values";

// ─── Secrets never printed; env variables of the token ─────────────────────────

/** The token's own env variables (set in the platform) read like scenario variables: {NAME}. */
export const SCENARIO_ENV = new Set((env.BOTLOOM_ENV_KEYS ?? "").split(",").map((s) => s.trim()).filter(Boolean));

/**
 * The token and the token's secret env values (PATs, API keys) never appear in output, in any form
 * the bot itself gives them: http_request logs URLs whose query values are percent-encoded (the
 * token's ":" is "%3A"), and basic auth is base64. Longest first.
 */
export const SECRET_ENV = (env.BOTLOOM_SECRET_KEYS ?? "").split(",").map((s) => s.trim()).filter((k) => SCENARIO_ENV.has(k));
export const secretForms = (s: string) => [s, encodeURIComponent(s), encodeURI(s), new URLSearchParams({ v: s }).toString().slice(2), Buffer.from(s).toString("base64"), Buffer.from(s).toString("base64url")];
export const SECRETS = [...new Set([BOT_TOKEN, ...SECRET_ENV.map((k) => env[k] ?? "")].filter((s) => s.length >= 8).flatMap(secretForms))].sort((a, b) => b.length - a.length);

export function maskSecrets(text: string): string {
  let out = text;
  for (const s of SECRETS) out = out.split(s).join("***");
  return out;
}

// Every line the bot prints goes through the mask: the token appears in Bot API file URLs that
// http_request nodes build with {bot_token}, and in errors that quote them.
for (const level of ["log", "info", "warn", "error"] as const) {
  const print = console[level].bind(console);
  console[level] = (...args: unknown[]) =>
    print(...args.map((a) => (typeof a === "string" ? maskSecrets(a) : a !== null && typeof a === "object" ? maskSecrets(Bun.inspect(a)) : a)));
}

// ─── http_request ──────────────────────────────────────────────────────────────

/** Answers larger than this are refused rather than kept in a chat's variables. */
export const HTTP_MAX_BYTES = 20 * 1024 * 1024;
export const PUBLIC_API = "https://api.telegram.org";

/** A value placed inside a JSON string literal of a template. */
export const jsonInner = (value: unknown) => JSON.stringify(toText(value)).slice(1, -1);

/** Renders a JSON template: "{x}" alone keeps x's value; elsewhere values are escaped for a JSON string. */
export function renderJson(turn: Turn, template: string): string {
  if (/^\{=?[^{}]+\}$/.test(template.trim())) {
    const whole = evaluate(turn, template.trim());
    return typeof whole === "string" ? whole : JSON.stringify(whole ?? null);
  }
  return template.replace(PLACEHOLDER_OR_EXPR, (_, expr: string | undefined, name: string | undefined) =>
    jsonInner(expr !== undefined ? evalExpr(turn, expr) : readVar(turn, name!)),
  );
}

/** A JSON object of strings out of a template ("" → {}); throws with a clear message otherwise. */
export function jsonObject(turn: Turn, template: string | undefined, what: string): Record<string, string> {
  if (!template || template.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(renderJson(turn, template));
  } catch {
    throw new Error(what + " are not valid JSON: " + JSON.stringify(template.slice(0, 80)));
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(what + " must be a JSON object");
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed)) out[k] = toText(v);
  return out;
}

/** Bot API calls go to the configured messenger root, so local Bot API servers and tests work. */
export function apiUrl(url: string): string {
  return url.startsWith(PUBLIC_API) && API_ROOT !== PUBLIC_API ? API_ROOT.replace(/\/+$/, "") + url.slice(PUBLIC_API.length) : url;
}

export function requestBody(turn: Turn, node: HttpNode, headers: Headers): string | undefined {
  if (node.method === "GET" || node.body === undefined || node.body.trim() === "") return undefined;
  if (node.bodyFormat === "raw") return render(turn, node.body);
  if (node.bodyFormat === "form") {
    if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded");
    const trimmed = node.body.trim();
    if (trimmed.startsWith("{")) return new URLSearchParams(jsonObject(turn, trimmed, "form fields")).toString();
    return trimmed.replace(PLACEHOLDER_OR_EXPR, (_, expr: string | undefined, name: string | undefined) =>
      encodeURIComponent(toText(expr !== undefined ? evalExpr(turn, expr) : readVar(turn, name!))),
    );
  }
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return renderJson(turn, node.body);
}

export function fileNameOf(res: Response, url: string): string {
  const disposition = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get("content-disposition") ?? "");
  const fromUrl = new URL(url).pathname.split("/").pop() ?? "";
  return decodeURIComponent(disposition?.[1] ?? fromUrl) || "file";
}

/** Reads the answer as the node asks: JSON, text, or a file object ({ type: "file", data: base64 }). */
export async function readAnswer(res: Response, node: HttpNode, url: string): Promise<unknown> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > HTTP_MAX_BYTES) throw new Error("the answer is larger than " + HTTP_MAX_BYTES + " bytes");
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > HTTP_MAX_BYTES) throw new Error("the answer is larger than " + HTTP_MAX_BYTES + " bytes");
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  const isText = /json|text|xml|javascript|x-www-form-urlencoded/.test(type) || type === "";
  const mode = node.response === "auto" ? (type.includes("json") ? "json" : isText ? "text" : "file") : node.response;
  if (mode === "file") {
    const fileName = fileNameOf(res, url);
    return { type: "file", value: fileName, fileName, mimeType: type.split(";")[0] || "application/octet-stream", data: Buffer.from(bytes).toString("base64") };
  }
  const text = new TextDecoder().decode(bytes);
  if (mode === "json" || (node.response === "auto" && /^\s*[[{]/.test(text))) return parseJson<unknown>(text, text);
  return text;
}

/** Interactive paging: where the user is in the list, stored on the answer itself. */
export function pageFields(answer: unknown, pages: NonNullable<HttpNode["pages"]>, offset: number) {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return;
  const a = answer as Record<string, unknown>;
  const total = Math.max(0, Math.trunc(toNumber(a[pages.totalField]) ?? 0));
  const next = offset + pages.limit < total ? offset + pages.limit : undefined;
  const prev = offset > 0 ? Math.max(0, offset - pages.limit) : undefined;
  a.nextOffset = next === undefined ? "" : String(next);
  a.prevOffset = prev === undefined ? "" : String(prev);
  a.currentPage = String(Math.floor(offset / pages.limit) + 1);
  a.totalPages = String(Math.ceil(total / pages.limit));
}

/** fetch_all: the next pages (limit/offset in the query), their items joined to the first answer's. */
export async function fetchAllPages(turn: Turn, node: HttpNode, first: unknown, url: string, headers: Headers) {
  const pages = node.pages!;
  if (first === null || typeof first !== "object" || Array.isArray(first)) return;
  const a = first as Record<string, unknown>;
  const items = Array.isArray(a[pages.itemsField]) ? [...(a[pages.itemsField] as unknown[])] : [];
  const total = Math.trunc(toNumber(a[pages.totalField]) ?? 0);
  for (let page = 1, offset = pages.limit; offset < total && page < pages.maxPages; page++, offset += pages.limit) {
    const next = new URL(url);
    next.searchParams.set("limit", String(pages.limit));
    next.searchParams.set("offset", String(offset));
    const res = await fetch(next, { headers, signal: AbortSignal.timeout(node.timeoutSeconds * 1000), ...tlsOptions(node) });
    const data = await readAnswer(res, { ...node, response: "json" }, next.toString());
    const more = data !== null && typeof data === "object" ? (data as Record<string, unknown>)[pages.itemsField] : undefined;
    if (!Array.isArray(more) || more.length === 0) break;
    items.push(...more);
  }
  a[pages.itemsField] = items;
  a[pages.totalField] = items.length;
}

/** The fetch options a node's TLS setting adds (ignoreSsl: any certificate; which addresses may be called is not its business). */
export function tlsOptions(node: HttpNode): { tls?: { rejectUnauthorized: false } } {
  return node.ignoreSsl ? { tls: { rejectUnauthorized: false } } : {};
}

/** The request a node makes for this turn's variables: its URL (query and auth applied), headers and body. */
export function buildRequest(turn: Turn, node: HttpNode): { target: URL; headers: Headers; body: string | undefined } {
  const url = apiUrl(render(turn, node.url).trim());
  if (!/^https?:\/\//i.test(url)) throw new Error("the URL " + JSON.stringify(url) + " is not an http(s) address");
  const target = new URL(url);
  for (const [k, v] of Object.entries(jsonObject(turn, node.query, "query parameters"))) target.searchParams.set(k, v);
  const headers = new Headers(jsonObject(turn, node.headers, "headers"));
  const auth = node.auth;
  if (auth?.type === "bearer") headers.set("authorization", "Bearer " + render(turn, auth.value));
  else if (auth?.type === "basic") headers.set("authorization", "Basic " + Buffer.from(render(turn, auth.name ?? "") + ":" + render(turn, auth.value)).toString("base64"));
  else if (auth?.type === "header" && auth.name) headers.set(render(turn, auth.name), render(turn, auth.value));
  else if (auth?.type === "query" && auth.name) target.searchParams.set(render(turn, auth.name), render(turn, auth.value));
  const body = requestBody(turn, node, headers);
  return { target, headers, body };
}

export async function runHttp(turn: Turn, node: HttpNode): Promise<string | undefined> {
  if (node.batch) return runHttpBatch(turn, node, node.batch);
  const vars = turn.state.vars;
  let url = "";
  const pages = node.pages;
  let offset = 0;
  if (pages?.mode === "interactive" && pages.offsetVar) {
    const current = toText(readVar(turn, pages.offsetVar)).trim();
    if (!/^-?\d+$/.test(current)) vars[pages.offsetVar] = "0";
    offset = Math.max(0, Number(/^-?\d+$/.test(current) ? current : "0"));
  }
  try {
    url = apiUrl(render(turn, node.url).trim());
    const { target, headers, body } = buildRequest(turn, node);
    url = target.toString();
    const res = await fetch(target, { method: node.method, headers, body, signal: AbortSignal.timeout(node.timeoutSeconds * 1000), redirect: "follow", ...tlsOptions(node) });
    const answer = await readAnswer(res, node, url);
    if (pages?.mode === "interactive") pageFields(answer, pages, offset);
    else if (pages?.mode === "fetch_all" && res.ok) await fetchAllPages(turn, node, answer, url, headers);
    if (node.statusVar) vars[node.statusVar] = res.status;
    if (node.responseVar) vars[node.responseVar] = answer;
    if (node.extract) vars[node.extract.variable] = valueAt(answer, render(turn, node.extract.path)) ?? "";
    if (res.ok) log(turn, "http " + node.method + " " + url + " → " + res.status);
    else nodeError(turn, node, node.method + " " + url + " answered " + res.status);
  } catch (err) {
    const reason = failure(err, node);
    nodeError(turn, node, "http_request " + node.method + " " + (url || node.url) + " failed: " + reason);
    if (node.statusVar) vars[node.statusVar] = 0;
    if (node.responseVar) vars[node.responseVar] = { error: reason };
  }
  return node.next;
}

export function failure(err: unknown, node: HttpNode): string {
  return err instanceof Error ? (err.name === "TimeoutError" ? "no answer within " + node.timeoutSeconds + " s" : err.message) : String(err);
}

/** Batch requests run this many at a time (the older platform sent them all at once). */
export const HTTP_BATCH_WIDTH = 10;

/**
 * Batch mode: one request per item of a list, side by side, each rendered with the item as a
 * variable; one result object per item, in the list's order. A failed item yields "" where its
 * answer would be and a log line; the others are kept.
 */
export async function runHttpBatch(turn: Turn, node: HttpNode, batch: NonNullable<HttpNode["batch"]>): Promise<string | undefined> {
  const raw = readVar(turn, batch.source);
  const items = listOf(raw);
  if (!items) {
    nodeError(turn, node, "batch over " + batch.source + ", which holds " + (raw === undefined ? "nothing" : "no list") + "; no request made");
    turn.state.vars[batch.result] = [];
    return node.next;
  }
  if (items.length > MAX_ITERATIONS) log(turn, "http batch " + node.id + ": " + items.length + " items, the first " + MAX_ITERATIONS + " run");
  const todo = items.slice(0, MAX_ITERATIONS);
  const results: unknown[] = new Array(todo.length);
  let next = 0;
  let failed = 0;
  const one = async (item: unknown, i: number) => {
    const vars = Object.assign(Object.create(null) as Vars, turn.state.vars);
    vars[batch.item] = item;
    const local: Turn = { ...turn, state: { ...turn.state, vars } };
    let extracted: unknown = "";
    let url = node.url;
    try {
      const { target, headers, body } = buildRequest(local, node);
      url = target.toString();
      const res = await fetch(target, { method: node.method, headers, body, signal: AbortSignal.timeout(node.timeoutSeconds * 1000), redirect: "follow", ...tlsOptions(node) });
      const answer = await readAnswer(res, node, url);
      if (!res.ok) throw new Error("answered " + res.status);
      extracted = batch.path ? valueAt(answer, render(local, batch.path)) ?? "" : answer;
    } catch (err) {
      failed++;
      nodeError(turn, node, "http_request batch item " + i + ": " + node.method + " " + url + " failed: " + failure(err, node));
    }
    if (batch.fields.length === 0) {
      results[i] = extracted;
      return;
    }
    const text = typeof extracted === "object" && extracted !== null ? JSON.stringify(extracted) : toText(extracted);
    const row: Record<string, unknown> = {};
    for (const f of batch.fields) {
      if (f.value === "__extracted__") row[f.key] = text;
      else if (f.value === "__extracted_int__") row[f.key] = String(Math.trunc(toNumber(text) ?? 0));
      else if (f.value === "__extracted_float__") row[f.key] = text === "" ? "0" : text;
      else row[f.key] = render(local, f.value);
    }
    results[i] = row;
  };
  const worker = async () => {
    while (next < todo.length) {
      const i = next++;
      await one(todo[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(HTTP_BATCH_WIDTH, todo.length) }, worker));
  turn.state.vars[batch.result] = results;
  log(turn, "http batch " + node.id + ": " + todo.length + " requests, " + failed + " failed, saved to " + batch.result);
  return node.next;
}
