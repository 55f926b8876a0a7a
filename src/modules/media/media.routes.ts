// docs/api.md#media: project media (project access required) and the public /uploads links.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../errors";
import { parsePositiveId } from "../../http/params";
import { jsonAnswer } from "../../http/openapi-answer";
import { mediaViewSchema } from "./model";
import { memberProjectId } from "../projects/member";
import { serveUpload } from "./serve";
import { z } from "zod";

/** The `file` part of a multipart body; everything else a client can send wrong is a 400. */
async function filePart(request: Request): Promise<File> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    throw badRequest("Send the file as multipart/form-data in the field `file`");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw badRequest("Malformed multipart body");
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw badRequest("The multipart field `file` must carry a file");
  return file;
}

export const mediaRoutes = (ctx: AppContext) => {
  const media = ctx.media;

  return new Elysia()
    .use(authPlugin(ctx))
    .post(
      "/api/projects/:id/media",
      async ({ params, request, actor, set }) => {
        const projectId = memberProjectId(ctx, params.id, actor.userId);
        const view = await media.upload(projectId, await filePart(request));
        set.status = 201;
        return view;
      },
      // The body is read by filePart, after authentication and the access check.
      { user: true, parse: "none" },
    )
    .get(
      "/api/projects/:id/media",
      ({ params, actor }) => {
        const projectId = memberProjectId(ctx, params.id, actor.userId);
        return media.list(projectId);
      },
      { user: true, detail: jsonAnswer(z.array(mediaViewSchema)) },
    )
    .delete(
      "/api/projects/:id/media/:mediaId",
      async ({ params, actor }) => {
        const projectId = parsePositiveId(params.id, "id");
        const mediaId = parsePositiveId(params.mediaId, "mediaId");
        ctx.access.require(projectId, actor.userId);
        await media.remove(projectId, mediaId);
        return { success: true };
      },
      { user: true },
    )
    .get("/uploads/*", ({ request }) => serveUpload(ctx.storage, media, ctx.log, request))
    .head("/uploads/*", ({ request }) => serveUpload(ctx.storage, media, ctx.log, request, true));
};
