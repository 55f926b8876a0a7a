// Path and query identifiers. Everything a client can mistype ends as a clear 400, never a 500.
import { badRequest } from "../errors";

const MAX_ID = Number.MAX_SAFE_INTEGER;

export function parsePositiveId(raw: string | undefined, name: string): number {
  if (raw === undefined || !/^\d{1,16}$/.test(raw) || Number(raw) <= 0 || Number(raw) > MAX_ID) throw badRequest(`${name} must be a positive integer`);
  return Number(raw);
}

/** docs/api.md path identifier forms: `12` or `<prefix>_12` (e.g. `project_12`, `token_12`). */
export function parsePrefixedId(raw: string | undefined, prefix: string, name: string): number {
  const s = raw?.startsWith(`${prefix}_`) ? raw.slice(prefix.length + 1) : raw;
  return parsePositiveId(s, name);
}

/** `{id}` of /api/bot/projects/…: `12` or `project_12`. */
export const parseProjectId = (raw: string | undefined) => parsePrefixedId(raw, "project", "project id");
/** `{tokenId}` of /api/bot/tokens/…: `12` or `token_12`. */
export const parseTokenId = (raw: string | undefined) => parsePrefixedId(raw, "token", "tokenId");

/** Optional integer query parameter with bounds; absent → default. */
export function parseIntQuery(raw: string | undefined, name: string, opts: { default: number; min?: number; max?: number; clamp?: boolean }): number {
  if (raw === undefined || raw === "") return opts.default;
  if (!/^-?\d{1,16}$/.test(raw)) throw badRequest(`${name} must be an integer`);
  let n = Number(raw);
  if (opts.min !== undefined && n < opts.min) throw badRequest(`${name} must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) {
    if (!opts.clamp) throw badRequest(`${name} must be at most ${opts.max}`);
    n = opts.max;
  }
  return n;
}

/** Optional query parameter that must be one of `allowed` (absent or empty → undefined). */
export function parseEnumQuery<T extends string>(raw: unknown, allowed: readonly T[], name: string): T | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (typeof raw !== "string" || !(allowed as readonly string[]).includes(raw)) throw badRequest(`${name} must be one of ${allowed.join(", ")}`);
  return raw as T;
}

/** `true`/`false` query flag (absent → default). */
export function parseBoolQuery(raw: string | undefined, name: string, def = false): boolean {
  if (raw === undefined || raw === "") return def;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw badRequest(`${name} must be true or false`);
}

export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 200;

/**
 * Opt-in paging (`page`, `perPage`) of a list whose unpaged answer docs/api.md fixes: null when the
 * client sent neither, so the old answer stays. perPage above the maximum is clamped.
 */
export function parsePaging(query: Record<string, string | undefined>): { page: number; perPage: number } | null {
  if ((query.page === undefined || query.page === "") && (query.perPage === undefined || query.perPage === "")) return null;
  return {
    page: parseIntQuery(query.page, "page", { default: 1, min: 1, max: 1_000_000 }),
    perPage: parseIntQuery(query.perPage, "perPage", { default: PER_PAGE_DEFAULT, min: 1, max: PER_PAGE_MAX, clamp: true }),
  };
}
