// An editor sends back the record it read; a restore is always a version; deleting a project or a
// token removes its bot folders (they hold the bot token in .env).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newProject, scenario, team, type Team } from "./helpers";

let s: Team;
beforeEach(async () => {
  s = await team();
});
afterEach(() => s.t.cleanup());

describe("project record round trip", () => {
  test("PUT accepts the record's own read-only fields and ignores them; other unknown fields are 400", async () => {
    const id = await newProject(s.t, s.owner, { data: scenario([1]) });
    const read = await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner });
    const put = await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { ...read.body, name: "Renamed", ownerId: 999999, id: 5 } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, name: "Renamed", ownerId: read.body.ownerId });
    expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { nmae: "typo" } })).status).toBe(400);
  });

  test("restoring a version equal to the current data still stores a version", async () => {
    const id = await newProject(s.t, s.owner, { data: scenario([1]) });
    const before = (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body;
    const r = await s.t.call("POST", `/api/projects/${id}/versions/${before[0].id}/restore`, { cookie: s.owner });
    expect(r.status).toBe(200);
    const after = (await s.t.call("GET", `/api/projects/${id}/versions`, { cookie: s.owner })).body;
    expect(after).toHaveLength(before.length + 1);
    expect(after[0].commitMessage).toBe(`Restored version ${before[0].id}`);
  });
});

describe("bot folders go with their project and token", () => {
  function folder(projectId: number, tokenId: number) {
    const dir = join(s.t.ctx.config.botsDir, `p_${projectId}_${tokenId}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, ".env"), 'BOT_TOKEN="secret"\n');
    return dir;
  }

  test("project delete removes the project's folders only", async () => {
    const a = await newProject(s.t, s.owner);
    const b = await newProject(s.t, s.owner);
    const fa = folder(a, 1);
    const fb = folder(b, 2);
    expect((await s.t.call("DELETE", `/api/projects/${a}`, { cookie: s.owner })).status).toBe(200);
    // In the trash the folders stay (a restore needs them); the purge takes them.
    expect(existsSync(fa)).toBe(true);
    await s.t.ctx.projects.purgeExpiredTrash(Date.now() + (s.t.ctx.config.projectTrashDays + 1) * 86_400_000);
    expect(existsSync(fa)).toBe(false);
    expect(existsSync(fb)).toBe(true);
  });

  test("token delete removes that token's folder", async () => {
    const p = await newProject(s.t, s.owner);
    const tok = s.t.ctx.db.$client.prepare("insert into bot_tokens (project_id, token, name) values (?, '1:x', 'b') returning id").get(p) as { id: number };
    const mine = folder(p, tok.id);
    const other = folder(p, tok.id + 1);
    expect((await s.t.call("DELETE", `/api/bot/tokens/${tok.id}`, { cookie: s.owner })).status).toBe(200);
    expect(existsSync(mine)).toBe(false);
    expect(existsSync(other)).toBe(true);
  });
});
