// Resolves the acting user of every user route: the `connect.sid` session or a Bearer PAT.
// Routes opt in with `{ user: true }` (docs/api.md#authentication "User" level) or `{ botActor: true }` (the actor
// rules of /api/bot/*). Both give the handler `actor`.
import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { changeStamp } from "../db/change-stamp";
import { SESSION_COOKIE, type Actor } from "../actor";
import { badRequest, forbidden, unauthorized } from "../errors";
import { crossSiteWrite } from "./same-origin";

export type { Actor };

/**
 * The PAT of a `Bearer` header ("" when malformed, which is 401); null without one. Other schemes
 * are not ours: a reverse proxy's `Basic` login reaches us on every browser request beside the cookie.
 */
function bearerOf(header: string | null | undefined): string | null {
  if (!header || !/^Bearer(\s|$)/i.test(header)) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : "";
}

/**
 * Credentials already resolved, until the database's change stamp moves (any write anywhere: a
 * logout, a revoked PAT, a deleted user) or their time is up. Resolving one costs hashing and a
 * query per request; most requests of a client repeat the same credentials between writes.
 */
class KnownCredentials {
  /** Short enough that a session's expiry and a PAT's lastUsedAt (refreshed each minute) stay close. */
  static readonly TTL_MS = 30_000;
  static readonly MAX = 2000;
  private readonly stamp: () => string;
  private readonly known = new Map<string, { stamp: string; until: number; actor: Actor }>();
  /** bot_manager acting users known to exist, with the stamp they were checked at */
  private readonly users = new Map<number, string>();

  constructor(ctx: AppContext) {
    this.stamp = changeStamp(ctx.db);
  }

  resolve(credential: string, slow: () => Actor): Actor {
    const stamp = this.stamp();
    const hit = this.known.get(credential);
    const now = Date.now();
    if (hit && hit.stamp === stamp && hit.until > now) return hit.actor;
    // Throws for an invalid credential: nothing is kept for it. The stamp is read again after the
    // slow path, which may write (a PAT's lastUsedAt, an expired session's removal).
    const actor = slow();
    this.known.delete(credential);
    if (this.known.size >= KnownCredentials.MAX) this.known.delete(this.known.keys().next().value!);
    this.known.set(credential, { stamp: this.stamp(), until: now + KnownCredentials.TTL_MS, actor });
    return actor;
  }

  /** The acting user of a bot_manager request exists (its row is created once, then only checked while nothing was written). */
  ensureUser(ctx: AppContext, userId: number) {
    const stamp = this.stamp();
    if (this.users.get(userId) === stamp) return;
    ctx.auth.ensureUser(userId);
    if (this.users.size >= KnownCredentials.MAX) this.users.delete(this.users.keys().next().value!);
    this.users.set(userId, this.stamp());
  }
}

const knownOf = new WeakMap<AppContext, KnownCredentials>();
const known = (ctx: AppContext) => {
  let k = knownOf.get(ctx);
  if (!k) knownOf.set(ctx, (k = new KnownCredentials(ctx)));
  return k;
};

/** Session cookie or PAT → actor; null when neither is present; 401 when one is present but invalid. */
export function resolveActor(ctx: AppContext, authorization: string | null | undefined, cookieValue: unknown): Actor | null {
  const bearer = bearerOf(authorization);
  if (bearer !== null) {
    return known(ctx).resolve(`pat ${bearer}`, () => {
      const actor = ctx.auth.resolvePat(bearer);
      if (!actor) throw unauthorized("Invalid or revoked access token");
      return actor;
    });
  }
  if (typeof cookieValue === "string" && cookieValue !== "") {
    return known(ctx).resolve(`session ${cookieValue}`, () => {
      const userId = ctx.auth.resolveSession(cookieValue);
      if (userId === null) throw unauthorized("Session expired or invalid; log in again");
      return { userId, via: "session", scopes: [] };
    });
  }
  if (cookieValue !== undefined && cookieValue !== "") throw unauthorized("Session expired or invalid; log in again");
  return null;
}

function parseMessengerId(query: Record<string, string | undefined>): number | null {
  const a = query.messenger_id;
  const b = query.telegram_id; // docs/api.md: compatibility alias
  if (a !== undefined && b !== undefined && a !== b) throw badRequest("messenger_id and telegram_id differ");
  const raw = a ?? b;
  if (raw === undefined || raw === "") return null;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw))) throw badRequest("messenger_id must be a positive integer");
  return Number(raw);
}

/** docs/api.md#actor-rules-for-apibot. */
export function botActorOf(ctx: AppContext, actor: Actor, query: Record<string, string | undefined>): Actor {
  const messengerId = parseMessengerId(query);
  if (actor.scopes.includes("bot_manager")) {
    if (messengerId === null) throw badRequest("A bot_manager token must name the acting user with messenger_id");
    known(ctx).ensureUser(ctx, messengerId);
    return { userId: messengerId, via: actor.via, scopes: actor.scopes };
  }
  if (messengerId !== null && messengerId !== actor.userId) throw forbidden("messenger_id does not match the authenticated user");
  return actor;
}

/**
 * The session cookie (SameSite=Lax) goes with a form or a fetch from any page of the same site —
 * another port of the host, a sibling subdomain such as a Mini App — so a browser's request that
 * changes something and says it came from another site is refused (docs/security.md "Cross-site
 * requests"). A PAT is sent only by whoever holds it; scripts send no Origin and are not judged.
 */
function refuseCrossSite(ctx: AppContext, request: Request, actor: Actor) {
  if (actor.via === "session" && crossSiteWrite(request, ctx.config.ownHosts)) throw forbidden("A page of another site cannot act with your session");
}

/** The session cookie's value as a cookie jar would read it (the first of that name, decoded); undefined without one. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const v = part.slice(eq + 1).trim();
    if (!v.includes("%")) return v;
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  }
  return undefined;
}

/** The acting user of a request (401 without valid credentials), a cross-site write refused. */
function actorOf(ctx: AppContext, c: { headers: Record<string, string | undefined>; request: Request }): Actor {
  const actor = resolveActor(ctx, c.headers.authorization, sessionCookieOf(c.headers.cookie));
  if (!actor) throw unauthorized();
  refuseCrossSite(ctx, c.request, actor);
  return actor;
}

// Credentials are checked in `transform`, which runs before body validation, so a request without
// valid credentials is 401 whatever its body; `resolve` then hands the actor to the handler. The
// hooks name each part of the request they read: Elysia reads a hook's source to decide what to
// parse for its routes, and a context handed on whole made every user route parse its cookies
// into a jar and its query string, which none of them needs for its credentials.
const EARLY = Symbol("actor");

export const authPlugin = (ctx: AppContext) =>
  new Elysia().macro({
    user: {
      transform(c) {
        (c as any)[EARLY] = actorOf(ctx, { headers: c.headers, request: c.request });
      },
      resolve: (c) => ({ actor: (c as any)[EARLY] as Actor }),
    },
    // docs/api.md#storage-configs: a signed-in user the admin named in platform.operatorIds.
    // Checked before the body, like the credentials: a non-operator learns nothing from validation.
    operator: {
      transform(c) {
        const actor = actorOf(ctx, { headers: c.headers, request: c.request });
        if (!ctx.settings.isOperator(actor.userId)) {
          throw forbidden("Only platform operators may manage storage configs; the admin names them in the platform settings");
        }
        (c as any)[EARLY] = actor;
      },
      resolve: (c) => ({ actor: (c as any)[EARLY] as Actor }),
    },
    botActor: {
      transform(c) {
        (c as any)[EARLY] = botActorOf(ctx, actorOf(ctx, { headers: c.headers, request: c.request }), c.query as Record<string, string | undefined>);
      },
      resolve: (c) => ({ actor: (c as any)[EARLY] as Actor }),
    },
  });
