// The admin area (API.md "Admin area", EXTENSIONS.md "Admin additions"). Mounted only when an
// admin key exists or outside production; otherwise every /admin path is a plain 404.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError, badRequest } from "../../http/errors";
import { parsePositiveId } from "../../http/params";
import { settingsPutSchema } from "../settings/model";
import { ADMIN_COOKIE, adminCookieOptions, adminGuard, adminKeyMatches, issueAdminCookie, verifyAdminCookie } from "./admin-auth";
import { adminPatCreateSchema } from "./model";
import { hubPage } from "./pages/hub";
import { redirect } from "./pages/layout";
import { loginPage } from "./pages/login";
import { settingsPage } from "./pages/settings";
import { adminStorageRoutes } from "./storage-proxy";
import { adminUsersRoutes } from "./users";
import { adminVersionRoutes } from "./version";

export const adminRoutes = (ctx: AppContext) => {
  const loggedIn = (cookie: Record<string, { value?: unknown }>) => verifyAdminCookie(ctx.config.adminKey, cookie[ADMIN_COOKIE]?.value);

  return (
    new Elysia({ prefix: "/admin" })
      .use(adminGuard(ctx))
      .use(adminUsersRoutes(ctx))
      .use(adminVersionRoutes(ctx))
      .use(adminStorageRoutes(ctx))
      // --- public ---------------------------------------------------------------------------
      .post("/api/login", ({ body, cookie }) => {
        if (!ctx.config.adminKey) throw new AppError(503, "NOT_SET_UP", "No admin key is configured: start with `serve --init` or set ADMIN_KEY");
        const key = body && typeof body === "object" ? (body as Record<string, unknown>).key : undefined;
        if (!adminKeyMatches(ctx.config.adminKey, key)) return redirect("/admin/login?error=1");
        cookie[ADMIN_COOKIE].set({ value: issueAdminCookie(ctx.config.adminKey), ...adminCookieOptions(ctx) });
        return redirect(ctx.settings.isSetUp() ? "/admin" : "/admin/settings");
      })
      .post("/api/logout", ({ cookie }) => {
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
      // --- PATs (EXTENSIONS.md) -------------------------------------------------------------------
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
        loggedIn(cookie) ? redirect(ctx.settings.isSetUp() ? "/admin" : "/admin/settings") : loginPage({ error: query.error === "1", keyConfigured: ctx.config.adminKey !== null }),
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
          if (!(e instanceof AppError) || e.status >= 500 && e.status !== 502) throw e;
          const typed = (k: string) => (typeof form[k] === "string" ? form[k] : undefined);
          const res = settingsPage(ctx.settings.publicView(), {
            error: e.message,
            form: {
              loginMode: typed("loginMode"),
              clientId: typed("clientId"),
              botUsername: typed("botUsername"),
              operatorIds: typed("operatorIds"),
              retype: (["botToken", "clientSecret"] as const).filter((k) => typed(k)),
            },
          });
          return new Response(res.body, { status: e.status, headers: res.headers });
        }
      })
  );
};
