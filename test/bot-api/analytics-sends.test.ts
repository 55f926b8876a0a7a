// "Messages out" counts every message the bot's account sent (docs/analytics.md "What is counted"):
// an operator's message from the Dialogs tab and a campaign's sends raise the hour's messagesOut by
// exactly what went out, in the transaction that writes their chat records, and a send that finds
// the user blocked counts them blocked once (the bot does not run:
// the server sends on the fake messenger). A send the messenger refuses counts nothing; a campaign
// of a token that keeps no messages (no chat record) counts too, an album's every message, and a
// campaign's test send as well.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { projectBotChats, projectBotPeople, projectBotUsers } from "../../src/db/project-schema";
import { until } from "../support/process";
import { addToken, botApiEnv, createProject, expectNoSecrets, type BotApiEnv } from "./support";

let env: BotApiEnv;
let projectId: number;
let tokenId: number;
let botToken: string;
const uid = (i: number) => 7_400_000 + i;

beforeAll(async () => {
  env = await botApiEnv();
  projectId = createProject(env, undefined, "Sends");
  ({ tokenId, bot: { token: botToken } } = await addToken(env, projectId));
  const db = env.t.ctx.projectFiles.open(projectId);
  const seen = new Date().toISOString();
  for (let i = 0; i < 3; i++) {
    db.insert(projectBotUsers).values({ tokenId, userId: String(uid(i)), firstName: `U${i}`, firstSeenAt: seen, lastSeenAt: seen }).run();
    db.insert(projectBotPeople).values({ tokenId, userId: String(uid(i)), firstSeenAt: seen, lastSeenAt: seen }).run();
    db.insert(projectBotChats).values({ tokenId, chatId: String(uid(i)), kind: "private", userId: String(uid(i)), firstName: `U${i}`, lastMessageAt: seen }).run();
  }
});
afterAll(async () => {
  await env.t.ctx.campaigns.stop();
  expectNoSecrets(env, [botToken]);
  await env.close();
});

const messagesOut = async () => {
  const r = await env.call("GET", `/api/bot/tokens/${tokenId}/analytics`, { cookie: env.cookie });
  expect(r.status).toBe(200);
  return { total: r.body.totals.messagesOut as number, today: r.body.series.at(-1).messagesOut as number };
};

test("an operator's message counts one, a campaign of three recipients three; a refused send nothing", async () => {
  expect(await messagesOut()).toEqual({ total: 0, today: 0 });
  const sent = await env.call("POST", `/api/bot/tokens/${tokenId}/chats/${uid(0)}/messages`, { cookie: env.cookie, json: { text: "Hello from a human" } });
  expect(sent.status).toBe(201);
  expect(await messagesOut()).toEqual({ total: 1, today: 1 });

  env.fake.setBlocked(uid(1), true);
  const refused = await env.call("POST", `/api/bot/tokens/${tokenId}/chats/${uid(1)}/messages`, { cookie: env.cookie, json: { text: "there?" } });
  expect(refused.status).toBe(409);
  expect((await messagesOut()).total).toBe(1);
  // the refusal marked the user blocked: counted once, however often a send finds them so
  const blocked = async () => (await env.call("GET", `/api/bot/tokens/${tokenId}/analytics`, { cookie: env.cookie })).body.totals.blocked;
  expect(await blocked()).toBe(1);
  expect((await env.call("POST", `/api/bot/tokens/${tokenId}/chats/${uid(1)}/messages`, { cookie: env.cookie, json: { text: "still there?" } })).status).toBe(409);
  expect(await blocked()).toBe(1);
  env.fake.setBlocked(uid(1), false);
  // the refused send marked the user blocked; a campaign leaves them out, so unblock the record
  env.t.ctx.projectFiles.open(projectId).$client.query("UPDATE bot_people SET blocked = 0 WHERE token_id = ?").run(tokenId);

  const c = await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns`, { cookie: env.cookie, json: { name: "News", message: { text: "News for {first_name}" }, audience: {} } });
  expect(c.status).toBe(201);
  expect((await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns/${c.body.id}/start`, { cookie: env.cookie })).body.audienceSize).toBe(3);
  await until(async () => (await env.call("GET", `/api/bot/tokens/${tokenId}/campaigns/${c.body.id}`, { cookie: env.cookie })).body.status === "done", "the campaign done");
  expect(env.fake.sent(botToken).filter((m) => String(m.params.text).startsWith("News for")).length).toBe(3);
  expect(await messagesOut()).toEqual({ total: 4, today: 4 });

  // a token that keeps no messages writes no chat record: its campaign's sends count all the same
  expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { messageRetentionDays: 0 } })).status).toBe(200);
  const quiet = await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns`, { cookie: env.cookie, json: { name: "Quiet", message: { text: "Quiet news" }, audience: { userIds: [String(uid(0)), String(uid(2))] } } });
  expect((await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns/${quiet.body.id}/start`, { cookie: env.cookie })).body.audienceSize).toBe(2);
  await until(async () => (await env.call("GET", `/api/bot/tokens/${tokenId}/campaigns/${quiet.body.id}`, { cookie: env.cookie })).body.status === "done", "the quiet campaign done");
  expect(env.t.ctx.projectFiles.open(projectId).$client.query("SELECT count(*) AS n FROM bot_messages WHERE text = 'Quiet news'").get()).toEqual({ n: 0 });
  expect(await messagesOut()).toEqual({ total: 6, today: 6 });

  // an album of two is two messages out per recipient, with no chat record as with one
  const png = (name: string) => env.t.ctx.media.upload(projectId, new File([Uint8Array.from("\x89PNG\r\n\x1a\n" + name, (ch) => ch.charCodeAt(0))], name, { type: "image/png" }));
  const [a, b] = [await png("a.png"), await png("b.png")];
  const album = await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns`, { cookie: env.cookie, json: { name: "Album", message: { text: "Look", mediaIds: [a.id, b.id] }, audience: { userIds: [String(uid(0)), String(uid(2))] } } });
  expect(album.status).toBe(201);
  expect((await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns/${album.body.id}/start`, { cookie: env.cookie })).body.audienceSize).toBe(2);
  await until(async () => (await env.call("GET", `/api/bot/tokens/${tokenId}/campaigns/${album.body.id}`, { cookie: env.cookie })).body.status === "done", "the album campaign done");
  expect(env.fake.sent(botToken).filter((m) => m.method === "sendMediaGroup").length).toBe(2);
  expect(await messagesOut()).toEqual({ total: 10, today: 10 });

  // a test send is a message out too, with or without a chat record (docs/campaigns.md)
  expect((await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns/${album.body.id}/test`, { cookie: env.cookie, json: { userIds: [String(uid(1))] } })).body).toEqual({ sent: 1, failed: 0 });
  expect(await messagesOut()).toEqual({ total: 12, today: 12 });
  expect((await env.call("PATCH", `/api/bot/tokens/${tokenId}`, { cookie: env.cookie, json: { messageRetentionDays: 30 } })).status).toBe(200);
  expect((await env.call("POST", `/api/bot/tokens/${tokenId}/campaigns/${c.body.id}/test`, { cookie: env.cookie, json: { userIds: [String(uid(1))] } })).body).toEqual({ sent: 1, failed: 0 });
  expect(await messagesOut()).toEqual({ total: 13, today: 13 });
});
