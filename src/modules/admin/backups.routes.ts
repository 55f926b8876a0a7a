// Backups in the admin area: list, create now, download (docs/operations.md "Backups").
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../errors";
import { nextScheduledRun } from "../backups/schedule";
import { BACKUP_NAME } from "../backups/service";
import { adminGuard } from "./admin-auth";

export const adminBackupRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: "/admin/api" })
    .use(adminGuard(ctx))
    .get(
      "/backups",
      () => {
        const items = ctx.backups.list();
        return {
          items,
          count: items.length,
          schedule: ctx.config.backupSchedule,
          nextRun: nextScheduledRun(ctx.config.backupSchedule)?.toISOString() ?? null,
          keep: ctx.config.backupKeep,
          upload: ctx.config.backupUpload,
        };
      },
      { admin: true, detail: { summary: "List backups (newest first) and the schedule (admin session)" } },
    )
    .post(
      "/backups",
      async ({ request, set }) => {
        // A backup reads every database: a body means the caller wanted something else, and a
        // script that loops over odd bodies should not start a backup each time.
        if (request.body !== null && (await request.arrayBuffer()).byteLength > 0) {
          throw new AppError(400, "VALIDATION_FAILED", "This endpoint takes no body");
        }
        const created = await ctx.backups.create();
        set.status = 201;
        return created;
      },
      { admin: true, parse: "none", detail: { summary: "Make a backup now: the platform database and every project database (admin session; no body)" } },
    )
    .get(
      "/backups/:name",
      ({ params }) => {
        if (!BACKUP_NAME.test(params.name)) throw new AppError(400, "VALIDATION_FAILED", "Not a backup name (botloom-YYYYMMDD-HHMMSS.tar.gz)");
        const path = ctx.backups.pathOf(params.name);
        if (!path) throw new AppError(404, "NOT_FOUND", "No such backup");
        return new Response(Bun.file(path), {
          headers: {
            "content-type": "application/gzip",
            "content-disposition": `attachment; filename="${params.name}"`,
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
          },
        });
      },
      { admin: true, detail: { summary: "Download one backup archive (.tar.gz) (admin session)" } },
    );
