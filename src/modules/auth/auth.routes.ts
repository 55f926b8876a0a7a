// docs/api.md#auth-and-personal-access-tokens: how ordinary users get a session, and their own PATs.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest, forbidden } from "../../errors";
import { parsePaging, parsePositiveId } from "../../http/params";
import { clientAddress, rateLimited, WindowLimiter } from "../../http/rate-limit";
import { jsonAnswer } from "../../http/openapi-answer";
import { authConfigSchema, devLoginSchema, patCreateSchema, publicUserSchema, widgetLoginSchema } from "./model";
import { z } from "zod";
import { SESSION_COOKIE } from "../../actor";
import { SESSION_TTL_MS } from "./service";
import { LOGIN_STATE_COOKIE, LOGIN_STATE_TTL_S, LoginState } from "./login-state";
import { fromBrowser, fromOtherSite } from "../../http/same-origin";

export const authRoutes = (ctx: AppContext) => {
  const cookieOptions = () => ({
    httpOnly: true,
    sameSite: "lax" as const,
    secure: ctx.config.production,
    path: "/",
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });

  // Per client address (dev-login would otherwise mint sessions for any id as fast as one asks)
  // and per user for PATs; the window limiters live as long as this app.
  const logins = new WindowLimiter(ctx.config.limits.loginAttemptsPerMinute, 60_000);
  const patCreations = new WindowLimiter(ctx.config.limits.patCreationsPerHour, 3_600_000);
  const limitLogins = (from: string, set: { headers: Record<string, string | number> }) => {
    const { wait, firstRefusal } = logins.attempt(from);
    if (wait === 0) return;
    set.headers["retry-after"] = String(wait);
    if (firstRefusal) ctx.log.warn(`login attempts from ${from} over ${ctx.config.limits.loginAttemptsPerMinute} a minute: refused for ${wait} s`);
    throw rateLimited(wait, "login attempts from your address");
  };

  // docs/security.md "Login": a page of another site never logs a browser in, and a browser's
  // widget login needs the state cookie its own login page asked for.
  const loginState = new LoginState(ctx.config.sessionSecret);
  const refuseOtherSites = (request: Request) => {
    if (fromOtherSite(request, ctx.config.ownHosts)) throw forbidden("Logging in from another site is not allowed");
  };
  const stateCookieOptions = () => ({
    httpOnly: true,
    sameSite: "strict" as const,
    secure: ctx.config.production,
    path: "/api/auth",
    maxAge: LOGIN_STATE_TTL_S,
  });

  return new Elysia({ prefix: "/api/auth" })
    .use(authPlugin(ctx))
    .get(
      "/config",
      () => {
        const mode = ctx.settings.loginMode();
        const view = ctx.settings.publicView();
        return { setUp: ctx.settings.isSetUp(), loginMode: mode, botUsername: view.providers.messenger.botUsername };
      },
      { detail: jsonAnswer(authConfigSchema) },
    )
    .post(
      "/login-state",
      ({ cookie, request }) => {
        refuseOtherSites(request);
        cookie[LOGIN_STATE_COOKIE].set({ value: loginState.issue(), ...stateCookieOptions() });
        return { success: true, expiresIn: LOGIN_STATE_TTL_S };
      },
      { detail: { description: "Begins a widget login in this browser: sets the httpOnly state cookie that POST /api/auth/messenger-login requires of browsers. 403 from a page of another site." } },
    )
    .post(
      "/dev-login",
      ({ body, cookie, server, request, set }) => {
        limitLogins(clientAddress(server, request, ctx.config.trustedProxies), set);
        refuseOtherSites(request);
        if (ctx.settings.loginMode() !== "dev_login") throw forbidden("Developer login is disabled on this server");
        const user = ctx.auth.upsertUser({ id: body.userId, firstName: body.firstName, lastName: body.lastName, username: body.username });
        cookie[SESSION_COOKIE].set({ value: ctx.auth.createSession(user.id), ...cookieOptions() });
        return { user };
      },
      { body: devLoginSchema },
    )
    .post(
      "/messenger-login",
      ({ body, cookie, server, request, set }) => {
        limitLogins(clientAddress(server, request, ctx.config.trustedProxies), set);
        refuseOtherSites(request);
        if (ctx.settings.loginMode() !== "messenger_widget") throw forbidden("Messenger login is disabled on this server");
        if (fromBrowser(request.headers) && !loginState.valid(cookie[LOGIN_STATE_COOKIE]?.value)) {
          throw forbidden("This login was not started in this browser; open the login page and log in again");
        }
        ctx.auth.verifyWidget(body, ctx.settings.messengerBotToken());
        const id = Number(body.id);
        if (!Number.isSafeInteger(id)) throw badRequest("id is out of range");
        ctx.auth.consumeWidget(body);
        const user = ctx.auth.upsertUser({ id, firstName: body.first_name, lastName: body.last_name ?? null, username: body.username ?? null, photoUrl: body.photo_url ?? null });
        cookie[SESSION_COOKIE].set({ value: ctx.auth.createSession(user.id), ...cookieOptions() });
        cookie[LOGIN_STATE_COOKIE].set({ value: "", ...stateCookieOptions(), maxAge: 0 });
        return { user };
      },
      {
        body: widgetLoginSchema,
        detail: {
          description:
            "Logs in with a Login Widget payload. Each payload once (again: 401). A browser's request (Origin or Sec-Fetch-Site present) also needs the login_state cookie of POST /api/auth/login-state (403 without); 403 from another site.",
        },
      },
    )
    .get(
      "/me",
      ({ actor }) => {
        const user = ctx.auth.getUser(actor.userId) ?? { id: actor.userId, firstName: "", lastName: null, username: null, photoUrl: null };
        return { user };
      },
      { user: true, detail: jsonAnswer(z.object({ user: publicUserSchema })) },
    )
    .post("/logout", async ({ cookie }) => {
      // Previews end with the session that started them (they would otherwise idle for 30 minutes).
      const userId = ctx.auth.resolveSession(cookie[SESSION_COOKIE]?.value);
      if (userId !== null) await ctx.preview.stopAllOf(userId);
      ctx.auth.deleteSession(cookie[SESSION_COOKIE]?.value);
      cookie[SESSION_COOKIE].set({ value: "", ...cookieOptions(), maxAge: 0 });
      return { success: true };
    })
    .get(
      "/pats",
      ({ actor, query }) => {
        // Unpaged: every token, as before (bounded by the per-user cap); paged on request.
        const paging = parsePaging(query);
        const items = ctx.auth.listPats(actor.userId, paging ?? undefined).map(({ userId: _u, ...p }) => p);
        if (!paging) return { items, count: items.length };
        return { items, count: items.length, total: ctx.auth.countPats(actor.userId), page: paging.page, perPage: paging.perPage };
      },
      { user: true, detail: { description: "The caller's PATs, newest first: { items, count }. Optional paging page (from 1) and perPage (1-200, default 50) adds total, page and perPage." } },
    )
    .post(
      "/pats",
      ({ actor, body, set }) => {
        // A leaked token must not be able to mint more of itself: new tokens need a logged-in session.
        if (actor.via !== "session") throw forbidden("Personal access tokens can only be created from a logged-in session");
        const wait = patCreations.take(String(actor.userId));
        if (wait > 0) {
          set.headers["retry-after"] = String(wait);
          throw rateLimited(wait, "new personal access tokens");
        }
        const { userId: _u, ...pat } = ctx.auth.createOwnPat(actor.userId, body.name, ctx.config.limits.maxPatsPerUser);
        set.status = 201;
        return pat;
      },
      {
        user: true,
        body: patCreateSchema,
        detail: { description: "From a session only. 429 RATE_LIMITED (Retry-After) past PAT_CREATIONS_PER_HOUR; 409 when the caller holds MAX_PATS_PER_USER tokens." },
      },
    )
    .delete(
      "/pats/:id",
      ({ actor, params }) => {
        ctx.auth.deletePat(parsePositiveId(params.id, "id"), actor.userId);
        return { success: true };
      },
      { user: true },
    );
};
