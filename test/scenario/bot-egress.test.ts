// Issue 29 items 2, 7, 9 through real bot processes on the fake messenger: http_request reaches
// public addresses only (a loopback "admin API" the test starts stands for every internal service;
// numeric spellings and redirects included), an end user's text cannot rewrite the author's URL,
// and secrets reach only the fields that send them to a service (docs/security.md).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { startInternalService, type InternalService } from "../support/internal-service";
import { Chat, doc, node, removeDir, startBot, type BotProcess } from "./harness";

const SECRET = "Sk-Live-Key-0123/With+Case";
let fake: FakeMessenger;
let admin: InternalService;
let svc: ReturnType<typeof Bun.serve>;
const svcSeen: { path: string; query: string; key: string }[] = [];
let open: BotProcess; // no allow list
let listed: BotProcess; // the allow list names the service's port only

const say = (id: string, text: string) => node(id, "message", { messageText: text });
const http = (id: string, next: string, data: Record<string, unknown>) => node(id, "http_request", { httpRequestTimeout: 5, ...data, autoTransitionTo: next });

function scenario() {
  const a = admin.port;
  const s = svc.port;
  return doc(
    node("c1", "command_trigger", { command: "/ssrf", autoTransitionTo: "s1" }),
    http("s1", "s2", { httpRequestUrl: `http://127.0.0.1:${a}/admin/api/status`, httpRequestResponseVariable: "r1" }),
    http("s2", "s3", { httpRequestUrl: `http://2130706433:${a}/admin/api/status`, httpRequestResponseVariable: "r2" }),
    http("s3", "s4", { httpRequestUrl: `http://[::ffff:127.0.0.1]:${a}/admin/api/status`, httpRequestResponseVariable: "r3" }),
    http("s4", "s-show", { httpRequestUrl: "http://169.254.169.254/latest/meta-data/", httpRequestResponseVariable: "r4" }),
    say("s-show", "got=[{r1.secret}{r2.secret}{r3.secret}{r4.secret}] e1={r1.error}"),

    node("c2", "command_trigger", { command: "/redir", autoTransitionTo: "rd" }),
    http("rd", "rd-show", { httpRequestUrl: `http://127.0.0.1:${s}/redir?to=${encodeURIComponent(`http://127.0.0.1:${a}/admin/api/status`)}`, httpRequestResponseVariable: "rr" }),
    say("rd-show", "redir=[{rr.secret}] e={rr.error}"),

    node("c3", "command_trigger", { command: "/inj", autoTransitionTo: "ask" }),
    node("ask", "input", { inputVariable: "q", inputType: "text", inputTargetNodeId: "i1" }),
    http("i1", "i2", { httpRequestUrl: `http://127.0.0.1:${s}/echo?q={q}&owner=author&tail=kept`, httpRequestResponseVariable: "e" }),
    http("i2", "i-show", { httpRequestUrl: `http://127.0.0.1:${s}/items/{q}/view`, httpRequestResponseVariable: "p" }),
    say("i-show", "owner={e.owner} admin=[{e.admin}] q={e.q} tail={e.tail} path={p.path}"),

    node("c5", "command_trigger", { command: "/file", autoTransitionTo: "ask-fp" }),
    node("ask-fp", "input", { inputVariable: "fp", inputType: "text", inputTargetNodeId: "f1" }),
    http("f1", "f-show", { httpRequestUrl: "https://api.telegram.org/file/bot{bot_token}/{fp}", httpRequestStatusVariable: "fs", httpRequestResponseVariable: "fr" }),
    say("f-show", "file status={fs} e={fr.error}"),

    node("c4", "command_trigger", { command: "/secret", autoTransitionTo: "m1" }),
    node("m1", "message", {
      messageText: "t=[{bot_token}] k=[{SECRET_KEY}] l=[{=lower(SECRET_KEY)}] u=[{=upper(SECRET_KEY)}] n=[{PLAIN}]",
      keyboardType: "inline",
      keyboardNodeId: "kb",
      enableAutoTransition: true,
      autoTransitionTo: "h1",
    }),
    // a secret goes to a service in a header: allowed, and the service gets it
    http("h1", "h2", { httpRequestUrl: `http://127.0.0.1:${s}/echo`, httpRequestHeaders: '{"x-key":"{SECRET_KEY}","x-lower":"{=lower(SECRET_KEY)}"}', httpRequestResponseVariable: "hk" }),
    // the bot token goes to the messenger API only
    http("h2", "h-show", { httpRequestUrl: `http://127.0.0.1:${s}/echo?t={bot_token}`, httpRequestResponseVariable: "ht" }),
    node("kb", "keyboard", { keyboardType: "inline", buttons: [{ id: "b1", text: "k={SECRET_KEY}{bot_token}", action: "goto", target: "m1" }] }),
    say("h-show", "key-sent={hk.key} lower-sent=[{hk.lower}] token-e={ht.error}"),
  );
}

beforeAll(async () => {
  admin = startInternalService();
  svc = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      svcSeen.push({ path: url.pathname, query: url.search, key: req.headers.get("x-key") ?? "" });
      if (url.pathname === "/redir") return Response.redirect(url.searchParams.get("to")!, 302);
      return Response.json({ ...Object.fromEntries(url.searchParams), path: url.pathname, key: req.headers.get("x-key") ?? "", lower: req.headers.get("x-lower") ?? "" });
    },
  });
  fake = await startFakeMessenger();
  const env = { SECRET_KEY: SECRET, PLAIN: "plain-value", BOTLOOM_ENV_KEYS: "SECRET_KEY,PLAIN", BOTLOOM_SECRET_KEYS: "SECRET_KEY" };
  open = await startBot(fake, scenario(), { generate: { enableLogging: true }, env });
  listed = await startBot(fake, scenario(), { generate: { enableLogging: true }, env: { ...env, BOTLOOM_EGRESS_ALLOW: `127.0.0.1:${svc.port}` } });
});

afterAll(async () => {
  for (const b of [open, listed]) {
    await b?.stop();
    if (b) removeDir(b.dir);
  }
  await fake?.stop();
  admin?.stop();
  svc?.stop(true);
});

describe("http_request under the egress policy", () => {
  test("with the allow list off, loopback (also 2130706433 and ::ffff:127.0.0.1) and cloud metadata are refused", async () => {
    const [reply] = await new Chat(open).say("/ssrf");
    expect(reply.params.text).toStartWith("got=[] e1=127.0.0.1:");
    expect(reply.params.text).toContain("is a loopback address");
    expect(admin.hits()).toBe(0);
  });

  test("a redirect from an allowed service to an internal one is refused at its hop", async () => {
    const [reply] = await new Chat(listed).say("/redir");
    expect(reply.params.text).toStartWith("redir=[] e=127.0.0.1:");
    expect(svcSeen.some((r) => r.path === "/redir")).toBe(true);
    expect(admin.hits()).toBe(0);
  });
});

describe("an end user's text in the URL", () => {
  test("cannot add query parameters, cut the rest, or leave its path segment", async () => {
    const chat = new Chat(listed);
    await chat.say("/inj", 0);
    const [reply] = await chat.say("x&owner=1&admin=true#");
    expect(reply.params.text).toBe("owner=author admin=[] q=x&owner=1&admin=true# tail=kept path=/items/x&owner=1&admin=true%23/view");
    const [again] = await (async () => {
      await chat.say("/inj", 0);
      return chat.say("../../admin?x=1");
    })();
    expect(again.params.text).toBe("owner=author admin=[] q=../../admin?x=1 tail=kept path=/items/..%2F..%2Fadmin%3Fx=1/view");
  });
});

describe("a messenger file path in the URL", () => {
  test("may span path segments (Bot API file paths hold '/'), never leave the path", async () => {
    const chat = new Chat(listed);
    await chat.say("/file", 0);
    await chat.say("documents/file_5.json");
    await listed.waitForOutput(/\/file\/bot\*\*\*\/documents\/file_5\.json/);
    await chat.say("/file", 0);
    const [bad] = await chat.say("../../bot1/getMe");
    expect(bad.params.text).toBe("file status=0 e=the URL's path has a '.' or '..' segment");
  });
});

describe("secrets", () => {
  test("{bot_token} and secret env values never reach a message, a button or an expression; headers get them", async () => {
    const [m1, shown] = await new Chat(listed).say("/secret", 2);
    expect(m1.params.text).toBe("t=[] k=[] l=[] u=[] n=[plain-value]");
    expect(m1.params.reply_markup.inline_keyboard[0][0].text).toBe("k=");
    expect(shown.params.text).toStartWith(`key-sent=${SECRET} lower-sent=[] token-e={bot_token} is sent to the messenger API only`);
    // the service got the secret it was meant to get, never the bot token
    expect(svcSeen.some((r) => r.key === SECRET)).toBe(true);
    expect(svcSeen.every((r) => !r.query.includes(encodeURIComponent(listed.bot.token)) && !r.query.includes(listed.bot.token))).toBe(true);
  });

  test("no form of a secret is in the bot's output (case changed, hex, base64, percent-encoded)", async () => {
    await listed.waitForOutput(/token-e=/);
    const out = listed.output() + open.output();
    for (const s of [SECRET, listed.bot.token, open.bot.token]) {
      for (const f of [s, s.toLowerCase(), s.toUpperCase(), encodeURIComponent(s), Buffer.from(s).toString("hex"), Buffer.from(s).toString("base64")]) expect(out).not.toContain(f);
    }
  });
});
