// A project's team: the owner plus invited collaborators (docs/api.md#projects, read-only team
// entry). Also the recipients of the team's live events.
import type { TeamEntry } from "./model";
import type { ProjectQueries } from "./queries";

type Person = { userId: number; firstName: string | null; lastName: string | null; username: string | null; photoUrl: string | null };

function displayName(p: Person): string {
  const full = [p.firstName, p.lastName].filter((s) => s && s.trim()).join(" ").trim();
  if (full) return full;
  if (p.username) return `@${p.username}`;
  return String(p.userId);
}

export class ProjectTeam {
  /** The queries come from ProjectsService, which prepares them on first use. */
  constructor(private readonly queries: () => ProjectQueries) {}

  private get q() {
    return this.queries();
  }

  private people(projectId: number): Person[] {
    const owner = this.q.team.all({ projectId });
    const seen = new Set<number>();
    const out: Person[] = [];
    for (const p of [...owner, ...this.q.collaborators.all({ projectId })]) {
      if (seen.has(p.userId)) continue;
      seen.add(p.userId);
      out.push(p);
    }
    return out;
  }

  /** Owner first, then collaborators; no duplicates (an owner listed as collaborator shows once). */
  entries(projectId: number): TeamEntry[] {
    return this.people(projectId).map((p) => ({ userId: p.userId, name: displayName(p), photoUrl: p.photoUrl ?? null }));
  }

  memberIds(projectId: number): number[] {
    return this.people(projectId).map((p) => p.userId);
  }
}
