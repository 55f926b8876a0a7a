// Admin ids have one write path (ProjectsService.update): the row, the bot folders' .env and the
// "updated" event; the folders are rewritten only when the list bots see really changes.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { botTokens } from "../../src/db/schema";
import { newProject, team, type Team } from "./helpers";

let s: Team;
let projectId: number;
let env: string;
const events: string[] = [];

beforeEach(async () => {
  s = await team();
  projectId = await newProject(s.t, s.owner);
  const tokenId = s.t.ctx.db.insert(botTokens).values({ projectId, token: "1:x", name: "b" }).returning().get().id;
  const dir = join(s.t.ctx.config.botsDir, `p_${projectId}_${tokenId}`);
  mkdirSync(dir, { recursive: true });
  env = join(dir, ".env");
  writeFileSync(env, 'BOT_TOKEN="1:x"\nADMIN_IDS="7,8"\n');
  events.length = 0;
  s.t.ctx.events.on("projects-changed", (e) => void events.push(`${e.kind}:${e.projectId}`));
});
afterEach(() => s.t.cleanup());

test("clearing a list that came from the bot folder clears the folder too, and tells the team", async () => {
  expect((await s.t.call("GET", `/api/projects/${projectId}/admin-ids`, { cookie: s.owner })).body.adminIds).toBe("7,8");
  const r = await s.t.call("PUT", `/api/projects/${projectId}/admin-ids`, { cookie: s.owner, json: { adminIds: "" } });
  expect(r.body).toEqual({ success: true, adminIds: "" });
  expect(readFileSync(env, "utf8")).toContain('ADMIN_IDS=""');
  expect((await s.t.call("GET", `/api/projects/${projectId}/admin-ids`, { cookie: s.owner })).body.adminIds).toBe("");
});

test("remove goes through the same path: row, folder and event", async () => {
  const r = await s.t.call("POST", `/api/projects/${projectId}/admin-ids/remove`, { cookie: s.owner, json: { adminId: "del_admin_7" } });
  expect(r.body).toEqual({ success: true, adminIds: "8" });
  expect(readFileSync(env, "utf8")).toContain('ADMIN_IDS="8"');
  expect(events).toContain(`updated:${projectId}`);
});

test("sending back an unchanged list leaves the bot folders alone", async () => {
  await s.t.call("PUT", `/api/projects/${projectId}/admin-ids`, { cookie: s.owner, json: { adminIds: "1,2" } });
  writeFileSync(env, 'BOT_TOKEN="1:x"\nADMIN_IDS="1,2"\n# hand note\n');
  const before = statSync(env).mtimeMs;
  const read = await s.t.call("GET", `/api/projects/${projectId}`, { cookie: s.owner });
  expect((await s.t.call("PUT", `/api/projects/${projectId}`, { cookie: s.owner, json: { ...read.body, name: "Renamed" } })).status).toBe(200);
  expect(statSync(env).mtimeMs).toBe(before);
  expect(readFileSync(env, "utf8")).toContain("# hand note");
});
