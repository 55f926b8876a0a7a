// Admin twins of the storage-config endpoints the hub needs. The storage API lives in the user area
// (connect.sid or PAT), which an admin cookie does not open; these call the same service, so the
// rules (validation, encryption, one active config, registry reload) are the storage module's own.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { parseStorageId } from "../storage/storage.routes";
import { createStorageSchema, updateStorageSchema } from "../storage/model";
import { adminGuard } from "./admin-auth";

export const adminStorageRoutes = (ctx: AppContext) => {
  const service = ctx.storageConfigs;
  return new Elysia()
    .use(adminGuard(ctx))
    .get("/api/storage-configs", () => service.list(), { admin: true })
    .post(
      "/api/storage-configs",
      ({ body, set }) => {
        const view = service.create(body);
        set.status = 201;
        return view;
      },
      { admin: true, body: createStorageSchema },
    )
    .patch("/api/storage-configs/:id", ({ params, body }) => service.update(parseStorageId(params.id), body), { admin: true, body: updateStorageSchema })
    .post("/api/storage-configs/:id/test", ({ params }) => service.test(parseStorageId(params.id)), { admin: true })
    .delete("/api/storage-configs/:id", ({ params }) => service.remove(parseStorageId(params.id)), { admin: true });
};
