// Runtime source: http_request, the token's env variables as scenario variables, and the masking
// of the bot token in everything the bot prints. (Part of every generated bot; see types.ts.)
import { listOf, valueAt } from "./assign";
import { MAX_ITERATIONS, nodeError } from "./control";
import { egressFetch, egressPolicy } from "./egress";
import { evalExpr, exprText } from "./expr";
import { log } from "./flow";
import type { HttpNode } from "./logic-tables";
import { secretMasker } from "./secret-forms";
import { API_ROOT, BOT_TOKEN, env, parseJson } from "./storage";
import type { Turn, Vars } from "./types";
import { PLACEHOLDER_OR_EXPR, evaluate, readVar, render, toNumber, toText } from "./values";

// ─── Secrets never printed; env variables of the token ─────────────────────────

/** The token's own env variables (set in the platform) read like scenario variables: {NAME}. */
export const SCENARIO_ENV = new Set((env.BOTLOOM_ENV_KEYS ?? "").split(",").map((s) => s.trim()).filter(Boolean));

/**
 * The token and the token's secret env values (PATs, API keys) never appear in output, in any form
 * the bot itself gives them (percent-encoded URLs, base64 basic auth, another case...: secretMasker).
 */
export const SECRET_ENV = new Set((env.BOTLOOM_SECRET_KEYS ?? "").split(",").map((s) => s.trim()).filter((k) => SCENARIO_ENV.has(k)));
export const maskSecrets = secretMasker([BOT_TOKEN, ...[...SECRET_ENV].map((k) => env[k] ?? "")]);

/**
 * The secrets rule (docs/security.md "Secrets"): {bot_token} and secret env values read as nothing
 * except while an http_request renders what it sends (URL, query, headers, auth, body), and never
 * inside {=expr} (expr.ts); messages, buttons and logs never get them. Rendering is synchronous,
 * so no other turn runs while the reads are open.
 */
export let secretReads: { botToken: boolean } | null = null;

export function secretValue(name: string): string | undefined {
  if (secretReads === null) return undefined;
  if (name !== "bot_token") return env[name];
  secretReads.botToken = true;
  return BOT_TOKEN;
}

export function withSecrets<T>(render: () => T): { value: T; botToken: boolean } {
  const reads = { botToken: false };
  secretReads = reads;
  try {
    return { value: render(), botToken: reads.botToken };
  } finally {
    secretReads = null;
  }
}

/** What the bot prints, masked: texts, and objects as console shows them. */
export const maskedArgs = (args: unknown[]) => args.map((a) => (typeof a === "string" ? maskSecrets(a) : a !== null && typeof a === "object" ? maskSecrets(Bun.inspect(a)) : a));

// Every line the bot prints goes through the mask: the token appears in Bot API file URLs that
// http_request nodes build with {bot_token}, and in errors that quote them. (A supervised program
// prints through launch.ts printInBatches instead, which masks with maskedArgs too.)
for (const level of ["log", "info", "warn", "error"] as const) {
  const print = console[level].bind(console);
  console[level] = (...args: unknown[]) => print(...maskedArgs(args));
}

// ─── http_request ──────────────────────────────────────────────────────────────

/** Answers larger than this are refused rather than kept in a chat's variables. */
export const HTTP_MAX_BYTES = 20 * 1024 * 1024;
export const PUBLIC_API = "https://api.telegram.org";
/** Where http_request may go (runtime egress policy): public addresses, the messenger API root and the operator's list. */
export const EGRESS = egressPolicy(env.BOTLOOM_EGRESS_ALLOW ?? "", [API_ROOT]);

export type UrlPart = "start" | "host" | "path" | "query" | "fragment";

/** The part of a URL that follows the given text, read from the part it starts in. */
export function urlPartAfter(part: UrlPart, text: string): UrlPart {
  let p = part;
  let i = 0;
  if (p === "start") {
    if (text === "") return p;
    const scheme = text.indexOf("://");
    p = "host";
    i = scheme < 0 ? 0 : scheme + 3;
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === "#") return "fragment";
    if (c === "?" && (p === "host" || p === "path")) p = "query";
    else if ((c === "/" || c === "\\") && p === "host") p = "path";
  }
  return p;
}

/** A value for one part of a URL: it cannot end that part or start another (in the path: its segment, unless spans). */
export function urlValue(part: UrlPart, value: string, name: string, spans = false): string {
  if (part === "host") {
    if (!/^[A-Za-z0-9.-]*$/.test(value)) throw new Error("the value of " + name + " cannot stand in the URL's host");
    return value;
  }
  if (part === "path") {
    if (value === "." || value === "..") throw new Error("the value of " + name + " is a '" + value + "' path segment");
    return encodeURIComponent(value).replace(spans ? /%(3A|40|24|26|2B|2C|3B|3D|2F)/gi : /%(3A|40|24|26|2B|2C|3B|3D)/gi, (m) => decodeURIComponent(m));
  }
  return encodeURIComponent(value);
}

/**
 * The URL of an http_request: each {variable} encoded for the part it stands in, so an end user's
 * text cannot add query parameters, cut the rest or leave its path segment. A placeholder that
 * starts the URL is its beginning (a base address or a whole URL) and goes in as written, as does
 * every value when the node says its variables are whole URLs (urlRaw). docs/nodes/data.md.
 */
export function renderUrl(turn: Turn, template: string, raw: boolean): string {
  if (raw) return render(turn, template);
  // the messenger's own file paths hold "/" (file/bot<token>/documents/file_5.json): there a path
  // value may span segments; dot segments stay refused below
  const spans = [PUBLIC_API, API_ROOT].some((root) => template.startsWith(root.replace(/\/+$/, "") + "/"));
  let part: UrlPart = "start";
  let out = "";
  let at = 0;
  for (const m of template.matchAll(PLACEHOLDER_OR_EXPR)) {
    const literal = template.slice(at, m.index);
    part = urlPartAfter(part, literal);
    out += literal;
    at = m.index! + m[0].length;
    const value = m[1] !== undefined ? exprText(evalExpr(turn, m[1])) : toText(readVar(turn, m[2]!));
    if (part === "start" && out.trim() === "") {
      out += value;
      part = urlPartAfter(part, value);
    } else out += urlValue(part, value, m[0], spans);
  }
  out += template.slice(at);
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(out.trim())?.[1] ?? "";
  if (path.split("/").some((s) => /^(\.|%2e){1,2}$/i.test(s))) throw new Error("the URL's path has a '.' or '..' segment");
  return out;
}

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
    const { response: res } = await egressFetch(EGRESS, next, { headers, signal: AbortSignal.timeout(node.timeoutSeconds * 1000), insecureTls: node.ignoreSsl });
    const data = await readAnswer(res, { ...node, response: "json" }, next.toString());
    const more = data !== null && typeof data === "object" ? (data as Record<string, unknown>)[pages.itemsField] : undefined;
    if (!Array.isArray(more) || more.length === 0) break;
    items.push(...more);
  }
  a[pages.itemsField] = items;
  a[pages.totalField] = items.length;
}

/**
 * The request a node makes for this turn's variables: its URL (each {variable} encoded for its
 * part, query and auth applied), headers and body. seen.url holds the URL as far as it was made,
 * for the error line.
 */
export function buildRequest(turn: Turn, node: HttpNode, seen: { url: string }): { target: URL; headers: Headers; body: string | undefined } {
  const built = withSecrets(() => {
    seen.url = apiUrl(renderUrl(turn, node.url, node.urlRaw === true).trim());
    if (!/^https?:\/\//i.test(seen.url)) throw new Error("the URL " + JSON.stringify(seen.url) + " is not an http(s) address");
    const target = new URL(seen.url);
    for (const [k, v] of Object.entries(jsonObject(turn, node.query, "query parameters"))) target.searchParams.set(k, v);
    const headers = new Headers(jsonObject(turn, node.headers, "headers"));
    const auth = node.auth;
    if (auth?.type === "bearer") headers.set("authorization", "Bearer " + render(turn, auth.value));
    else if (auth?.type === "basic") headers.set("authorization", "Basic " + Buffer.from(render(turn, auth.name ?? "") + ":" + render(turn, auth.value)).toString("base64"));
    else if (auth?.type === "header" && auth.name) headers.set(render(turn, auth.name), render(turn, auth.value));
    else if (auth?.type === "query" && auth.name) target.searchParams.set(render(turn, auth.name), render(turn, auth.value));
    return { target, headers, body: requestBody(turn, node, headers) };
  });
  const { target } = built.value;
  seen.url = target.toString();
  // the bot's token is for the messenger only: a scenario cannot hand it to another service
  if (built.botToken && target.origin !== new URL(API_ROOT).origin) throw new Error("{bot_token} is sent to the messenger API only, not to " + target.host);
  return built.value;
}

/** One request of a node under the egress policy; ignoreSsl only accepts any certificate (docs/nodes/data.md). */
export function send(node: HttpNode, request: { target: URL; headers: Headers; body: string | undefined }) {
  const { target, headers, body } = request;
  return egressFetch(EGRESS, target, { method: node.method, headers, body, signal: AbortSignal.timeout(node.timeoutSeconds * 1000), insecureTls: node.ignoreSsl });
}

export async function runHttp(turn: Turn, node: HttpNode): Promise<string | undefined> {
  if (node.batch) return runHttpBatch(turn, node, node.batch);
  const vars = turn.state.vars;
  const seen = { url: "" };
  const pages = node.pages;
  let offset = 0;
  if (pages?.mode === "interactive" && pages.offsetVar) {
    const current = toText(readVar(turn, pages.offsetVar)).trim();
    if (!/^-?\d+$/.test(current)) vars[pages.offsetVar] = "0";
    offset = Math.max(0, Number(/^-?\d+$/.test(current) ? current : "0"));
  }
  try {
    const request = buildRequest(turn, node, seen);
    const url = seen.url;
    const { headers } = request;
    const { response: res } = await send(node, request);
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
    nodeError(turn, node, "http_request " + node.method + " " + (seen.url || node.url) + " failed: " + reason);
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
    const seen = { url: "" };
    try {
      const { response: res } = await send(node, buildRequest(local, node, seen));
      const answer = await readAnswer(res, node, seen.url);
      if (!res.ok) throw new Error("answered " + res.status);
      extracted = batch.path ? valueAt(answer, render(local, batch.path)) ?? "" : answer;
    } catch (err) {
      failed++;
      nodeError(turn, node, "http_request batch item " + i + ": " + node.method + " " + (seen.url || node.url) + " failed: " + failure(err, node));
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
