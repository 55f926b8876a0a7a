// Platform accounts for the admin (docs/api.md#admin-area: users list and card, admin rule 6).
// Only ids, names and dates leave this file: never project data, tokens or session ids.
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import { projectExists, projectsOwnedBy, projectsSharedWith, userById, userPage } from "./queries";

export interface UserListQuery {
  search: string;
  page: number;
  perPage: number;
}

export class AdminUsersService {
  constructor(private readonly ctx: Pick<AppContext, "db">) {}

  /** Newest accounts first (createdAt, then id, both descending). */
  list(q: UserListQuery) {
    const { items, total } = userPage(this.ctx.db, q.search, q.perPage, (q.page - 1) * q.perPage);
    return { items, total, page: q.page, perPage: q.perPage };
  }

  card(id: number) {
    const user = userById(this.ctx.db, id);
    if (!user) throw notFound("User not found");
    const ownedProjects = projectsOwnedBy(this.ctx.db, id);
    const shared = projectsSharedWith(this.ctx.db, id);
    const sharedProjects = shared.map(({ ownerFirstName, ownerLastName, ownerUsername, ...p }) => ({
      ...p,
      ownerDisplayName: displayName(p.ownerId, ownerFirstName, ownerLastName, ownerUsername),
    }));
    return { user, ownedProjects, sharedProjects };
  }

  /** Whether the project still exists (the bot-folder cleanup keeps folders of live projects). */
  projectExists(projectId: number): boolean {
    return projectExists(this.ctx.db, projectId);
  }
}

/** "First Last", else "@username", else "User <id>" (an owner who never logged in has no names). */
export function displayName(id: number, first: string | null, last: string | null, username: string | null): string {
  const name = [first, last].map((s) => (s ?? "").trim()).filter(Boolean).join(" ");
  if (name) return name;
  if (username) return `@${username}`;
  return `User ${id}`;
}
