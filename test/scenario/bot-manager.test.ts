// The Level 2 capstone: the older platform's own bot-manager scenario (compat/current/bot-manager.json)
// imported into Botloom, its http://localhost:5000 addresses pointed at this Botloom instance and a
// bot_manager PAT in the token's env variable STUDIO_BOT_MANAGER_TOKEN, manages Botloom through a
// fake-messenger conversation. Real processes: the platform's HTTP server on loopback, the bot it
// starts, the fake messenger. The scenario file is read in place (skipped when absent).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../../src/server";
import { createTestApp, loginAs, patFor, setUp, type TestApp } from "../support/app";
import { startFakeMessenger, type FakeBot, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { Chat, COMPAT_DIR, inlineData, inlineRows, type BotProcess } from "./harness";

const FILE = join(COMPAT_DIR, "current", "bot-manager.json");
const HAS_FILE = existsSync(FILE);
if (!HAS_FILE) console.warn(`${FILE} not found: the bot-manager capstone test is skipped`);
const capstone = HAS_FILE ? describe : describe.skip;

const OWNER = 7_100_001; // the messenger user who talks to the manager bot and owns projects
const HOST_USER = 7_100_009; // owns the manager project itself
const simple = { version: 2, sheets: [{ id: "s", name: "Main", nodes: [{ id: "m", type: "message", position: { x: 0, y: 0 }, data: { messageText: "hi" } }] }] };

let fake: FakeMessenger;
let t: TestApp;
let server: Awaited<ReturnType<typeof startServer>>;
let ownerCookie: string;
let managerBot: FakeBot;
let chat: Chat;
let pat: string;
const ids: Record<string, number> = {};

const api = async (method: string, path: string, json?: unknown) => {
  const res = await fetch(server.url + path, {
    method,
    headers: { cookie: ownerCookie, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
};
const projectNames = async () => ((await api("GET", "/api/bot/projects")).body.items as { name: string }[]).map((p) => p.name).sort();

beforeAll(async () => {
  if (!HAS_FILE) return;
  fake = await startFakeMessenger();
  t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, PORT: "0", HOST: "127.0.0.1", EGRESS_ALLOW: "127.0.0.1" } });
  await setUp(t);
  server = await startServer(t.ctx, { requestGraceMs: 200 });
  ownerCookie = await loginAs(t, OWNER, { firstName: "Olga" });
  ids.alpha = (await api("POST", "/api/projects", { name: "Alpha", data: simple })).body.id;
  ids.beta = (await api("POST", "/api/projects", { name: "Beta", data: simple })).body.id;
  const alphaBot = fake.addBot({ username: "alpha_helper_bot", firstName: "Alpha Helper" });
  ids.alphaToken = (await api("POST", `/api/bot/projects/${ids.alpha}/tokens`, { token: alphaBot.token })).body.id;

  // The manager project belongs to someone else; it acts for whoever writes through the PAT.
  const hostCookie = await loginAs(t, HOST_USER);
  const host = (method: string, path: string, json?: unknown) =>
    fetch(server.url + path, { method, headers: { cookie: hostCookie, "content-type": "application/json" }, body: json === undefined ? undefined : JSON.stringify(json) }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const record = JSON.parse(readFileSync(FILE, "utf8"));
  const data = JSON.parse(JSON.stringify(record.data).replaceAll("http://localhost:5000", server.url));
  const manager = await host("POST", "/api/projects", { name: "Manager", data });
  expect(manager.status).toBe(201);
  managerBot = fake.addBot({ username: "studio_manager_bot" });
  const token = await host("POST", `/api/bot/projects/${manager.body.id}/tokens`, { token: managerBot.token });
  const env = await host("POST", `/api/bot/tokens/${token.body.id}/env`, { key: "STUDIO_BOT_MANAGER_TOKEN", value: (pat = patFor(t, OWNER, ["bot_manager"])), isSecret: 1 });
  expect(env.status).toBe(201);
  expect((await host("POST", `/api/bot/tokens/${token.body.id}/start`)).status).toBe(200);
  chat = new Chat({ bot: managerBot, fake } as unknown as BotProcess, { id: OWNER, first_name: "Olga", language_code: "ru" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  t?.cleanup();
  await fake?.stop();
});

/** The conversation waits longer than the harness default: every step is several HTTP calls. */
const WAIT_MS = 15_000;
async function say(text: string, count = 1) {
  fake.sendText(managerBot.token, chat.user, text);
  return count === 0 ? [] : chat.replies(count, WAIT_MS);
}
async function tap(label: string, count = 1) {
  const calls = fake.sent(managerBot.token, chat.user.id);
  for (let i = calls.length - 1; i >= 0; i--) {
    const data = inlineData(calls[i], label);
    if (data === undefined) continue;
    fake.pressButton(managerBot.token, chat.user, data, calls[i].messageId);
    return chat.replies(count, WAIT_MS);
  }
  throw new Error(`no inline button "${label}"`);
}

const labels = (call: Parameters<typeof inlineRows>[0]) => inlineRows(call).flat();

capstone("bot-manager.json manages Botloom", () => {
  test("/start lists the user's projects as buttons (through http_request with the PAT)", async () => {
    const [list] = await say("/start");
    expect(list.params.text).toContain("Ваши проекты");
    expect(labels(list)).toEqual(["📁 Alpha", "📁 Beta", "➕ Новый проект", "📥 Импортировать"]);
  }, 30_000);

  test("a project opens its card; the tokens view answers", async () => {
    const [card] = await tap("📁 Alpha");
    expect(card.params.text).toContain("Alpha");
    const tokenButton = labels(card).find((l) => l.includes("@alpha_helper_bot"));
    expect(tokenButton).toBeDefined();
    expect(labels(card)).toContain("✏️ Переименовать");
    const [tokenCard] = await tap(tokenButton!);
    expect(tokenCard.params.text ?? tokenCard.params.caption).toContain("Alpha Helper");
  }, 30_000);

  test("renaming changes the project's name in Botloom", async () => {
    await say("/start");
    await tap("📁 Alpha");
    const [ask] = await tap("✏️ Переименовать");
    expect(ask.params.text).toContain("Alpha");
    const [done] = await say("Alpha Prime");
    expect(done.params.text).toBe("✅ Проект переименован!");
    expect((await api("GET", `/api/projects/${ids.alpha}`)).body.name).toBe("Alpha Prime");
  }, 30_000);

  test("deleting removes the project from Botloom", async () => {
    await say("/start");
    await tap("📁 Beta");
    const [confirm] = await tap("🗑 Удалить");
    expect(confirm.params.text).toContain("Beta");
    const [done] = await tap("✅ Да, удалить");
    expect(done.params.text).toBe("✅ Проект удалён.");
    expect(await projectNames()).toEqual(["Alpha Prime"]);
  }, 30_000);

  test("creating a project with a token adds both to Botloom", async () => {
    await say("/start");
    expect((await tap("➕ Новый проект"))[0].params.text).toContain("Введите название");
    expect((await say("Gamma"))[0].params.text).toContain("Введите токен");
    const gammaBot = fake.addBot({ username: "gamma_new_bot" });
    await say(gammaBot.token, 0);
    await until(async () => (await projectNames()).includes("Gamma"), "project Gamma", 15_000);
    const gamma = ((await api("GET", "/api/bot/projects")).body.items as { id: number; name: string }[]).find((p) => p.name === "Gamma")!;
    await until(async () => (await api("GET", `/api/bot/projects/${gamma.id}/tokens`)).body.count === 1, "Gamma's token", 15_000);
  }, 30_000);

  test("importing a project.json sent as a document creates it in Botloom", async () => {
    await say("/start");
    expect((await tap("📥 Импортировать"))[0].params.text).toContain("JSON");
    const projectJson = { name: "Imported Delta", data: simple };
    fake.sendDocument(managerBot.token, chat.user, { fileName: "project.json", mimeType: "application/json", bytes: new TextEncoder().encode(JSON.stringify(projectJson)) });
    const [done] = await chat.replies(1, WAIT_MS);
    expect(done.params.text).toContain("успешно импортирован");
    const names = await projectNames();
    expect(names.length).toBe(3);
    expect(done.params.text).toContain(names.find((n) => !["Alpha Prime", "Gamma"].includes(n))!);
  }, 30_000);

  test("the bot's log lines never show its token or the PAT", async () => {
    const logLines = () => {
      const db = new Database(t.ctx.config.databasePath, { readonly: true });
      try {
        return db.query<{ message: string }, []>("SELECT message FROM bot_logs").all().map((r) => r.message);
      } finally {
        db.close();
      }
    };
    // The platform writes bot output in batches; the bot's last reply (of the import test) is its
    // last line, so once that is stored everything before it is too.
    const lines = await until(() => (logLines().some((l) => l.includes("успешно импортирован")) ? logLines() : null), "the bot's last reply in its log");
    expect(lines.some((l) => l.includes("bot started @studio_manager_bot"))).toBe(true);
    expect(lines.filter((l) => l.includes(pat) || l.includes(managerBot.token))).toEqual([]);
  });
});
