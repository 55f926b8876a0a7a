// docs/api.md#storage-configs. A platform-wide setting: where every user's uploads go. Any signed-in
// user may list them (no secrets); managing them is for platform operators only (docs/api.md#storage-configs,
// a hardening beyond the older platform: an ordinary user could otherwise point the active
// store at his own server and receive everyone's uploads). The admin has twins under /admin/api.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { badRequest } from "../../errors";
import { createStorageSchema, STORAGE_ID_PATTERN, updateStorageSchema } from "./model";

/** A storage config id from the path (shared with the admin twins of these routes). */
export function parseStorageId(raw: string | undefined): string {
  if (raw === undefined || !STORAGE_ID_PATTERN.test(raw)) throw badRequest("id must be a storage config id (^[a-z0-9][a-z0-9-]{1,62}$)");
  return raw;
}

const OPERATORS = { description: "Platform operators only (platform.operatorIds in the admin settings): 403 FORBIDDEN for every other user." };

export const storageRoutes = (ctx: AppContext) => {
  const service = ctx.storageConfigs;

  return new Elysia({ prefix: "/api/storage-configs" })
    .use(authPlugin(ctx))
    .get("", () => service.list(), { user: true })
    .post(
      "",
      ({ body, set }) => {
        const view = service.create(body);
        set.status = 201;
        return view;
      },
      { operator: true, body: createStorageSchema, detail: OPERATORS },
    )
    .patch("/:id", ({ params, body }) => service.update(parseStorageId(params.id), body), { operator: true, body: updateStorageSchema, detail: OPERATORS })
    .delete("/:id", ({ params }) => service.remove(parseStorageId(params.id)), { operator: true, detail: OPERATORS })
    .post("/:id/test", ({ params }) => service.test(parseStorageId(params.id)), { operator: true, detail: OPERATORS });
};
