// Inbound webhooks (docs/hooks.md): each webhook_trigger node gets a URL /api/hooks/<id> and a
// secret shown once; a request with the secret runs the node's flow in the project's running bot,
// told through the bot manager's command channel. The order of the checks is the security
// (docs/security.md "Inbound webhooks"): address limits before anything is read, the secret before
// the body is parsed, the hook's own limit before the bot is told.
import type { AppContext } from "../../context";
import { AppError, badRequest, notFound } from "../../errors";
import { FailureLadder, LOCK_MS, rateLimited, WindowLimiter } from "../../http/rate-limit";
import { randomBase62, safeEqual, sha256Hex } from "../../lib/crypto";
import { depthMessage, tooDeep } from "../../lib/json-limits";
import { normalizeDocument } from "../../scenario/model";
import { HOOK_PER_MINUTE_MAX, hookNodesOf, hookSettingsOf, readHookBody, renderHookAnswer, type HookSettings, type HookValue } from "../../scenario/hook-request";
import { readStoredScenario } from "../projects/document";
import { type HookRow, claimDelivery, hookById, hookOfNode, hooksOfProject, insertHook, projectScenarioOf, projectVersionOf, releaseDelivery, setHookSecret, tokenIdsOf } from "./queries";
import type { HookListItem, HookSecretAnswer } from "./model";

/** docs/hooks.md: a hook's body is at most 1 MB (the API's other JSON bodies may be 10 MB). */
export const HOOK_BODY_LIMIT = 1024 * 1024;
/** requests a minute one address may send to /api/hooks/*, whatever they carry: as many as one hook may take */
export const HOOK_ADDRESS_PER_MINUTE = HOOK_PER_MINUTE_MAX;
/** wrong secrets (or unknown hooks) an address may send before it must wait, doubling, then is locked */
export const HOOK_FREE_FAILURES = 10;
const HOOK_ID = /^[A-Za-z0-9]{20,40}$/;
/** docs/hooks.md "Retries": a key is 1 to 255 visible ASCII characters, remembered for a day per hook. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_MS = 24 * 3600_000;
const SECRET_PREFIX = "whs_";

export const hookPath = (id: string) => `/api/hooks/${id}`;

/** What the caller gets: the node's status and body, and the body's type. */
export interface HookAnswer {
  status: number;
  body: string;
  contentType: string;
  /** the request's idempotency key was seen before: the flow did not run again */
  replayed?: boolean;
}

/** A request as the route hands it over: headers and a body not read yet. */
export interface HookRequest {
  hookId: string;
  secret: string | null;
  contentType: string;
  contentLength: string | null;
  address: string;
  /** the caller's `Idempotency-Key` header, if any */
  idempotencyKey: string | null;
  body: ReadableStream<Uint8Array> | null;
}

export const secretOf = (headers: Headers): string | null => {
  const own = headers.get("x-botloom-secret");
  if (own) return own;
  const auth = headers.get("authorization");
  return auth && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "") : null;
};

export class HooksService {
  private readonly perAddress = new WindowLimiter(HOOK_ADDRESS_PER_MINUTE, 60_000);
  // One record per address for every hook: a right secret of one hook (say the caller's own) says
  // nothing about guesses at another's, so it does not clear the record; a quiet address is forgiven.
  private readonly failures = new FailureLadder(HOOK_FREE_FAILURES, Date.now, LOCK_MS);
  /** one limiter per distinct per-minute figure, keyed by hook id inside */
  private readonly perHook = new Map<number, WindowLimiter>();
  /** the hook nodes of a project's scenario, while its version stays */
  private readonly nodes = new Map<number, { version: string; data: Map<string, Record<string, unknown>> }>();

  constructor(private readonly ctx: AppContext) {}

  // --- the project's side: list and secrets ----------------------------------------------------

  async list(projectId: number, userId: number): Promise<HookListItem[]> {
    this.ctx.access.require(projectId, userId);
    const rows = new Map(hooksOfProject(this.ctx.db, projectId).map((r) => [r.nodeId, r]));
    return [...(await this.hookNodes(projectId))].map(([nodeId, data]) => {
      const row = rows.get(nodeId);
      const s = hookSettingsOf(data);
      return {
        nodeId,
        hookId: row?.id ?? null,
        path: row ? hookPath(row.id) : null,
        url: row && this.ctx.config.webhookBaseUrl ? this.ctx.config.webhookBaseUrl + hookPath(row.id) : null,
        hasSecret: !!row,
        createdAt: row?.createdAt ?? null,
        rotatedAt: row?.rotatedAt ?? null,
        userField: s.userField,
        perMinute: s.perMinute,
      };
    });
  }

  /** A new secret for the node's hook (the hook and its URL are made on the first call); the secret is in this answer only. */
  async newSecret(projectId: number, userId: number, nodeId: string): Promise<HookSecretAnswer> {
    this.ctx.access.require(projectId, userId);
    if (!(await this.hookNodes(projectId)).has(nodeId)) throw notFound(`The project's scenario has no webhook_trigger node "${nodeId}" (save the scenario first)`);
    const secret = SECRET_PREFIX + randomBase62(32);
    const secretHash = sha256Hex(secret);
    // Two first calls at once: the second finds the row the first made, and rotates its secret.
    const made = hookOfNode(this.ctx.db, projectId, nodeId) ? undefined : insertHook(this.ctx.db, { id: randomBase62(24), projectId, nodeId, secretHash });
    const row = made ?? hookOfNode(this.ctx.db, projectId, nodeId)!;
    if (!made) setHookSecret(this.ctx.db, row.id, secretHash, new Date().toISOString());
    this.ctx.log.info(`hook ${row.id} of project ${projectId}: ${made ? "created" : "secret rotated"}`);
    const path = hookPath(row.id);
    return { nodeId, hookId: row.id, path, url: this.ctx.config.webhookBaseUrl ? this.ctx.config.webhookBaseUrl + path : null, secret };
  }

  // --- the public side: POST /api/hooks/<id> -----------------------------------------------------

  async receive(req: HookRequest): Promise<HookAnswer> {
    const waitAll = this.perAddress.take(req.address);
    if (waitAll > 0) throw rateLimited(waitAll, "hook requests from this address");
    const waitFail = this.failures.waitFor(req.address);
    if (waitFail > 0) throw rateLimited(waitFail, "failed hook requests from this address");
    if (req.idempotencyKey !== null && !IDEMPOTENCY_KEY.test(req.idempotencyKey)) throw badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters");
    const n = req.contentLength === null ? NaN : Number(req.contentLength);
    if (Number.isFinite(n) && n > HOOK_BODY_LIMIT) throw tooLarge();
    const row = HOOK_ID.test(req.hookId) ? hookById(this.ctx.db, req.hookId) : undefined;
    if (!row) {
      this.failed(req, "unknown hook");
      throw notFound("No such hook");
    }
    // Hashes of equal length compared in constant time: the stored value is a hash anyway.
    if (!req.secret || !safeEqual(sha256Hex(req.secret), row.secretHash)) {
      this.failed(req, "missing or wrong secret");
      throw new AppError(401, "UNAUTHORIZED", "Missing or wrong hook secret (X-Botloom-Secret or Authorization: Bearer)");
    }
    const data = (await this.hookNodes(row.projectId)).get(row.nodeId);
    if (!data) throw notFound("The hook's node is no longer in the project's scenario");
    const settings = hookSettingsOf(data);
    const wait = this.limiter(settings.perMinute).take(row.id);
    if (wait > 0) throw rateLimited(wait, "requests to this hook");
    const body = parseHookBody(req.contentType, await readCapped(req.body));
    return this.run(row, settings, body, req.idempotencyKey);
  }

  private async run(row: HookRow, settings: HookSettings, body: Record<string, unknown>, key: string | null): Promise<HookAnswer> {
    const read = readHookBody(settings, body);
    if ("problem" in read) throw badRequest(read.problem);
    const tokenId = this.tokenFor(row.projectId, settings);
    // A caller retrying after a timeout sends its key again: the flow (a message, goods) runs once.
    const now = Date.now();
    if (key !== null && !(await claimDelivery(this.ctx.db, row.id, key, new Date(now + IDEMPOTENCY_KEY_MS).toISOString(), new Date(now).toISOString()))) {
      return { ...answerOf(settings, read.vars), replayed: true };
    }
    if (!this.ctx.bots.tell(tokenId, { op: "hook", chatId: read.chatId, nodeId: row.nodeId, vars: read.vars })) {
      if (key !== null) await releaseDelivery(this.ctx.db, row.id, key);
      throw botNotRunning();
    }
    return answerOf(settings, read.vars);
  }

  /** The node's token when it names one of the project's, else the project's one running bot. */
  private tokenFor(projectId: number, s: HookSettings): number {
    const ids = tokenIdsOf(this.ctx.db, projectId);
    if (s.tokenId !== undefined) {
      if (!ids.includes(s.tokenId)) throw new AppError(409, "CONFLICT", `The hook's node names token ${s.tokenId}, which is not one of the project's`);
      return s.tokenId;
    }
    const running = ids.filter((id) => this.ctx.bots.state(id).status === "running");
    if (running.length > 1) throw new AppError(409, "HOOK_TOKEN_AMBIGUOUS", "Several bots of the project run: set the node's tokenId to the one that runs the flow");
    if (running.length === 0) throw botNotRunning();
    return running[0]!;
  }

  private failed(req: HookRequest, what: string) {
    const { count, locked } = this.failures.fail(req.address);
    // One line per failure up to the ladder's start, then only when it locks: a loop does not flood the log.
    if (count <= HOOK_FREE_FAILURES || locked) this.ctx.log.warn(`hook ${HOOK_ID.test(req.hookId) ? req.hookId : "(malformed id)"}: ${what} from ${req.address} (${count} in a row${locked ? "; locked for 15 minutes" : ""})`);
  }

  private limiter(perMinute: number): WindowLimiter {
    let l = this.perHook.get(perMinute);
    if (!l) this.perHook.set(perMinute, (l = new WindowLimiter(perMinute, 60_000)));
    return l;
  }

  /** The webhook_trigger nodes of the saved scenario (parsed again only when the project changed). */
  private async hookNodes(projectId: number): Promise<Map<string, Record<string, unknown>>> {
    const version = projectVersionOf(this.ctx.db, projectId);
    if (version === undefined) throw notFound("Project not found");
    const cached = this.nodes.get(projectId);
    if (cached && cached.version === version) return cached.data;
    const row = projectScenarioOf(this.ctx.db, projectId);
    const doc = row?.data ? normalizeDocument(readStoredScenario(row.data)) : null;
    const data = hookNodesOf(doc);
    if (this.nodes.size > 1000) this.nodes.clear();
    this.nodes.set(projectId, { version: row?.updatedAt ?? version, data });
    return data;
  }
}

// --- shared with the preview (POST /api/preview/<id>/hooks/<node>) -------------------------------

/** A webhook_trigger's settings among a document's (hookNodesOf); 404 when it has no such node. */
export function hookSettingsIn(nodes: Map<string, Record<string, unknown>>, nodeId: string): HookSettings {
  const data = nodes.get(nodeId);
  if (!data) throw notFound(`The scenario has no webhook_trigger node "${nodeId}"`);
  return hookSettingsOf(data);
}

export function answerOf(s: HookSettings, vars: Record<string, HookValue>): HookAnswer {
  const body = renderHookAnswer(s.body, vars);
  let json = false;
  try {
    JSON.parse(body);
    json = true;
  } catch {}
  return { status: s.status, body, contentType: json ? "application/json" : "text/plain; charset=utf-8" };
}

const tooLarge = () => new AppError(413, "PAYLOAD_TOO_LARGE", `A hook's body is at most ${HOOK_BODY_LIMIT / 1048576} MB`);
const botNotRunning = () => new AppError(409, "BOT_NOT_RUNNING", "The project's bot is not running: start it, then send the request again");

/** The body, refused as soon as it passes the limit (a chunked body announces no length). */
async function readCapped(stream: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > HOOK_BODY_LIMIT) {
        void reader.cancel().catch(() => {});
        throw tooLarge();
      }
      parts.push(value);
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw badRequest("The request body could not be read");
  }
  return Buffer.concat(parts);
}

/** JSON (an object) or a form; anything else is a 415. */
export function parseHookBody(contentType: string, bytes: Uint8Array): Record<string, unknown> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const text = new TextDecoder().decode(bytes);
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (type !== "application/json" && type !== "") throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "A hook's body is JSON (application/json) or a form (application/x-www-form-urlencoded)");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // a 10,000-level body may also end here: the parser refuses what it cannot hold
    throw badRequest("The body is not valid JSON");
  }
  const deep = tooDeep(value);
  if (deep !== null) throw badRequest(depthMessage("The request body", deep));
  if (!value || typeof value !== "object" || Array.isArray(value)) throw badRequest("The body must be a JSON object");
  return value as Record<string, unknown>;
}
