// Update check (docs/api.md#admin-rules rule 5, docs/api.md#admin-rules rule 5): the remote file has the shape of
// assets/version.json. A failed check is a normal answer (`checkFailed: true`), never an error
// status, because being offline is an ordinary state of a self-hosted server.
import { z } from "zod";
import type { Logger } from "../../log";
import type { VersionInfo } from "../../version";

/** Where the hub's "how to upgrade" link points: docs/operations.md#upgrade of the public repository. */
export const DEPLOY_GUIDE_URL = "https://github.com/botloom/botloom/blob/main/docs/operations.md#upgrade";
export const CHECK_TIMEOUT_MS = 5000;
export const SUCCESS_TTL_MS = 6 * 3600 * 1000;
/** Failures are remembered for a shorter time, so a network glitch does not hide an update for hours. */
export const FAILURE_TTL_MS = 15 * 60 * 1000;
/** A version file is a few hundred bytes; anything far larger is not one. */
const MAX_REMOTE_BYTES = 64 * 1024;

export interface UpdateCheckResult {
  current: { version: string; releasedAt: string };
  latest: { version: string; releasedAt: string; notesUrl: string | null };
  updateAvailable: boolean;
  checkFailed: boolean;
  deployGuideUrl: string;
}

const VERSION_RE = /^\d{1,9}\.\d{1,9}\.\d{1,9}\.\d{1,9}$/;

const remoteSchema = z.object({
  version: z.string().regex(VERSION_RE),
  releasedAt: z.string().min(1).max(40),
  notesUrl: z.string().max(2000).nullish(),
});

/** Numeric, part by part: 0.10.0.0 is newer than 0.9.0.0. Negative, zero or positive like a comparator. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Only http(s) links are shown to the admin; anything else (javascript:, data:) becomes null. */
function safeUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

export interface UpdateCheckerOptions {
  url: string;
  current: VersionInfo;
  log: Logger;
  timeoutMs?: number;
  now?: () => number;
}

export class UpdateChecker {
  private cached: { result: UpdateCheckResult; expiresAt: number } | null = null;
  /** Concurrent hub loads share one request. */
  private inFlight: Promise<UpdateCheckResult> | null = null;

  constructor(private readonly opts: UpdateCheckerOptions) {}

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  async check(refresh = false): Promise<UpdateCheckResult> {
    if (refresh) this.cached = null;
    if (this.cached && this.cached.expiresAt > this.now()) return this.cached.result;
    if (!this.inFlight) {
      this.inFlight = this.fetchLatest()
        .then((result) => {
          this.cached = { result, expiresAt: this.now() + (result.checkFailed ? FAILURE_TTL_MS : SUCCESS_TTL_MS) };
          return result;
        })
        .finally(() => {
          this.inFlight = null;
        });
    }
    return this.inFlight;
  }

  private result(latest: UpdateCheckResult["latest"] | null): UpdateCheckResult {
    const { version, releasedAt } = this.opts.current;
    return {
      current: { version, releasedAt },
      latest: latest ?? { version, releasedAt, notesUrl: null },
      updateAvailable: latest !== null && compareVersions(latest.version, version) > 0,
      checkFailed: latest === null,
      deployGuideUrl: DEPLOY_GUIDE_URL,
    };
  }

  private async fetchLatest(): Promise<UpdateCheckResult> {
    try {
      const res = await fetch(this.opts.url, {
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? CHECK_TIMEOUT_MS),
        headers: { accept: "application/json" },
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const declared = Number(res.headers.get("content-length") ?? 0);
      if (declared > MAX_REMOTE_BYTES) throw new Error("version file too large");
      const text = await res.text();
      if (text.length > MAX_REMOTE_BYTES) throw new Error("version file too large");
      const parsed = remoteSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error("not a version file");
      const r = parsed.data;
      return this.result({ version: r.version, releasedAt: r.releasedAt, notesUrl: safeUrl(r.notesUrl) });
    } catch (e) {
      this.opts.log.warn(`Update check against ${new URL(this.opts.url).host} failed: ${e instanceof Error ? e.message : String(e)}`);
      return this.result(null);
    }
  }
}
