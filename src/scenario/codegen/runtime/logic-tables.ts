// The table shapes of the logic and data nodes (docs/nodes/logic.md, data.md). Like tables.ts,
// this file is also the text of that part of every generated program (runtime-text.ts embeds it from
// its first "// ─── " line on, without `export`): declarations only, every top-level declaration
// exported.

// ─── Logic and data node shapes ────────────────────────────────────────────────

/** http_request: every field may contain {variables}; headers and query are JSON objects. */
export interface HttpNode {
  t: "http";
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  /** httpRequestUrlRaw: the URL's variables go in as written (a variable holds a whole URL or several parts) */
  urlRaw?: true;
  headers?: string;
  query?: string;
  body?: string;
  bodyFormat: "json" | "form" | "raw";
  auth?: { type: "bearer" | "basic" | "header" | "query"; name?: string; value: string };
  timeoutSeconds: number;
  response: "auto" | "json" | "text" | "file";
  responseVar?: string;
  statusVar?: string;
  /** responseJsonPath → responseExtractTo: one value out of the answer */
  extract?: { path: string; variable: string };
  /**
   * interactive: offsetVar starts at 0 and the answer gains nextOffset, prevOffset ("" at the
   * ends), currentPage, totalPages; fetch_all: further pages (limit/offset query) join its items
   */
  pages?: { mode: "interactive" | "fetch_all"; offsetVar?: string; totalField: string; itemsField: string; limit: number; maxPages: number };
  /** accept any TLS certificate (self-signed, expired, another name): the address rules still hold */
  ignoreSsl?: true;
  /**
   * one request per item of the list in source, side by side ({item.field} in every template);
   * result gets one object per item: key → template, "__extracted__" (the value at path in that
   * item's answer), "__extracted_int__", "__extracted_float__"; without fields, the values themselves
   */
  batch?: { source: string; item: string; result: string; path?: string; fields: { key: string; value: string }[] };
  next?: string;
  adminOnly?: true;
}

/** loop: runs body once per item of the array in source, then after. */
export interface LoopNode {
  t: "loop";
  id: string;
  source: string;
  item: string;
  index: string;
  /** 0: no limit */
  limit: number;
  delaySeconds: number;
  body?: string;
  after?: string;
  adminOnly?: true;
}

/** parallel_split: its branches run side by side; the node ends when all of them did (awaitAll: false: at once). */
export interface ParallelNode {
  t: "parallel";
  id: string;
  branches: { label: string; target: string; onError?: string }[];
  /** 0: no limit */
  maxConcurrent: number;
  /** false: the flow goes on and the update ends while the branches still run */
  awaitAll?: false;
  /** with awaitAll false: a second run in the same chat starts even while the first one's branches run (skipIfRunning: false) */
  overlap?: true;
  next?: string;
  adminOnly?: true;
}

/** convert_file: a variable holding a list becomes a CSV or JSON file object in output. */
export interface ConvertNode {
  t: "convert";
  id: string;
  input: string;
  format: "csv" | "json";
  fileName: string;
  delimiter: string;
  header: boolean;
  output: string;
  next?: string;
  adminOnly?: true;
}

/** bot_table: one operation on a table of the project's own database. */
export interface TableOpNode {
  t: "table";
  id: string;
  table: string;
  op: "read" | "count" | "sum" | "avg" | "min" | "max" | "distinct" | "insert" | "upsert" | "update" | "delete" | "delete_all";
  /** equals (default) | not_equals | greater_than | less_than | contains | is_empty | is_not_empty; all must hold */
  where: { column: string; op: string; value: string }[];
  /** update: set (default) | increment | decrement | min | max */
  updates: { column: string; op: string; value: string }[];
  /** insert / upsert: column → template */
  row: Record<string, string>;
  /** upsert: the column that finds the existing row */
  key?: string;
  onConflict: "ignore" | "update" | "merge";
  saveTo?: string;
  format: "first_row" | "all_rows" | "count" | "scalar" | "random_row";
  columns: string[];
  orderBy?: string;
  desc: boolean;
  limit: number;
  offset: number;
  aggregate?: string;
  returnId?: true;
  next?: string;
  adminOnly?: true;
}

/**
 * psql_query: one statement ({variables} are bound parameters) on the project's own SQLite
 * database, or on an external PostgreSQL whose connection string is in a secret env variable (pg)
 */
export interface SqlNode {
  t: "sql";
  id: string;
  query: string;
  /** the external PostgreSQL: the token's env variable holding its connection string */
  pg?: { env: string; timeoutSeconds: number };
  /** where a failure goes (otherwise on to next, with {sql_error} set either way) */
  error?: string;
  saveTo?: string;
  format: "json" | "text" | "first_row" | "affected";
  /** format text: one line per row, {column} of the row */
  template?: string;
  next?: string;
  adminOnly?: true;
}

/** ai_answer: one chat-completions request to an OpenAI-compatible endpoint (docs/nodes/ai.md). */
export interface AiNode {
  t: "ai";
  id: string;
  /** the endpoint's base, e.g. https://api.openai.com/v1 (/chat/completions is appended) */
  baseUrl: string;
  model: string;
  /** the token's secret env variable holding the API key */
  keyEnv?: string;
  /** template with {variables} */
  system: string;
  /** template; "" = the user's message of this update ({message_text}) */
  user: string;
  /** earlier turns (a user message and the bot's answer) sent along; 0 = none */
  memory: number;
  temperature: number;
  maxTokens: number;
  timeoutSeconds: number;
  saveTo?: string;
  send: boolean;
  format: "html" | "markdown" | "text";
  next?: string;
  /** where a failure goes (otherwise on to next, with {ai_error} set either way) */
  error?: string;
  adminOnly?: true;
}

export type LogicNode = HttpNode | LoopNode | ParallelNode | ConvertNode | TableOpNode | SqlNode | AiNode;
