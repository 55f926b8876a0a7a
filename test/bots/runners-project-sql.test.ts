// The second stall of issue 29 item 1, with a real runner: a bot's psql_query drops bot_users and
// puts in its place rows with a generated column that costs a 40 MB string per row read; GET
// /api/bot/tokens/{id}/users then read it on the server's event loop (19.2 s). Now scenario SQL
// cannot write the bot's file (attached read-only): the statements fail, the users endpoint answers the bot's real users, and the file keeps Botloom's schema.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { unexpectedSchema } from "../../src/db/project-schema-check";
import { scenarioTablesPath } from "../../src/scenario/codegen/runtime/scenario-file";
import { loginAs } from "../support/app";
import { hostileNodes, scenarioOf } from "../support/hostile-sql";
import { until } from "../support/process";
import { startRunnerPlatform, type RunnerPlatform } from "./runner-platform";

const scenario = scenarioOf(...hostileNodes("bot_users", 300));

let p: RunnerPlatform;
beforeAll(async () => {
  p = await startRunnerPlatform();
});
afterAll(async () => {
  await p?.close();
}, 30_000);

test("a bot in a runner cannot replace bot_users; the users endpoint answers its real users from a sound file", async () => {
  const t = p.t;
  const cookie = await loginAs(t, 801);
  const project = await t.call("POST", "/api/projects", { cookie, json: { name: "Hostile", data: scenario, userDatabaseEnabled: 1 } });
  expect(project.status).toBe(201);
  const bot = p.fake.addBot({ username: "hostile_bot" });
  const token = await t.call("POST", `/api/bot/projects/${project.body.id}/tokens`, { cookie, json: { token: bot.token } });
  expect(token.status).toBe(200);
  expect((await t.call("POST", `/api/bot/tokens/${token.body.id}/start`, { cookie })).status).toBe(200);
  await until(() => p.fake.calls(bot.token, "getUpdates").length > 0, "the bot to poll");

  const from = { id: 6101, first_name: "Real", username: "real_user" };
  p.fake.sendText(bot.token, from, "/hostile");
  const [reply] = await p.fake.waitForSent(bot.token, from.id, 1, 15_000);
  expect(reply!.params.text).toBe("done");

  const users = await t.call("GET", `/api/bot/tokens/${token.body.id}/users`, { cookie });
  expect(users.status).toBe(200);
  expect(users.body.items).toEqual([{ userId: "6101", firstName: "Real", lastName: "", userName: "real_user", blocked: false, takeover: false, tags: [] }]);
  const path = t.ctx.projectFiles.pathOf(project.body.id);
  const file = new Database(path, { readonly: true });
  expect(unexpectedSchema(file)).toEqual([]);
  file.close();
  // The scenario's own "bot_users" (with its rows) is in the tables file, which the server never reads.
  expect(existsSync(scenarioTablesPath(path))).toBe(true);
  const tables = new Database(scenarioTablesPath(path), { readonly: true });
  expect(tables.query("SELECT count(*) AS n FROM bot_users").get()).toEqual({ n: 300 });
  tables.close();
}, 60_000);
