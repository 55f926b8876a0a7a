// The Level 2 leftovers against real counterparts (docs/nodes/data.md, docs/nodes/logic.md):
// http_request's ignoreSsl against a local TLS server whose self-signed certificate is made here
// with openssl, its batch mode against a local HTTP server that proves the requests run side by
// side, and parallel_split with awaitAll: false, whose update ends while a branch still waits.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { Chat, doc, node, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
let certDir: string;
let tlsServer: ReturnType<typeof Bun.serve>;
let httpServer: ReturnType<typeof Bun.serve>;

/** Batch requests held until this many have arrived together (or a fallback after 3 s). */
const GATE = 3;
let inFlight = 0;
let maxInFlight = 0;
let arrived = 0;
let openGate: () => void = () => undefined;
let gate = new Promise<void>((resolve) => (openGate = resolve));
/** The held request of a parallel branch: released by the test. */
let holdArrived: () => void = () => undefined;
let held = new Promise<void>((resolve) => (holdArrived = resolve));
let release: () => void = () => undefined;
const released = () => new Promise<void>((resolve) => (release = resolve));
let releasedNow = released();

const at = (id: string, type: string, data: Record<string, unknown>) => node(id, type, data);
const say = (id: string, text: string, next?: string) => node(id, "message", { messageText: text, ...(next ? { enableAutoTransition: true, autoTransitionTo: next } : {}) });
const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });

function scenario(tlsUrl: string, httpUrl: string) {
  const http = (id: string, url: string, next: string, extra: Record<string, unknown> = {}) =>
    at(id, "http_request", { httpRequestUrl: url, httpRequestMethod: "GET", httpRequestStatusVariable: "st", httpRequestResponseVariable: "resp", httpRequestTimeout: 10, autoTransitionTo: next, ...extra });
  const split = (id: string, next: string, extra: Record<string, unknown>) =>
    at(id, "parallel_split", { parallelBranches: [{ id: "p1", label: "slow", target: `${id}-slow` }, { id: "p2", label: "fast", target: `${id}-fast` }], autoTransitionTo: next, ...extra });
  return doc(
    cmd("strict", "strict"),
    http("strict", `${tlsUrl}/hello`, "strict-say"),
    say("strict-say", "strict {st}"),
    cmd("loose", "loose"),
    http("loose", `${tlsUrl}/hello`, "loose-say", { httpRequestIgnoreSsl: true }),
    say("loose-say", "loose {st} {resp.hello}"),
    cmd("private", "private"),
    http("private", "https://10.0.0.1:8443/hello", "private-say", { httpRequestIgnoreSsl: true }),
    say("private-say", "private {st}"),

    cmd("batch", "rows"),
    at("rows", "set_variable", { assignments: [{ variable: "rows", value: '[{"name":"A","path":"a"},{"name":"B","path":"b"},{"name":"C","path":"broken"}]' }], autoTransitionTo: "batch" }),
    http("batch", `${httpUrl}/rate/{item.path}`, "batch-say", {
      httpRequestResponseJsonPath: "rate",
      httpRequestBatchEnabled: true,
      httpRequestBatchSource: "rows",
      httpRequestBatchItemVar: "item",
      httpRequestBatchResultVariable: "rates",
      httpRequestBatchResultFields: [{ key: "name", value: "{item.name}" }, { key: "rate", value: "__extracted__" }],
    }),
    say("batch-say", "{rates.0.name}={rates.0.rate} {rates.1.name}={rates.1.rate} {rates.2.name}=[{rates.2.rate}]"),
    cmd("nobatch", "nobatch"),
    http("nobatch", `${httpUrl}/rate/a`, "nobatch-say", { httpRequestBatchEnabled: true, httpRequestBatchSource: "nothing", httpRequestBatchResultVariable: "rates2" }),
    say("nobatch-say", "no list: {rates2.length}"),

    cmd("fire", "fire"),
    split("fire", "fire-after", { awaitAll: false }),
    http("fire-slow", `${httpUrl}/hold`, "fire-slow-say"),
    say("fire-slow-say", "slow done {resp.held}"),
    say("fire-fast", "fast"),
    say("fire-after", "after split"),
    cmd("join", "join"),
    split("join", "join-after", {}),
    http("join-slow", `${httpUrl}/hold`, "join-slow-say"),
    say("join-slow-say", "slow done {resp.held}"),
    say("join-fast", "fast"),
    say("join-after", "after join"),
    cmd("ping", "pong"),
    say("pong", "pong"),
  );
}

beforeAll(async () => {
  certDir = tmpDir("tls-cert-");
  const openssl = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem"), "-days", "1", "-subj", "/CN=localhost"], { stderr: "pipe" });
  if (openssl.exitCode !== 0) throw new Error("openssl failed: " + openssl.stderr.toString());
  tlsServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: readFileSync(join(certDir, "cert.pem"), "utf8"), key: readFileSync(join(certDir, "key.pem"), "utf8") },
    fetch: () => Response.json({ hello: "tls" }),
  });
  httpServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/hold") {
        holdArrived();
        await releasedNow;
        return Response.json({ held: "yes" });
      }
      const name = path.split("/").pop();
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (++arrived >= GATE) openGate();
      await Promise.race([gate, Bun.sleep(3000)]);
      inFlight--;
      if (name === "broken") return new Response("down", { status: 500 });
      return Response.json({ rate: name === "a" ? 92.5 : 93 });
    },
  });
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario(`https://127.0.0.1:${tlsServer.port}`, `http://127.0.0.1:${httpServer.port}`), {
    generate: { enableLogging: true },
    // the egress policy (docs/security.md) refuses loopback unless the operator allows it
    env: { BOTLOOM_EGRESS_ALLOW: "127.0.0.1" },
  });
});

afterAll(async () => {
  await b?.stop();
  if (b) removeDir(b.dir);
  tlsServer?.stop(true);
  httpServer?.stop(true);
  await fake?.stop();
  if (certDir) removeDir(certDir);
});

const texts = (calls: { params: Record<string, any> }[]) => calls.map((c) => c.params.text);

describe("http_request ignoreSsl", () => {
  test("a self-signed certificate is refused by default and accepted with ignoreSsl", async () => {
    const chat = new Chat(b);
    expect(texts(await chat.say("/strict"))).toEqual(["strict 0"]);
    await b.waitForOutput(/node strict: http_request GET https:\/\/127\.0\.0\.1:\d+\/hello failed: .*(certificate|self.signed|could not connect)/i);
    expect(texts(await chat.say("/loose"))).toEqual(["loose 200 tls"]);
  });

  test("ignoreSsl still obeys the egress policy: a private address is refused before any connection", async () => {
    expect(texts(await new Chat(b).say("/private"))).toEqual(["private 0"]);
    await b.waitForOutput("node private: http_request GET https://10.0.0.1:8443/hello failed: 10.0.0.1:8443 is a private address");
  });
});

describe("http_request batch mode", () => {
  test("one request per item, side by side; results in the list's order, a failed item empty", async () => {
    const chat = new Chat(b);
    expect(texts(await chat.say("/batch"))).toEqual(["A=92.5 B=93 C=[]"]);
    expect(maxInFlight).toBe(GATE); // all three were held at the server together
    await b.waitForOutput(/node batch: http_request batch item 2: GET http:\/\/127\.0\.0\.1:\d+\/rate\/broken failed: answered 500/);
  });

  test("bad input: a source that holds no list makes no request and an empty result", async () => {
    const before = arrived;
    expect(texts(await new Chat(b).say("/nobatch"))).toEqual(["no list: 0"]);
    expect(arrived).toBe(before);
    await b.waitForOutput("node nobatch: batch over nothing, which holds nothing; no request made");
  });
});

describe("parallel_split awaitAll", () => {
  test("awaitAll: false — the flow goes on and the chat's next update is answered while a branch still waits", async () => {
    const chat = new Chat(b);
    const first = await chat.say("/fire", 2);
    await held;
    expect(texts(first).sort()).toEqual(["after split", "fast"]);
    expect(texts(await chat.say("/ping"))).toEqual(["pong"]); // the same chat, not held up by the branch
    // skipIfRunning (the default): a second run while the branches go on stops at the split
    await chat.say("/fire", 0);
    // the stop sends nothing: its log line says the bot read that /fire
    await until(() => b.output().includes("parallel_split fire: its branches still run for this chat; this run stops here"), "the second /fire stopping at the split");
    expect(texts(await chat.say("/ping"))).toEqual(["pong"]);
    release();
    expect(texts(await chat.replies(1))).toEqual(["slow done yes"]);
  });

  test("without awaitAll the branches finish first: after join comes once the held branch ends", async () => {
    held = new Promise<void>((resolve) => (holdArrived = resolve));
    releasedNow = released();
    const chat = new Chat(b);
    const first = await chat.say("/join", 1);
    expect(texts(first)).toEqual(["fast"]);
    await held;
    expect(texts(fake.sent(b.bot.token, chat.user.id))).toEqual(["fast"]);
    release();
    expect(texts(await chat.replies(2))).toEqual(["slow done yes", "after join"]);
  });
});
