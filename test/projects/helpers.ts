// Shared setup of the projects tests: an owner, a collaborator and a stranger, all logged in.
import { projectCollaborators } from "../../src/db/schema";
import type { BotController, BotInstanceState } from "../../src/bots/controller";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";

export const OWNER = 1001;
export const COLLAB = 1002;
export const STRANGER = 1003;

export interface Team {
  t: TestApp;
  owner: string;
  collab: string;
  stranger: string;
}

export async function team(opts: { bots?: BotController; env?: Record<string, string> } = {}): Promise<Team> {
  const t = createTestApp(opts);
  await setUp(t);
  return {
    t,
    owner: await loginAs(t, OWNER, { firstName: "Olga", lastName: "Owner", username: "olga" }),
    collab: await loginAs(t, COLLAB, { firstName: "Carl" }),
    stranger: await loginAs(t, STRANGER, { firstName: "Sam" }),
  };
}

export function addCollaborator(t: TestApp, projectId: number, userId: number, invitedBy = OWNER) {
  t.ctx.db.insert(projectCollaborators).values({ projectId, userId, invitedBy }).run();
}

/** Creates a project through the API and returns its id. */
export async function newProject(t: TestApp, cookie: string, body: Record<string, unknown> = {}): Promise<number> {
  const r = await t.call("POST", "/api/projects", { cookie, json: { name: "Project", ...body } });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body.id;
}

export const scenario = (nodesPerSheet: number[]) => ({
  sheets: nodesPerSheet.map((n, s) => ({
    id: `s${s}`,
    name: `Sheet ${s}`,
    nodes: Array.from({ length: n }, (_, i) => ({ id: `s${s}n${i}`, type: "message", position: { x: i, y: s }, data: { messageText: `hi ${i}` } })),
    edges: [],
  })),
});

const STOPPED: BotInstanceState = { status: "stopped", startedAt: null, pid: null };

/** Records the order of side effects around a delete, and every start. */
export class FakeBots implements BotController {
  constructor(readonly journal: string[] = []) {}
  state() {
    return STOPPED;
  }
  async start(tokenId: number) {
    this.journal.push(`start:${tokenId}`);
    return STOPPED;
  }
  async stop() {
    return STOPPED;
  }
  async restart() {
    return STOPPED;
  }
  async stopProject(projectId: number, whileStopped?: () => Promise<void>) {
    this.journal.push(`stop:${projectId}`);
    await whileStopped?.();
  }
  async shutdown() {}
  async resumeAll() {}
  tell() {
    return false;
  }
}
