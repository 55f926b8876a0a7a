// Secrets in their encoded forms never reach a bot's output. http_request puts query values into
// the URL percent-encoded (the bot token's ":" becomes "%3A"; a secret with "/", "+", "=" or a
// space changes too) and logs that URL: the literal mask alone let both through to the project's
// logs, which collaborators read. Probed with a real bot process on the fake messenger, on its own
// and supervised by the platform (where its printed lines leave in batches: runtime/outbox.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  startFakeMessenger,
  type FakeMessenger,
} from "../support/fake-messenger";
import {
  Chat,
  doc,
  node,
  removeDir,
  startBot,
  type BotProcess,
} from "./harness";

const SECRET = "k/ey+with=odd chars:42&x";
let fake: FakeMessenger;
let api: ReturnType<typeof Bun.serve>;

/** Every form a value takes in a URL or an auth header. */
const forms = (s: string) => [
  s,
  encodeURIComponent(s),
  new URLSearchParams({ v: s }).toString().slice(2),
  btoa(s),
  Buffer.from(s).toString("base64url"),
];

const scenario = doc(
  node("cmd", "command_trigger", { command: "/leak", autoTransitionTo: "h" }),
  node("h", "http_request", {
    httpRequestTimeout: 5,
    httpRequestUrl: "{API_BASE}/echo",
    httpRequestQueryParams: '{"s":"{SECRET_KEY}"}',
    httpRequestAuthType: "query",
    httpRequestAuthQueryName: "key",
    httpRequestAuthQueryValue: "{SECRET_KEY}",
    httpRequestResponseVariable: "r",
    autoTransitionTo: "tok",
  }),
  // {bot_token} goes to the messenger API (its URL is logged, query percent-encoded)
  node("tok", "http_request", {
    httpRequestTimeout: 5,
    httpRequestUrl: "https://api.telegram.org/bot{bot_token}/getMe",
    httpRequestQueryParams: '{"t":"{bot_token}"}',
    autoTransitionTo: "bad",
  }),
  // A failing request logs its URL too.
  node("bad", "http_request", {
    httpRequestTimeout: 5,
    httpRequestUrl: "http://127.0.0.1:1/x?t={SECRET_KEY}",
    httpRequestQueryParams: '{"s":"{SECRET_KEY}"}',
    autoTransitionTo: "done",
  }),
  node("done", "message", { messageText: "done ok={r.ok}" }),
);

beforeAll(async () => {
  api = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.json({ ok: true }),
  });
  fake = await startFakeMessenger();
});

afterAll(async () => {
  await fake?.stop();
  api?.stop(true);
});

describe.each([
  ["on its own", {}],
  ["supervised", { BOTLOOM_SUPERVISED: "1" }],
] as const)("a bot %s", (_, supervision) => {
  let b: BotProcess;
  beforeAll(async () => {
    b = await startBot(fake, scenario, {
      generate: { enableLogging: true },
      env: {
        API_BASE: `http://127.0.0.1:${api.port}`,
        SECRET_KEY: SECRET,
        BOTLOOM_ENV_KEYS: "API_BASE,SECRET_KEY",
        BOTLOOM_SECRET_KEYS: "SECRET_KEY",
        BOTLOOM_EGRESS_ALLOW: "127.0.0.1",
        ...supervision,
      },
      stdin: "pipe", // supervised, a closed stdin means the platform is gone
    });
  });
  afterAll(async () => {
    await b?.stop();
    if (b) removeDir(b.dir);
  });

  test("the token and secret env values are masked in percent-encoded and base64 forms", async () => {
    const [reply] = await new Chat(b).say("/leak");
    expect(reply.params.text).toBe("done ok=true");
    await b.waitForOutput(/http_request GET http:\/\/127\.0\.0\.1:1\/x/);
    const out = b.output();
    // The requests were logged (the mask has something to do)...
    expect(out).toMatch(/http GET http:\/\/127\.0\.0\.1:\d+\/echo\?/);
    expect(out).toMatch(
      /http GET http:\/\/127\.0\.0\.1:\d+\/bot\*\*\*\/getMe\?t=\*\*\* → 200/,
    );
    // ...and no form of either secret is in the output.
    for (const f of [...forms(b.bot.token), ...forms(SECRET)])
      expect(out).not.toContain(f);
  });
});
