// Runtime source, part 3: variables, text templates, conditions and assignments.
// (Text copied into generated bots; see types.ts for the rules.)
export const RUNTIME_VALUES = String.raw`
// ─── Variables and templates ───────────────────────────────────────────────────

const pad2 = (n: number) => (n < 10 ? "0" : "") + n;

/** Built-in values; the user's own variables take precedence over these names. */
function builtin(turn: Turn, name: string): unknown {
  const from = turn.from;
  const now = new Date();
  switch (name) {
    case "user_id": return from ? String(from.id) : undefined;
    case "first_name": return from?.first_name ?? "";
    case "last_name": return from?.last_name ?? "";
    case "username": return from?.username ?? "";
    case "user_name": return from ? from.first_name || from.username || "" : "";
    case "date": return pad2(now.getDate()) + "." + pad2(now.getMonth() + 1) + "." + now.getFullYear();
    case "time": return pad2(now.getHours()) + ":" + pad2(now.getMinutes());
    case "message_text":
    case "callback_data":
    case "button_text":
      return turn.event[name] ?? "";
    default: return undefined;
  }
}

function ownValue(turn: Turn, name: string): unknown {
  return Object.hasOwn(turn.state.vars, name) ? turn.state.vars[name] : builtin(turn, name);
}

/** A variable's value; "a.b.c" reads into a stored JSON value (objects, arrays, JSON strings). */
function readVar(turn: Turn, name: string): unknown {
  const direct = ownValue(turn, name);
  if (direct !== undefined || !name.includes(".")) return direct;
  const [root, ...path] = name.split(".");
  let value: unknown = ownValue(turn, root);
  for (const part of path) {
    if (typeof value === "string" && /^\s*[[{]/.test(value)) value = parseJson<unknown>(value, value);
    if (value === null || typeof value !== "object") return undefined;
    if (Array.isArray(value) && (part === "length" || part === "count")) value = value.length;
    else value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** How a value reads in a text: lists joined by commas, objects as JSON, nothing as "". */
function toText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(toText).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function escapeFor(format: Format, text: string): string {
  if (format === "html") return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (format === "markdown") return text.replace(/([_*[\]])/g, "\\$1").replace(/\x60/g, "\\\x60");
  return text;
}

const PLACEHOLDER = /\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}/gu;

/** Substitutes {name} placeholders; values are escaped for the text's format (missing → ""). */
function render(turn: Turn, template: string, format: Format = "text"): string {
  return template.replace(PLACEHOLDER, (_, name: string) => escapeFor(format, toText(readVar(turn, name))));
}

/** "{name}" alone keeps the raw value (a list stays a list); anything else renders to text. */
function evaluate(turn: Turn, template: string): unknown {
  const whole = /^\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}$/u.exec(template.trim());
  if (whole) return readVar(turn, whole[1]) ?? "";
  return render(turn, template);
}

function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

function toNumber(value: unknown): number | undefined {
  const s = toText(value).trim().replace(",", ".");
  if (s === "") return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

const regexCache = new Map<string, RegExp | null>();

/** A compiled pattern, or null when the author's pattern is invalid (the test then fails). */
function regex(pattern: string, flags = ""): RegExp | null {
  const key = flags + "/" + pattern;
  if (!regexCache.has(key)) {
    try {
      regexCache.set(key, new RegExp(pattern, flags));
    } catch {
      console.error("invalid regular expression in the scenario: " + pattern);
      regexCache.set(key, null);
    }
  }
  return regexCache.get(key)!;
}

// ─── Conditions ────────────────────────────────────────────────────────────────

/** contains: a value with a backslash class such as \d or \w is a regular expression. */
const BACKSLASH_CLASS = /\\[dDwWsSb]/;

/** Variables in a regular expression: "{3}" stays a quantifier, only "{name}" is substituted. */
function renderPattern(turn: Turn, pattern: string): string {
  return pattern.replace(PLACEHOLDER, (whole, name: string) => (/^\d/.test(name) ? whole : toText(readVar(turn, name))));
}

function testBranch(turn: Turn, subject: unknown, branch: ConditionNode["branches"][number]): boolean {
  const text = toText(subject);
  const isPattern = branch.op === "matches" || (branch.op === "contains" && BACKSLASH_CLASS.test(branch.value));
  const value = isPattern ? renderPattern(turn, branch.value) : render(turn, branch.value);
  switch (branch.op) {
    case "equals": return text.trim() === value.trim();
    case "not_equals": return text.trim() !== value.trim();
    case "contains":
      return isPattern
        ? regex(value, "i")?.test(text) ?? false
        : text.toLowerCase().includes(value.toLowerCase());
    case "matches": return regex(value)?.test(text) ?? false;
    case "filled": return isFilled(subject);
    case "empty": return !isFilled(subject);
    case "greater_than":
    case "less_than": {
      const a = toNumber(subject);
      const b = toNumber(value);
      if (a === undefined || b === undefined) return false;
      return branch.op === "greater_than" ? a > b : a < b;
    }
    case "between": {
      const a = toNumber(subject);
      const low = toNumber(value);
      const high = toNumber(render(turn, branch.value2 ?? ""));
      if (a === undefined || low === undefined || high === undefined) return false;
      return a >= low && a <= high;
    }
    case "else": return true;
  }
}

/** The target of the first matching branch ("" stops), else the default. */
function chooseBranch(turn: Turn, node: ConditionNode): string | undefined {
  const subject = node.template !== undefined ? render(turn, node.template) : readVar(turn, node.variable ?? "");
  for (const branch of node.branches) {
    if (testBranch(turn, subject, branch)) return branch.target || undefined;
  }
  return node.fallback;
}

function variantHolds(turn: Turn, v: VariantDef): boolean {
  const results = v.vars.map((name) => {
    const value = readVar(turn, name);
    switch (v.check) {
      case "exists": return isFilled(value);
      case "not_exists": return !isFilled(value);
      case "equals": return toText(value) === (v.value ?? "");
      case "contains": return toText(value).toLowerCase().includes((v.value ?? "").toLowerCase());
    }
  });
  return v.anyOf ? results.some(Boolean) : results.every(Boolean);
}

// ─── Assignments ───────────────────────────────────────────────────────────────

/** append keeps a list: [] + a → [a]; x + a → [x, a]. */
function appended(current: unknown, value: unknown): unknown[] {
  if (Array.isArray(current)) return [...current, value];
  return isFilled(current) ? [current, value] : [value];
}

function assign(turn: Turn, a: AssignmentDef) {
  const vars = turn.state.vars;
  switch (a.mode) {
    case "set":
      vars[a.variable] = evaluate(turn, a.value);
      break;
    case "append":
      vars[a.variable] = appended(vars[a.variable], evaluate(turn, a.value));
      break;
    case "increment": {
      const step = a.value.trim() === "" ? 1 : toNumber(render(turn, a.value)) ?? 0;
      vars[a.variable] = (toNumber(vars[a.variable]) ?? 0) + step;
      break;
    }
    case "regex_extract": {
      const source = render(turn, a.value);
      const found = a.pattern ? regex(a.pattern)?.exec(source) : null;
      vars[a.variable] = found?.[a.group ?? 1] ?? a.fallback ?? "";
      break;
    }
  }
}

/** Stores an answer (a text or a file id), appending when the node asks for a list. */
function store(turn: Turn, variable: string, value: unknown, append?: true) {
  turn.state.vars[variable] = append ? appended(turn.state.vars[variable], value) : value;
}
`;
