// The admin area (docs/api.md#admin-area, docs/api.md#admin-area). Mounted only when an
// admin key exists or outside production; otherwise every /admin path is a plain 404.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError, badRequest, toAppError } from "../../errors";
import { parsePositiveId } from "../../http/params";
import { settingsPutSchema } from "../settings/model";
import { ADMIN_COOKIE, adminCookieOptions, adminGuard, adminKeyMatches, adminSession, issueAdminCookie } from "./admin-auth";
import { crossSiteWrite } from "../../http/same-origin";
import { adminPatCreateSchema } from "./model";
import { clientAddress, FailureLadder, LOCK_MS, rateLimited } from "../../http/rate-limit";
import { hubPage } from "./pages/hub";
import { redirect } from "./pages/layout";
import { loginPage } from "./pages/login";
import { settingsPage } from "./pages/settings";
import { adminStorageRoutes } from "./storage-proxy.routes";
import { adminUsersRoutes } from "./users.routes";
import { adminVersionRoutes } from "./version.routes";

const isFormPost = (request: Request) => /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(request.headers.get("content-type") ?? "");
/** `?wait=` of the login page: whole seconds, at most the lock's length; anything else shows nothing. */
const waitOf = (raw: string | undefined) => (raw && /^\d{1,4}$/.test(raw) && Number(raw) > 0 && Number(raw) <= LOCK_MS / 1000 ? Number(raw) : undefined);

export const adminRoutes = (ctx: AppContext) => {
  const ladder = new FailureLadder(ctx.config.limits.adminLoginFreeFailures);
  const loggedIn = (cookie: Record<string, { value?: unknown }>) => adminSession(ctx, cookie[ADMIN_COOKIE]?.value);

  return (
    new Elysia({ prefix: "/admin" })
      .use(adminGuard(ctx))
      .use(adminUsersRoutes(ctx))
      .use(adminVersionRoutes(ctx))
      .use(adminStorageRoutes(ctx))
      // --- public ---------------------------------------------------------------------------
      .post("/api/login", ({ body, cookie, server, request, set }) => {
        if (!ctx.config.adminKey) throw new AppError(503, "NOT_SET_UP", "No admin key is configured: start with `serve --init` or set ADMIN_KEY");
        const from = clientAddress(server, request, ctx.config.trustedProxies);
        const wait = ladder.waitFor(from);
        if (wait > 0) {
          // The login form gets its page back with the wait; scripts get 429. Either way no key is checked.
          if (isFormPost(request)) return redirect(`/admin/login?wait=${wait}`);
          set.headers["retry-after"] = String(wait);
          throw rateLimited(wait, "wrong admin keys from your address");
        }
        const key = body && typeof body === "object" ? (body as Record<string, unknown>).key : undefined;
        if (!adminKeyMatches(ctx.config.adminKey, key)) {
          const { count, locked } = ladder.fail(from);
          // the address and the count only: never what was typed
          if (locked) ctx.log.warn(`admin login: ${from} locked for ${LOCK_MS / 60_000} minutes after ${count} wrong keys`);
          else ctx.log.warn(`admin login: wrong key from ${from} (${count} in a row)`);
          return redirect("/admin/login?error=1");
        }
        ladder.succeed(from);
        cookie[ADMIN_COOKIE].set({ value: issueAdminCookie(ctx.config.adminKey), ...adminCookieOptions(ctx) });
        return redirect(ctx.settings.isSetUp() ? "/admin" : "/admin/settings");
      })
      .post("/api/logout", async ({ cookie, request }) => {
        // A logout ends every admin session issued until now, so a copied cookie is void too; only
        // the admin's own page may do that (anyone else could log the admin out at will).
        if (loggedIn(cookie) && !crossSiteWrite(request, ctx.config.ownHosts)) await ctx.settings.endAdminSessions();
        cookie[ADMIN_COOKIE].set({ value: "", ...adminCookieOptions(ctx), maxAge: 0 });
        return redirect("/admin/login");
      })
      .get("/api/status", ({ cookie }) => ({ authenticated: loggedIn(cookie), adminEnabled: true }))
      // --- settings ---------------------------------------------------------------------------
      .get("/api/app-settings", () => {
        const { configured: _c, ...view } = ctx.settings.publicView();
        return view;
      }, { admin: true })
      .put(
        "/api/app-settings",
        async ({ body }) => {
          const view = await ctx.settings.update(body);
          return {
            success: true,
            configured: view.configured,
            auth: view.auth,
            providers: { messenger: { configured: view.providers.messenger.configured, botUsername: view.providers.messenger.botUsername } },
            platform: view.platform,
          };
        },
        { admin: true, body: settingsPutSchema },
      )
      // --- PATs (docs/api.md) -------------------------------------------------------------------
      .get("/api/pats", () => {
        const items = ctx.auth.listPats();
        return { items, count: items.length };
      }, { admin: true })
      .post(
        "/api/pats",
        ({ body, set }) => {
          ctx.auth.ensureUser(body.userId);
          set.status = 201;
          return ctx.auth.createPat(body.userId, body.name, body.scopes);
        },
        { admin: true, body: adminPatCreateSchema },
      )
      .delete("/api/pats/:id", ({ params }) => {
        ctx.auth.deletePat(parsePositiveId(params.id, "id"));
        return { success: true };
      }, { admin: true })
      // --- pages ----------------------------------------------------------------------------------
      // Already logged in: the login form has nothing to offer, go where the login would lead.
      .get("/login", ({ query, cookie }) =>
        loggedIn(cookie) ? redirect(ctx.settings.isSetUp() ? "/admin" : "/admin/settings") : loginPage({ error: query.error === "1", keyConfigured: ctx.config.adminKey !== null, waitSeconds: waitOf(query.wait) }),
      )
      .get("", ({ cookie }) => (loggedIn(cookie) ? hubPage() : redirect("/admin/login")))
      .get("/", ({ cookie }) => (loggedIn(cookie) ? hubPage() : redirect("/admin/login")))
      .get("/settings", ({ cookie, query }) =>
        loggedIn(cookie) ? settingsPage(ctx.settings.publicView(), { saved: query.saved === "1" }) : redirect("/admin/login"),
      )
      .post("/settings", async ({ cookie, body }) => {
        if (!loggedIn(cookie)) return redirect("/admin/login");
        const form = (body && typeof body === "object" ? body : {}) as Record<string, string>;
        const wasSetUp = ctx.settings.isSetUp();
        const input = {
          auth: { loginMode: form.loginMode },
          messenger: { clientId: form.clientId ?? "", botToken: form.botToken ?? "", clientSecret: form.clientSecret ?? "", botUsername: form.botUsername ?? "" },
          // Older forms (and scripts posting them) have no operators field: absent keeps the list.
          ...(typeof form.operatorIds === "string" ? { platform: { operatorIds: form.operatorIds } } : {}),
        };
        const parsed = settingsPutSchema.safeParse(input);
        try {
          if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
          const view = await ctx.settings.update(parsed.data);
          // First run ends on the hub; a later change stays here and says it was saved.
          return redirect(view.configured && !wasSetUp ? "/admin" : "/admin/settings?saved=1");
        } catch (e) {
          const refused = toAppError(e);
          if (!refused || refused.status >= 500 && refused.status !== 502) throw e;
          const typed = (k: string) => (typeof form[k] === "string" ? form[k] : undefined);
          const res = settingsPage(ctx.settings.publicView(), {
            error: refused.message,
            form: {
              loginMode: typed("loginMode"),
              clientId: typed("clientId"),
              botUsername: typed("botUsername"),
              operatorIds: typed("operatorIds"),
              retype: (["botToken", "clientSecret"] as const).filter((k) => typed(k)),
            },
          });
          return new Response(res.body, { status: refused.status, headers: res.headers });
        }
      })
  );
};
