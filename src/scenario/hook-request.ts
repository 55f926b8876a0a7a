// What a webhook_trigger node (docs/hooks.md) makes of a request: its settings with their defaults,
// the chat the body names, the variables the body gives, and the answer. The platform reads the
// request (the bot only runs the flow), for the public hook and the preview alike. Pure: no I/O.

export interface HookSettings {
  /** the body field naming the user or chat (a dotted path such as `customer.telegram_id`) */
  userField: string;
  /** body fields that become variables (dotted paths; `a.b` becomes `a_b`); empty: every top-level scalar */
  variables: string[];
  /** put before every variable's name */
  prefix: string;
  /** the answer's status (200–299) and body (`{name}` replaced by the request's variables) */
  status: number;
  body: string;
  /** requests a minute this hook accepts */
  perMinute: number;
  /** the token whose bot runs the flow; absent: the project's one running bot */
  tokenId?: number;
}

export const HOOK_DEFAULTS = { userField: "user_id", status: 200, body: '{"ok":true}', perMinute: 60 } as const;
export const HOOK_PER_MINUTE_MAX = 6000;
/** bounds on what one request may set: a flood of variables would bloat the chat's saved state */
export const HOOK_MAX_VARIABLES = 100;
export const HOOK_MAX_VALUE_CHARS = 4096;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CHAT_ID = /^-?\d{1,20}$/;

type Data = Record<string, unknown>;
export type HookValue = string | number | boolean;

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const int = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN);

function listOf(v: unknown): string[] {
  const items = Array.isArray(v) ? v.map((x) => String(x)) : typeof v === "string" ? v.split(/[\n,]/) : [];
  return items.map((s) => s.trim()).filter(Boolean);
}

/** A node's data as settings; anything missing or out of range takes its default. */
export function hookSettingsOf(data: Data): HookSettings {
  const status = int(data.answerStatus);
  const perMinute = int(data.rateLimitPerMinute);
  const tokenId = int(data.tokenId);
  return {
    userField: str(data.userField) || HOOK_DEFAULTS.userField,
    variables: listOf(data.variables),
    prefix: NAME.test(str(data.variablePrefix)) ? str(data.variablePrefix) : "",
    status: Number.isInteger(status) && status >= 200 && status <= 299 ? status : HOOK_DEFAULTS.status,
    body: typeof data.answerBody === "string" && data.answerBody !== "" ? data.answerBody : HOOK_DEFAULTS.body,
    perMinute: Number.isInteger(perMinute) && perMinute >= 1 ? Math.min(perMinute, HOOK_PER_MINUTE_MAX) : HOOK_DEFAULTS.perMinute,
    tokenId: Number.isInteger(tokenId) && tokenId > 0 ? tokenId : undefined,
  };
}

function at(body: Data, path: string): unknown {
  let v: unknown = body;
  for (const key of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Data)[key];
  }
  return v;
}

const scalar = (v: unknown): v is HookValue => typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
const bounded = (v: HookValue): HookValue => (typeof v === "string" && v.length > HOOK_MAX_VALUE_CHARS ? v.slice(0, HOOK_MAX_VALUE_CHARS) : v);

export type HookRead = { chatId: string; vars: Record<string, HookValue> } | { problem: string };

/** The chat the body names and the variables it gives, or why the request cannot run. */
export function readHookBody(s: HookSettings, body: Data): HookRead {
  const who = at(body, s.userField);
  const chatId = typeof who === "number" && Number.isSafeInteger(who) ? String(who) : typeof who === "string" ? who.trim() : "";
  // the bot keeps chats by number: an id past 2^53 would name the chat it rounds to
  if (!CHAT_ID.test(chatId) || chatId === "0" || !Number.isSafeInteger(Number(chatId))) return { problem: `the body's field "${s.userField}" must be a user or chat id (an integer)` };
  return { chatId, vars: hookVarsOf(s, body) };
}

/** The variables a body gives: the listed fields, or every top-level scalar; bounded in number and length. */
export function hookVarsOf(s: HookSettings, body: Data): Record<string, HookValue> {
  const vars: Record<string, HookValue> = {};
  const fields = s.variables.length > 0 ? s.variables : Object.keys(body);
  for (const field of fields) {
    const name = s.prefix + field.replaceAll(".", "_");
    const v = at(body, field);
    if (!NAME.test(name) || !scalar(v)) continue;
    if (Object.keys(vars).length >= HOOK_MAX_VARIABLES) break;
    vars[name] = bounded(v);
  }
  return vars;
}

/** The answer's body: `{name}` becomes the request's variable of that name (unknown names stay as written). */
export function renderHookAnswer(template: string, vars: Record<string, HookValue>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : m));
}

/** Every webhook_trigger node of a document (sheets → nodes), its data by its id. */
export function hookNodesOf(doc: unknown): Map<string, Data> {
  const out = new Map<string, Data>();
  const sheets = doc && typeof doc === "object" && Array.isArray((doc as Data).sheets) ? ((doc as Data).sheets as unknown[]) : [];
  for (const sheet of sheets) {
    const nodes = sheet && typeof sheet === "object" && Array.isArray((sheet as Data).nodes) ? ((sheet as Data).nodes as unknown[]) : [];
    for (const n of nodes) {
      if (!n || typeof n !== "object") continue;
      const node = n as Data;
      if (node.type === "webhook_trigger" && typeof node.id === "string" && !out.has(node.id)) out.set(node.id, node.data && typeof node.data === "object" ? (node.data as Data) : {});
    }
  }
  return out;
}
