// Admin: platform accounts (docs/api.md#admin-area users endpoints; paging per docs/api.md#admin-rules rule 6).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { parseIntQuery, parsePositiveId } from "../../http/params";
import { adminGuard } from "./admin-auth";
import { AdminUsersService } from "./users-service";

export const USERS_PER_PAGE_DEFAULT = 20;
export const USERS_PER_PAGE_MAX = 100;
const SEARCH_MAX = 200;
/** Far beyond any real list; keeps the offset an exact integer. */
const PAGE_MAX = 1_000_000;

function searchText(raw: unknown): string {
  if (raw === undefined) return "";
  if (typeof raw !== "string") throw badRequest("search must be a single string");
  if (raw.length > SEARCH_MAX) throw badRequest(`search must be at most ${SEARCH_MAX} characters`);
  return raw;
}

export const adminUsersRoutes = (ctx: AppContext) => {
  const service = new AdminUsersService(ctx);
  return new Elysia()
    .use(adminGuard(ctx))
    .get(
      "/api/users",
      ({ query }) =>
        service.list({
          search: searchText(query.search),
          page: parseIntQuery(query.page, "page", { default: 1, min: 1, max: PAGE_MAX }),
          // Above the maximum is clamped (like the bot users `limit`); the answer shows the value used.
          perPage: parseIntQuery(query.perPage, "perPage", { default: USERS_PER_PAGE_DEFAULT, min: 1, max: USERS_PER_PAGE_MAX, clamp: true }),
        }),
      { admin: true },
    )
    .get("/api/users/:id", ({ params }) => service.card(parsePositiveId(params.id, "id")), { admin: true });
};
