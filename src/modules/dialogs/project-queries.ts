// The platform database's side of the Dialogs: the project's scenario, to check node ids named by
// goto buttons and resumeAt.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projects } from "../../db/schema";

export function projectDataOf(db: Db, projectId: number): string | null {
  return db.select({ data: projects.data }).from(projects).where(eq(projects.id, projectId)).get()?.data ?? null;
}
