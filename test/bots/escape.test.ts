// Issue 12 with real processes: a bot started by the platform on the fake messenger cannot send
// files from outside its project's media folder (/etc/passwd, the platform database, another
// bot's .env, a symlink out of the folder, another project's upload, a path typed by a user into
// `{message_text}`), while its own media still goes out; and its environment names neither the
// platform database nor any secret of the platform or of another bot. In shared runners and in
// processes of their own alike.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createApp } from "../../src/app";
import { startFakeMessenger, type FakeBot, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { ADMIN_KEY, createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort } from "../support/process";

let fake: FakeMessenger;
let t: TestApp;
let stopServer: () => void;
let cookie: string;
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (c) => c.charCodeAt(0));

/** A project with one running bot; `nodes` are added to a /ping → "pong" scenario. */
async function runningBot(name: string, nodes: unknown[]) {
  const projectId = (await t.call("POST", "/api/projects", { cookie, json: { name } })).body.id as number;
  const bot = fake.addBot();
  const tokenId = (await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } })).body.id as number;
  return { projectId, tokenId, bot, setNodes: async (more: unknown[] = []) => {
    const all = [{ id: "ping", type: "command", position: { x: 0, y: 0 }, data: { command: "/ping", messageText: "pong" } }, ...nodes, ...more];
    const r = await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data: { sheets: [{ id: "s", name: "S", edges: [], nodes: all }] } } });
    expect(r.status).toBe(200);
  } };
}

const trigger = (word: string, target: string) => ({ id: `tt-${word}`, type: "text_trigger", position: { x: 0, y: 0 }, data: { textSynonyms: [word], autoTransitionTo: target } });
const documentNode = (id: string, documentUrl: string) => ({ id, type: "document", position: { x: 0, y: 0 }, data: { documentUrl, messageText: `reply ${id}` } });

/** The bot's answer to one message (it always answers: with the document, or with the text alone). */
async function answer(bot: FakeBot, user: FakeUser, text: string) {
  fake.sendText(bot.token, user, text);
  const [sent] = await fake.waitForSent(bot.token, user.id, 1, 10_000);
  return sent;
}

for (const isolation of ["runner", "process"] as const) {
  describe(`a bot cannot reach outside its project (BOT_ISOLATION=${isolation})`, () => {
    beforeAll(async () => {
      fake = await startFakeMessenger();
      const port = await freePort();
      t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url, BOT_ISOLATION: isolation } });
      await setUp(t);
      const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
      t.ctx.state.localUrl = `http://127.0.0.1:${port}`;
      stopServer = () => app.server?.stop(true);
      cookie = await loginAs(t, 92);
    });

    afterAll(async () => {
      await t.ctx.bots.shutdown();
      stopServer?.();
      await fake.stop();
      t.cleanup();
    });

    test("files outside its media folder are refused; its own media goes out", async () => {
      const { config } = t.ctx;
      // Someone else's bot, running.
      const other = await runningBot("Other", []);
      await other.setNodes();
      expect((await t.call("POST", `/api/bot/tokens/${other.tokenId}/start`, { cookie })).status).toBe(200);
      // A file holding another bot's secrets: its .env (a process of its own), or its project's database.
      let otherEnv = join(config.projectsDir, `${other.projectId}.db`);
      if (isolation === "process") {
        const otherFolder = readdirSync(config.botsDir).find((n) => n.endsWith(`_${other.projectId}_${other.tokenId}`))!;
        otherEnv = join(config.botsDir, otherFolder, ".env");
        expect(readFileSync(otherEnv, "utf8")).toContain(other.bot.token);
      }
      expect(existsSync(otherEnv)).toBe(true);
      // Another project's upload.
      const fd = new FormData();
      fd.append("file", new File([PNG], "pixel.png", { type: "image/png" }));
      const foreign = await t.call("POST", `/api/projects/${other.projectId}/media`, { cookie, body: fd });
      expect(foreign.status).toBe(201);

      const attacker = await runningBot("Attacker", []);
      const media = join(config.uploadsDir, String(attacker.projectId));
      mkdirSync(media, { recursive: true });
      writeFileSync(join(media, "ok.txt"), "the project's own file\n");
      symlinkSync("/etc/passwd", join(media, "link.txt"));
      symlinkSync("/etc", join(media, "etc"));
      symlinkSync(config.dataDir, join(media, "data"));
      const platformDb = config.databasePath;
      const attacks: [string, string][] = [
        ["passwd", "/etc/passwd"],
        ["passwdup", "../../../../../../../../etc/passwd"],
        ["dbabs", platformDb],
        ["dbrel", relative(media, platformDb)],
        ["dbdots", `./${relative(media, platformDb)}`],
        ["secret", join(config.dataDir, "session.secret")],
        ["envabs", otherEnv],
        ["envrel", relative(media, otherEnv)],
        ["envuploads", `/uploads/${attacker.projectId}/${relative(media, otherEnv)}`],
        ["link", "./link.txt"],
        ["linkuploads", `/uploads/${attacker.projectId}/link.txt`],
        ["linkdir", "etc/passwd"],
        ["linkdata", "data/botloom.db"],
        ["foreign", foreign.body.url],
        ["traversal", `/uploads/${attacker.projectId}/../${foreign.body.url.slice("/uploads/".length).split("/").slice(1).join("/")}`],
        ["storedother", `/uploads/s/x/${other.projectId}/photo/a.png`],
        ["storedencoded", `/uploads/s/x/${attacker.projectId}/%2e%2e/${other.projectId}/photo/a.png`],
        ["storeddots", `/uploads/s/x/${attacker.projectId}/../${other.projectId}/photo/a.png`],
      ];
      expect(existsSync(platformDb)).toBe(true);
      const nodes: unknown[] = attacks.flatMap(([word, url]) => [trigger(word, word), documentNode(word, url)]);
      nodes.push(trigger("ok", "ok"), documentNode("ok", "./ok.txt"), trigger("okuploads", "okuploads"), documentNode("okuploads", `/uploads/${attacker.projectId}/ok.txt`));
      // Any Telegram user of the bot types a path: {message_text} expands into it.
      nodes.push(
        { id: "ask", type: "command", position: { x: 0, y: 0 }, data: { command: "/file", messageText: "Which file?", collectUserInput: true, inputVariable: "path", inputTargetNodeId: "send" } },
        { id: "send", type: "document", position: { x: 0, y: 0 }, data: { documentUrl: "{message_text}", messageText: "here" } },
      );
      await attacker.setNodes(nodes);
      expect((await t.call("POST", `/api/bot/tokens/${attacker.tokenId}/start`, { cookie })).status).toBe(200);

      const user: FakeUser = { id: 7101, first_name: "Mallory" };
      expect((await answer(attacker.bot, user, "/ping")).params.text).toBe("pong");
      for (const [word] of attacks) {
        const sent = await answer(attacker.bot, user, word);
        expect([word, sent.method, sent.params.text]).toEqual([word, "sendMessage", `reply ${word}`]);
      }
      for (const typed of ["/etc/passwd", "../../../../../../../../etc/passwd", relative(join(config.botsDir, "x"), platformDb), otherEnv]) {
        expect((await answer(attacker.bot, user, "/file")).params.text).toBe("Which file?");
        const sent = await answer(attacker.bot, user, typed);
        expect([typed, sent.method]).toEqual([typed, "sendMessage"]);
      }
      // The control (after the attacks, so that a hole fails first): the project's own file is sent, both as ./ok.txt and as /uploads/<id>/ok.txt.
      for (const word of ["ok", "okuploads"]) {
        const sent = await answer(attacker.bot, user, word);
        expect([word, sent.method, sent.params.document?.fileName]).toEqual([word, "sendDocument", "ok.txt"]);
      }
      const uploads = fake.calls(attacker.bot.token).filter((c) => c.method !== "getUpdates" && JSON.stringify(c.params).includes("fileName"));
      expect(uploads.map((c) => c.params.document?.fileName)).toEqual(["ok.txt", "ok.txt"]);
      // Log lines are written in batches: the refusals show up in the project's logs.
      for (let i = 0; ; i++) {
        const logs = await t.call("GET", `/api/projects/${attacker.projectId}/logs/all?limit=1000`, { cookie });
        if (JSON.stringify(logs.body).includes("media refused")) break;
        if (i > 50) throw new Error(`no refusal in the bot's log: ${JSON.stringify(logs.body).slice(0, 500)}`);
        await Bun.sleep(100);
      }
    }, 120_000);

    // A runner's own environment is checked in runners.test.ts: it holds no bot's variables at all.
    if (isolation === "process") test("the bot's environment holds its own project's database path, never the platform's, and no platform secret", async () => {
      const { config } = t.ctx;
      const bot = await runningBot("Env", []);
      await bot.setNodes();
      const env = await t.call("POST", `/api/bot/tokens/${bot.tokenId}/env`, { cookie, json: { key: "API_KEY", value: "own-variable", isSecret: 0 } });
      expect(env.status).toBe(201);
      expect((await t.call("POST", `/api/bot/tokens/${bot.tokenId}/start`, { cookie })).status).toBe(200);
      const user: FakeUser = { id: 7202, first_name: "Eve" };
      expect((await answer(bot.bot, user, "/ping")).params.text).toBe("pong");
      const pid = t.ctx.bots.state(bot.tokenId).pid!;
      // What the running process really got (not only what the .env file says).
      const environ = Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
      );
      expect(environ.DATABASE_PATH).toBe(join(config.dataDir, "projects", `${bot.projectId}.db`));
      expect(environ.MEDIA_DIR).toBe(join(config.uploadsDir, String(bot.projectId)));
      expect(environ.API_KEY).toBe("own-variable");
      expect(environ.BOT_TOKEN).toBe(bot.bot.token);
      const everything = JSON.stringify(environ);
      for (const secret of [config.databasePath, ADMIN_KEY, config.sessionSecret, config.uploadsDir + "\"", "botloom.db"]) expect(everything).not.toContain(secret);
      expect(environ.UPLOADS_DIR).toBeUndefined();
      const folder = readdirSync(config.botsDir).find((n) => n.endsWith(`_${bot.projectId}_${bot.tokenId}`))!;
      const dotEnv = readFileSync(join(config.botsDir, folder, ".env"), "utf8");
      expect(dotEnv).not.toContain(config.databasePath);
      expect(dotEnv).toContain(`DATABASE_PATH=${JSON.stringify(join(config.dataDir, "projects", `${bot.projectId}.db`))}`);
      // The bot wrote its chat into its project's file.
      const { Database } = await import("bun:sqlite");
      const own = new Database(environ.DATABASE_PATH, { readonly: true });
      try {
        for (let i = 0; own.query("SELECT chat_id FROM bot_state").all().length === 0; i++) {
          if (i > 50) throw new Error("the bot wrote no chat state into its project's file");
          await Bun.sleep(100);
        }
        expect(own.query("SELECT chat_id FROM bot_state").all()).toEqual([{ chat_id: String(user.id) }]);
      } finally {
        own.close();
      }
    }, 60_000);
  });
}
