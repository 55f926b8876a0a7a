// docs/api.md#live-events: GET /api/events upgrades to a WebSocket for the signed-in user
// (cookie or Bearer, like /api/projects). The credential check runs before the upgrade, so a
// missing or bad credential is a plain HTTP 401. Server → client only.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin, resolveActor } from "../../http/auth";
import { fromOtherSite } from "../../http/same-origin";
import { SESSION_COOKIE } from "../../actor";
import { badRequest, forbidden } from "../../errors";
import { SocketHub } from "./hub";

export const eventsRoutes = (ctx: AppContext) => {
  const hub = new SocketHub();
  ctx.events.on("projects-changed", (e) => hub.deliver(e));
  // docs/dialogs.md: every member of the project (owner and collaborators) sees its chats live.
  ctx.events.on("chat-message", (e) => hub.send(() => ctx.projects.team.memberIds(e.projectId), { event: "chat-message", ...e }));
  ctx.events.on("campaign", (e) => hub.send(() => ctx.projects.team.memberIds(e.projectId), { event: "campaign", ...e }));
  return (
    new Elysia({ prefix: "/api" })
      .use(authPlugin(ctx))
      .ws("/events", {
        user: true,
        // WebSocket handshakes are not bound by CORS and carry the Lax session cookie from pages of
        // the same site (another port or subdomain): only this server's own pages may listen.
        beforeHandle({ request }) {
          if (fromOtherSite(request, ctx.config.ownHosts)) throw forbidden("Live events are for this server's own pages");
        },
        open(ws) {
          const { userId } = ws.data.actor;
          const authorization = ws.data.headers.authorization;
          const session = ws.data.cookie[SESSION_COOKIE]?.value;
          const stillValid = () => {
            try {
              return resolveActor(ctx, authorization, session)?.userId === userId;
            } catch {
              return false;
            }
          };
          hub.add(userId, ws.raw, stillValid);
        },
        close(ws) {
          hub.remove(ws.data.actor.userId, ws.raw);
        },
        message() {
          // clients have nothing to say; messages are ignored
        },
      })
      // Only requests without an Upgrade header reach this (the WebSocket route takes the others).
      .get(
        "/events",
        () => {
          throw badRequest("GET /api/events is a WebSocket: send an Upgrade request");
        },
        { user: true },
      )
  );
};
