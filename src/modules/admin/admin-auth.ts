// The admin session: cookie `admin_auth` = "<expiresAtMs>.<hmac>", the HMAC keyed by a value
// derived from the admin key, so changing the key logs every admin out (docs/api.md#admin-area).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../errors";
import { hmacHex, safeEqual, sha256Hex } from "../../lib/crypto";
import { crossSiteWrite } from "../../http/same-origin";

export const ADMIN_COOKIE = "admin_auth";
export const ADMIN_TTL_S = 7 * 24 * 3600;

const derivedKey = (adminKey: string) => sha256Hex(`botloom-admin-cookie:${adminKey}`);

export function issueAdminCookie(adminKey: string, now = Date.now()): string {
  const exp = now + ADMIN_TTL_S * 1000;
  return `${exp}.${hmacHex(derivedKey(adminKey), `admin:${exp}`)}`;
}

/** `validFrom`: cookies issued before it are void (a logout ended them). */
export function verifyAdminCookie(adminKey: string | null, value: unknown, now = Date.now(), validFrom = 0): boolean {
  if (!adminKey || typeof value !== "string" || value.length > 200) return false;
  const dot = value.indexOf(".");
  if (dot <= 0) return false;
  const exp = value.slice(0, dot);
  if (!/^\d{1,15}$/.test(exp)) return false;
  if (!safeEqual(value.slice(dot + 1), hmacHex(derivedKey(adminKey), `admin:${exp}`))) return false;
  return Number(exp) > now && Number(exp) - ADMIN_TTL_S * 1000 >= validFrom;
}

/** The request's admin cookie opens the admin area: signed, not expired, not ended by a logout. */
export const adminSession = (ctx: AppContext, value: unknown): boolean => verifyAdminCookie(ctx.config.adminKey, value, Date.now(), ctx.settings.adminSessionsFrom());

/** Constant-time check of a submitted admin key. */
export function adminKeyMatches(adminKey: string | null, submitted: unknown): boolean {
  if (!adminKey || typeof submitted !== "string") return false;
  return safeEqual(sha256Hex(submitted), sha256Hex(adminKey));
}

export const adminCookieOptions = (ctx: AppContext) => ({
  httpOnly: true,
  path: "/admin",
  sameSite: "lax" as const,
  secure: ctx.config.production,
  maxAge: ADMIN_TTL_S,
});

/** `{ admin: true }` on a route: 401 ADMIN_UNAUTHORIZED without a valid admin session. User sessions and PATs never count here. */
export const adminGuard = (ctx: AppContext) =>
  new Elysia().macro({
    admin: {
      // `transform` runs before body validation: no admin session is 401 whatever the body.
      transform({ cookie, request }) {
        if (!adminSession(ctx, cookie[ADMIN_COOKIE]?.value)) {
          throw new AppError(401, "ADMIN_UNAUTHORIZED", "Admin session required: log in at /admin/login");
        }
        // The admin cookie is SameSite=Lax too: a page of the same site could post a form that
        // changes the settings (the login mode) or mints a token (docs/security.md "Cross-site requests").
        if (crossSiteWrite(request, ctx.config.ownHosts)) {
          throw new AppError(403, "FORBIDDEN", "A page of another site cannot act with the admin session");
        }
      },
    },
  });
