// A server killed with SIGKILL in the middle of a 100-recipient campaign, three times, and started
// again each time on the same data (docs/campaigns.md#exactly-once): the campaign resumes on its
// own and ends done; on the fake messenger's received messages every recipient got the message
// exactly once, except those the report names failed "unknown" (a send in flight at a kill), who got
// it at most once. No one gets it twice, no one is skipped. Each kill lands while a send is in
// flight (the fake holds its answer), so a start-up that sent `sending` rows again would fail here.
// Twice: at the default window of one send (40 a second), and with the pace raised so that a window
// holds several sends in flight at each kill (400 a second: 8), where only those may end "unknown".
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { restartHarness } from "../support/restart-harness";
import { devLoginOnServer, startProcessServer, until, type ProcessServer } from "../support/process";

const ROOT = resolve(import.meta.dir, "../..");
const ADMIN_KEY = "campaign-kill-admin-key-0123456789";
const h = restartHarness();
const RECIPIENTS = 100;
const uid = (i: number) => 7_400_000 + i;

/** A server on a fresh data directory, a token with 100 recorded users the fake messenger knows, and the way to kill and start it again. */
async function killableCampaignServer(sendsPerSecond: number) {
  const dir = mkdtempSync(join(tmpdir(), "botloom-campaign-kill-"));
  h.dirs.push(dir);
  const dataDir = join(dir, "data");
  const env = { ADMIN_KEY, SESSION_SECRET: "campaign-kill-session-0123456789", MESSENGER_API_ROOT: h.fake.url, DATA_DIR: dataDir, BOTS_DIR: join(dir, "bots") };
  const start = async () => {
    const s = await startProcessServer([process.execPath, join(ROOT, "src/main.ts"), "serve"], { cwd: dir, env });
    h.servers.push(s);
    return s;
  };
  const k = { s: (await start()) as ProcessServer };
  const cookie = await devLoginOnServer(k.s.url, ADMIN_KEY, 1);
  const headers = { cookie, "content-type": "application/json" };
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${k.s.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  };
  const project = (await api("POST", "/api/projects", { name: "Kill campaign", data: { version: 2, sheets: [{ id: "s", name: "S", nodes: [], edges: [] }] } })).body;
  const bot = h.fake.addBot();
  const token = (await api("POST", `/api/bot/projects/${project.id}/tokens`, { token: bot.token })).body;
  expect((await api("PATCH", `/api/bot/tokens/${token.id}`, { sendsPerSecond })).status).toBe(200);
  // the users wrote to the bot once (the messenger knows their chats); the project file records them
  expect((await api("POST", `/api/bot/tokens/${token.id}/campaigns/audience-size`, {})).body).toEqual({ size: 0 }); // creates the file
  const file = new Database(join(dataDir, "projects", `${project.id}.db`));
  file.exec("PRAGMA busy_timeout = 10000"); // the server has the file open too
  const now = new Date().toISOString();
  for (let i = 0; i < RECIPIENTS; i++) {
    h.fake.sendText(bot.token, { id: uid(i), first_name: `U${i}` } as never, "hi");
    file.run("INSERT INTO bot_users (token_id, user_id, first_name, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)", [token.id, String(uid(i)), `U${i}`, now, now]);
  }
  file.close();
  const received = () => h.fake.sent(bot.token).filter((c) => c.method === "sendMessage" && String(c.params.text).startsWith("Once for"));
  /** SIGKILL once `point` messages arrived, while sends are in flight (the fake holds its answers), then start again. */
  const killAt = async (point: number, holdMs: number) => {
    await until(() => received().length >= point, `${point} messages received`, 20_000);
    h.fake.holdAnswers(bot.token, "sendMessage", holdMs);
    const before = received().length;
    await until(() => received().length > before, "a send in flight", 10_000);
    k.s.proc.kill("SIGKILL");
    await k.s.proc.exited;
    h.fake.holdAnswers(bot.token, "sendMessage", 0);
    k.s = await start();
  };
  /** Per recipient: sent ones got it exactly once, failed ones are "unknown" and got it at most once; answers the unknown. */
  const checkExactlyOnce = async (id: number) => {
    await until(async () => (await api("GET", `/api/bot/tokens/${token.id}/campaigns/${id}`)).body.status === "done", "the campaign done after the restarts", 30_000);
    const done = (await api("GET", `/api/bot/tokens/${token.id}/campaigns/${id}`)).body;
    const perUser = new Map<number, number>();
    for (const c of received()) perUser.set(Number(c.params.chat_id), (perUser.get(Number(c.params.chat_id)) ?? 0) + 1);
    const rows = (await api("GET", `/api/bot/tokens/${token.id}/campaigns/${id}/recipients?perPage=200`)).body.items as { userId: string; status: string; error: string | null }[];
    expect(rows.length).toBe(RECIPIENTS);
    const unknown = rows.filter((r) => r.status === "failed").map((r) => r.userId);
    for (const r of rows) {
      const got = perUser.get(Number(r.userId)) ?? 0;
      if (r.status === "sent") expect([r.userId, got]).toEqual([r.userId, 1]);
      else {
        expect([r.userId, r.status, r.error]).toEqual([r.userId, "failed", "unknown"]);
        expect(got).toBeLessThanOrEqual(1);
      }
    }
    // nobody twice, nobody outside the audience, and the report adds up
    expect([...perUser.values()].every((n) => n === 1)).toBe(true);
    expect([...perUser.keys()].every((u) => u >= uid(0) && u < uid(RECIPIENTS))).toBe(true);
    expect(done.counts).toEqual({ pending: 0, sent: RECIPIENTS - unknown.length, failed: unknown.length, blocked: 0, deactivated: 0, unknown: unknown.length });
    return { unknown, perUser };
  };
  return { k, api, token, botToken: bot.token, received, killAt, checkExactlyOnce };
}

test("SIGKILL mid-campaign at several points, then restart: every recipient exactly once (or failed unknown)", async () => {
  // fast enough to finish, slow enough that each kill point falls mid-campaign
  const { k, api, token, botToken, received, killAt, checkExactlyOnce } = await killableCampaignServer(40);
  const created = await api("POST", `/api/bot/tokens/${token.id}/campaigns`, { name: "Kill", message: { text: "Once for {first_name}" }, audience: {} });
  expect(created.status).toBe(201);
  const id = created.body.id;
  // a scheduled one too: its timer dies with each server and is armed again at each start
  const later = await api("POST", `/api/bot/tokens/${token.id}/campaigns`, { name: "Later", message: { text: "Later for {first_name}" }, audience: { userIds: [String(uid(3))] }, scheduledAt: new Date(Date.now() + 6000).toISOString() });
  expect(later.body.status).toBe("scheduled");
  const started = await api("POST", `/api/bot/tokens/${token.id}/campaigns/${id}/start`);
  expect(started.body).toMatchObject({ status: "sending", audienceSize: RECIPIENTS });
  for (const point of [10, 45, 80]) await killAt(point, 2000);
  const { unknown, perUser } = await checkExactlyOnce(id);
  // one send in flight at each kill (a window of one): received, but never sent again
  expect(unknown.length).toBe(3);
  for (const u of unknown) expect(perUser.get(Number(u))).toBe(1);
  // the scheduled campaign started on its own after the restarts, once
  await until(async () => (await api("GET", `/api/bot/tokens/${token.id}/campaigns/${later.body.id}`)).body.status === "done", "the scheduled campaign done", 30_000);
  expect(h.fake.sent(botToken).filter((c) => String(c.params.text).startsWith("Later for")).map((c) => [Number(c.params.chat_id), c.params.text])).toEqual([[uid(3), "Later for U3"]]);
  // the text was rendered per user
  expect(received().find((c) => Number(c.params.chat_id) === uid(7))?.params.text).toBe("Once for U7");
  expect(k.s.proc.exitCode).toBeNull();
}, 120_000);

test("SIGKILL with the pace raised (a window of 8 sends in flight): still exactly once, only the sends in flight unknown", async () => {
  // 400 a second: windows of ceil(400 / 50) = 8 (docs/campaigns.md#the-sender); the fake answers
  // each send 150 ms late throughout, so the campaign lasts a few seconds and a kill finds a whole window in flight
  const WINDOW = 8;
  const KILLS = [15, 50, 80];
  const { api, token, botToken, killAt, checkExactlyOnce } = await killableCampaignServer(400);
  const created = await api("POST", `/api/bot/tokens/${token.id}/campaigns`, { name: "Kill fast", message: { text: "Once for {first_name}" }, audience: {} });
  h.fake.holdAnswers(botToken, "sendMessage", 150);
  expect((await api("POST", `/api/bot/tokens/${token.id}/campaigns/${created.body.id}/start`)).body.status).toBe("sending");
  for (const point of KILLS) {
    await killAt(point, 2000);
    h.fake.holdAnswers(botToken, "sendMessage", 150);
  }
  h.fake.holdAnswers(botToken, "sendMessage", 0);
  const { unknown, perUser } = await checkExactlyOnce(created.body.id);
  // several sends were in flight at a kill (more than one a kill), never more than a window each
  expect(unknown.length).toBeGreaterThan(KILLS.length);
  expect(unknown.length).toBeLessThanOrEqual(KILLS.length * WINDOW);
  // each in flight reached the messenger at most once (a send still waiting for its slot reached it not at all)
  for (const u of unknown) expect(perUser.get(Number(u)) ?? 0).toBeLessThanOrEqual(1);
}, 120_000);
