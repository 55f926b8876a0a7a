// Preview sessions (docs/preview.md): the Studio's "try the bot" chat as an HTTP API, so the web
// app, the bot-manager client or an agent can run previews. Same credentials as /api/projects; a
// session belongs to the user who started it and answers 404 to anyone else.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../errors";
import { parseIntQuery, parsePositiveId } from "../../http/params";
import { TemplatesService } from "../templates/service";
import { jsonAnswer } from "../../http/openapi-answer";
import { nodeIdParam } from "../hooks/hooks.routes";
import { hookPreviewAnswerSchema } from "../hooks/model";
import { actionSchema, actorSchema, createPreviewSchema, templatePreviewSchema, documentSchema, previewHookSchema, previewTranscriptSchema, previewViewSchema, variablesSchema } from "./model";

const sessionId = (raw: string | undefined) => {
  if (!raw || !/^[A-Za-z0-9]{16,32}$/.test(raw)) throw badRequest("preview id is malformed");
  return raw;
};

const fileId = (raw: string | undefined) => {
  if (!raw || !/^[A-Za-z0-9_-]{1,128}$/.test(raw)) throw badRequest("file id is malformed");
  return raw;
};

export const previewRoutes = (ctx: AppContext) => {
  const previews = ctx.preview;
  const templates = new TemplatesService(ctx);
  return new Elysia()
    .use(authPlugin(ctx))
    .post(
      "/api/projects/:id/preview",
      async ({ actor, params, body, set }) => {
        const view = await previews.create(actor.userId, parsePositiveId(params.id, "id"), body?.document);
        set.status = 201;
        return view;
      },
      { user: true, body: createPreviewSchema, detail: { summary: "Start a preview of the project's saved scenario, or of an unsaved document" } },
    )
    .post(
      "/api/templates/:id/preview",
      async ({ actor, params, set }) => {
        const template = templates.get(parsePositiveId(params.id, "id"), actor.userId);
        const view = await previews.createForTemplate(actor.userId, template);
        set.status = 201;
        return view;
      },
      { user: true, body: templatePreviewSchema, detail: { summary: "Try a template: its scenario as a preview bot, no project made" } },
    )
    .get("/api/preview/:sid", ({ actor, params }) => previews.get(actor.userId, sessionId(params.sid)), { user: true, detail: { summary: "A preview session: status, bot, users, commands", ...jsonAnswer(previewViewSchema) } })
    .delete(
      "/api/preview/:sid",
      async ({ actor, params }) => {
        await previews.stop(actor.userId, sessionId(params.sid));
        return { success: true };
      },
      { user: true, detail: { summary: "Stop a preview: its bot process, emulator and files are gone when this answers" } },
    )
    .get(
      "/api/preview/:sid/transcript",
      ({ actor, params, query }) =>
        previews.transcript(actor.userId, sessionId(params.sid), {
          after: query.after === undefined ? undefined : parseIntQuery(query.after, "after", { default: 0, min: 0 }),
          waitMs: parseIntQuery(query.wait, "wait", { default: 0, min: 0, max: 25_000 }),
          all: query.all === "1" || query.all === "true",
          changes: query.changes === "1" || query.changes === "true",
        }),
      { user: true, detail: { summary: "The chat of the current preview user; ?after=<version>&wait=<ms> waits for a change, &changes=1 answers only what changed after it", ...jsonAnswer(previewTranscriptSchema) } },
    )
    .post("/api/preview/:sid/actions", ({ actor, params, body }) => previews.act(actor.userId, sessionId(params.sid), body), {
      user: true,
      body: actionSchema,
      detail: { summary: "Act as the preview user: send text, press an inline button, send a photo, document, location or contact" },
    })
    .put("/api/preview/:sid/actor", ({ actor, params, body }) => previews.setActor(actor.userId, sessionId(params.sid), body), {
      user: true,
      body: actorSchema,
      detail: { summary: "Switch the preview user (ordinary, admin, a second user) and chat (private or group)" },
    })
    .put("/api/preview/:sid/document", ({ actor, params, body }) => previews.replaceDocument(actor.userId, sessionId(params.sid), body.document), {
      user: true,
      body: documentSchema,
      detail: { summary: "Run an edited, unsaved document in the same preview (chats and variables stay)" },
    })
    .get("/api/preview/:sid/variables", ({ actor, params }) => previews.variables(actor.userId, sessionId(params.sid)), { user: true, detail: { summary: "Variables of the current preview chat" } })
    .put("/api/preview/:sid/variables", ({ actor, params, body }) => previews.setVariables(actor.userId, sessionId(params.sid), body.variables), {
      user: true,
      body: variablesSchema,
      detail: { summary: "Replace the variables of the current preview chat" },
    })
    .post("/api/preview/:sid/hooks/:nodeId", ({ actor, params, body }) => previews.fireHook(actor.userId, sessionId(params.sid), nodeIdParam(params.nodeId), body), {
      user: true,
      body: previewHookSchema,
      detail: { summary: "Fire a webhook_trigger node in the preview chat with this body (no secret: the preview is its starter's; docs/hooks.md)", ...jsonAnswer(hookPreviewAnswerSchema) },
    })
    .get("/api/preview/:sid/log", ({ actor, params }) => previews.log(actor.userId, sessionId(params.sid)), { user: true, detail: { summary: "What the preview bot printed (its last 200 lines)" } })
    .get(
      "/api/preview/:sid/files/:fileId",
      async ({ actor, params }) => {
        const f = await previews.file(actor.userId, sessionId(params.sid), fileId(params.fileId));
        return new Response(f.bytes.slice(), {
          headers: {
            "content-type": f.mime_type,
            // only pictures show in the chat; anything else (a user's HTML "document") is a download
            "content-disposition": f.mime_type.startsWith("image/") ? "inline" : "attachment",
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; sandbox",
          },
        });
      },
      { user: true, detail: { summary: "A file of the preview chat (what the bot or the user sent)" } },
    );
};
