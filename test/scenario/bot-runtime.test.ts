// The runtime contract of generated bots: webhook mode behind the platform (port, path, secret
// header), exit when the supervising platform's stdin pipe closes, graceful SIGTERM, contentCache
// reloading texts from projects.data, and user env variables that do not disturb anything.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort } from "../support/process";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { Chat, doc, eventually, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";
import { createPlatformDb, dbEnv } from "./platform-db";

const scenario = doc(
  node("start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", {
    messageText: "Hello v1",
    keyboardType: "inline",
    buttons: [{ id: "b1", text: "Button v1", action: "goto", target: "hello" }],
    enableConditionalMessages: true,
    conditionalMessages: [{ id: "c1", condition: "user_data_exists", variableName: "seen", messageText: "Again v1" }],
  }),
);

let fake: FakeMessenger;
const started: BotProcess[] = [];

beforeAll(async () => {
  fake = await startFakeMessenger();
});

afterAll(async () => {
  for (const b of started) {
    await b.stop();
    removeDir(b.dir);
  }
  await fake?.stop();
});

async function launch(opts: Parameters<typeof startBot>[2]) {
  const b = await startBot(fake, scenario, opts);
  started.push(b);
  return b;
}

/** An update as the platform's webhook intake forwards it. */
function update(id: number, userId: number, text: string) {
  const user = { id: userId, is_bot: false, first_name: "Web" };
  const entities = text.startsWith("/") ? [{ type: "bot_command", offset: 0, length: text.length }] : undefined;
  return { update_id: id, message: { message_id: id, date: Math.floor(Date.now() / 1000), chat: { id: userId, type: "private", first_name: "Web" }, from: user, text, entities } };
}

describe("webhook mode", () => {
  test("listens on 127.0.0.1:PORT/webhook, checks the secret header, never calls setWebhook", async () => {
    const port = await freePort();
    const b = await launch({ env: { LAUNCH_MODE: "webhook", PORT: String(port), WEBHOOK_SECRET: "s3cret" }, ready: /listening on \d+/ });
    await b.waitForOutput(`listening on ${port}`);
    await b.waitForOutput(/bot started @/);
    const post = (body: unknown, secret?: string) =>
      fetch(`http://127.0.0.1:${port}/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(secret ? { "X-Telegram-Bot-Api-Secret-Token": secret } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post(update(1, 6_100_001, "/start"))).status).toBe(401);
    expect((await post(update(2, 6_100_001, "/start"), "wrong")).status).toBe(401);
    expect((await post(update(3, 6_100_001, "/start"), "s3cret")).status).toBe(200);
    const [reply] = await fake.waitForSent(b.bot.token, 6_100_001, 1, 4000);
    expect(reply.params.text).toBe("Hello v1");
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect(fake.calls(b.bot.token, "setWebhook")).toEqual([]);
    expect(fake.calls(b.bot.token, "getUpdates")).toEqual([]);
    expect(await b.stop()).toBe(0);
  });
});

describe("process lifecycle", () => {
  test("BOTLOOM_SUPERVISED=1: exits 0 when stdin closes", async () => {
    const b = await launch({ env: { BOTLOOM_SUPERVISED: "1" }, stdin: "pipe" });
    const chat = new Chat(b);
    expect((await chat.say("/start"))[0].params.text).toBe("Hello v1");
    const stdin = b.proc.stdin as import("bun").FileSink;
    await stdin.end();
    const code = await Promise.race([b.proc.exited, Bun.sleep(5000).then(() => "timeout")]);
    expect(code).toBe(0);
    await b.waitForOutput("stopping: stdin closed");
  });

  test("SIGTERM stops polling gracefully with exit code 0; runs without any database", async () => {
    const b = await launch({});
    expect((await new Chat(b).say("/start"))[0].params.text).toBe("Hello v1");
    // 0, not the SIGKILL the harness sends after 4 s: the bot stopped by itself (bench/stops.ts times it)
    expect(await b.stop()).toBe(0);
    await b.waitForOutput("stopping: SIGTERM");
  });

  test("user env variables of the token do not disturb the bot", async () => {
    const b = await launch({ env: { STUDIO_BOT_MANAGER_TOKEN: "mcp_x", API_URL: "http://localhost:5000", PORT: "9999" } });
    expect((await new Chat(b).say("/start"))[0].params.text).toBe("Hello v1");
  });
});

describe("contentCache", () => {
  test("texts follow the project's content mirror when it changes, without a restart", async () => {
    const dir = tmpDir("scenario-cache-");
    const pdb = createPlatformDb(dir, scenario);
    try {
      const b = await launch({ dir, env: dbEnv(pdb), generate: { flags: { contentCache: true } } });
      const chat = new Chat(b);
      expect((await chat.say("/start"))[0].params.text).toBe("Hello v1");

      const changed = structuredClone(scenario);
      const hello = changed.sheets[0].nodes[1].data as Record<string, any>;
      hello.messageText = "Hello v2";
      hello.buttons[0].text = "Button v2";
      hello.conditionalMessages[0].messageText = "Again v2";
      // What the platform does on every save of the project's data.
      pdb.files.writeContent(pdb.projectId, JSON.stringify({ json_data: changed }), "2099-01-01T00:00:00.000Z");
      await b.waitForOutput(/contentCache: \d+ texts reloaded/, 5000);

      const [m] = await chat.say("/start");
      expect(m.params.text).toBe("Hello v2");
      expect(m.params.reply_markup.inline_keyboard[0][0].text).toBe("Button v2");
    } finally {
      pdb.close();
    }
  });

  test("without the flag the generated texts stay", async () => {
    const dir = tmpDir("scenario-nocache-");
    const pdb = createPlatformDb(dir, { sheets: [] });
    try {
      const b = await launch({ dir, env: dbEnv(pdb) });
      expect((await new Chat(b).say("/start"))[0].params.text).toBe("Hello v1");
      await eventually(() => expect(pdb.query("SELECT * FROM bot_state").length).toBe(1));
      expect(b.output()).not.toContain("contentCache");
    } finally {
      pdb.close();
    }
  });
});
