// Executes a generated bot running the logic and data nodes against the fake messenger and a local
// HTTP service: every set_variable mode, {=expr} (hostile expressions read as nothing),
// condition operators, http_request (methods, auth kinds, bodies, answers, Bot API rewrite,
// {bot_token} masked), loop, parallel_split, convert_file, and bad scenario data that fails for
// one user while the bot keeps serving others.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { logicDataScenario } from "./fixtures-logic";
import { Chat, removeDir, startBot, type BotProcess } from "./harness";

const SECRET = "s3cret-key-value-123";
const ADMIN_ID = 4_100_001;
const PNG = new Uint8Array(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"));

let fake: FakeMessenger;
let b: BotProcess;
let api: ReturnType<typeof Bun.serve>;
const seen: { method: string; path: string; query: string; auth: string }[] = [];

beforeAll(async () => {
  api = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({ method: req.method, path: url.pathname, query: url.search, auth: req.headers.get("authorization") ?? "" });
      if (url.pathname === "/items") {
        if (req.headers.get("authorization") !== `Bearer ${SECRET}`) return Response.json({ error: "no" }, { status: 401 });
        return Response.json({ items: [{ name: url.searchParams.get("q") }, { name: "second" }] });
      }
      if (url.pathname === "/pages") {
        const limit = Number(url.searchParams.get("limit") ?? 10);
        const offset = Number(url.searchParams.get("offset") ?? 0);
        const all = Array.from({ length: 25 }, (_, i) => `row${i}`);
        return Response.json({ items: all.slice(offset, offset + limit), count: all.length });
      }
      if (url.pathname === "/picture.png") return new Response(PNG, { headers: { "content-type": "image/png" } });
      if (url.pathname === "/slow") {
        await Bun.sleep(3000);
        return new Response("late");
      }
      const raw = await req.text();
      const type = req.headers.get("content-type") ?? "";
      const answer = {
        method: req.method,
        raw,
        json: type.includes("json") ? JSON.parse(raw) : null,
        auth: req.headers.get("authorization") ?? "",
        trace: req.headers.get("x-trace") ?? "",
        xkey: req.headers.get("x-key") ?? "",
        type: type.split(";")[0],
        key: url.searchParams.get("key") ?? "",
      };
      if (req.method === "DELETE") return new Response(`deleted with ${answer.key}`, { headers: { "content-type": "text/plain" } });
      return Response.json(answer, { status: req.method === "PATCH" ? 202 : 200 });
    },
  });
  fake = await startFakeMessenger();
  b = await startBot(fake, logicDataScenario, {
    generate: { enableLogging: true },
    env: { API_BASE: `http://127.0.0.1:${api.port}`, SECRET_KEY: SECRET, BOTLOOM_ENV_KEYS: "API_BASE,SECRET_KEY", BOTLOOM_SECRET_KEYS: "SECRET_KEY", ADMIN_IDS: String(ADMIN_ID), BOTLOOM_EGRESS_ALLOW: "127.0.0.1" },
  });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
  api?.stop(true);
});

const texts = (calls: { params: Record<string, any> }[]) => calls.map((c) => c.params.text ?? c.params.caption);

describe("set_variable and expressions", () => {
  test("every assignment mode of the reference", async () => {
    const [reply] = await new Chat(b).say("/vars");
    const [fixed, rnd2, ts] = reply.params.text.split("|");
    expect(fixed).toBe(
      "[  Ann Lee  ] [Ann Lee] ANN LEE ann lee 7 Lee Ann a+b+c 42 5 000 000 01:02:05 85 20 z 2 3 " +
        "🥇 Ann Lee=9;🥈 p=5; big 42 5 solo 2 [] 12 named by a template",
    );
    expect(Number(rnd2)).toBeGreaterThanOrEqual(1);
    expect(Number(rnd2)).toBeLessThanOrEqual(6);
    expect(ts).toMatch(/^\d{10}$/);
  });

  test("{=expr} evaluates safely; prototype access, unknown functions and syntax errors read as nothing", async () => {
    const [reply] = await new Chat(b).say("/expr");
    expect(reply.params.text).toBe(
      "sum=14 cond=adult f=3.33 len=2 m=b obj=Zed p=0.3 s=ZED! h1=[] h2=[] h3=[] h4=[] h5=[] h6=[] bad=[]",
    );
    await b.waitForOutput(/expression "1 \+" failed/);
    await b.waitForOutput(/expression "items\.constructor" failed: property constructor is not available/);
    await b.waitForOutput(/expression "eval\('1'\)" failed: function eval is not available/);
  });
});

describe("condition operators", () => {
  test("string and number operators on an answer; else is the fallback wherever it stands", async () => {
    const cases: [string, string][] = [
      ["prefix", "starts: prefix"],
      ["the fin", "ends: the fin"],
      ["123", "three: 123"],
      ["14", "div7: 14"],
      ["4", "even: 4"],
      ["5", "odd: 5"],
      ["hello", "noz: hello"],
      ["zzz", "other: zzz"],
    ];
    for (const [answer, expected] of cases) {
      const chat = new Chat(b);
      await chat.say("/cond", 0);
      await Bun.sleep(50);
      expect((await chat.say(answer))[0].params.text).toBe(expected);
    }
  });

  test("is_group in a group chat", async () => {
    const member = { id: 5_900_001, first_name: "Gus" };
    fake.sendGroupMessage(b.bot.token, -1_000_777, member, "/who");
    const [reply] = await fake.waitForSent(b.bot.token, -1_000_777, 1, 4000);
    expect(reply.params.text).toBe("who: group");
  });

  test("is_premium, is_admin, is_subscribed (getChatMember for each channel)", async () => {
    expect((await new Chat(b, { is_premium: true }).say("/who"))[0].params.text).toBe("who: premium");
    expect((await new Chat(b, { id: ADMIN_ID }).say("/who"))[0].params.text).toBe("who: admin");
    const plain = new Chat(b);
    expect((await plain.say("/who"))[0].params.text).toBe("who: sub");
    const checks = fake.calls(b.bot.token, "getChatMember").filter((c) => Number(c.params.user_id) === plain.user.id);
    expect(checks.map((c) => c.params.chat_id).sort()).toEqual(["@news_chan", "@news_chan", "@other_chan"]);
  });
});

describe("http_request", () => {
  test("methods, auth kinds, bodies, answers, file answers and the Bot API rewrite", async () => {
    const chat = new Chat(b, { first_name: "Zoë" });
    const replies = await chat.say("/http", 7);
    const t = texts(replies);
    expect(t[0]).toBe("st=200 first=Zoë n=2 second=second");
    const basic = "Basic " + Buffer.from(`u:${SECRET}`).toString("base64");
    expect(t[1]).toBe(`POST Zoë||2 ${basic} t-${chat.user.id} application/json`);
    expect(t[2]).toBe(`PUT a=1+2&b=Zo%C3%AB ${SECRET}`);
    expect(t[3]).toBe(`text=deleted with ${SECRET}`);
    expect(t[4]).toBe("PATCH raw Zoë text/plain 202");
    expect(replies[5].method).toBe("sendDocument");
    expect(replies[5].params.document).toEqual({ fileName: "picture.png", size: PNG.length });
    expect(t[5]).toBe("file picture.png");
    expect(t[6]).toBe(`me=${b.bot.username} ok=true`);
    expect(seen.find((s) => s.path === "/items")?.query).toBe("?q=Zo%C3%AB");
  });

  test("values are escaped inside a JSON body", async () => {
    const chat = new Chat(b, { first_name: 'Q "quoted" \\ name' });
    const replies = await chat.say("/http", 7);
    expect(replies[1].params.text).toContain('POST Q "quoted" \\ name||2');
  });

  test("the bot token never appears in the bot's output, though a URL used {bot_token}", async () => {
    await b.waitForOutput("http GET " + "http://127.0.0.1:");
    await b.waitForOutput(/http GET http:\/\/127\.0\.0\.1:\d+\/bot\*\*\*\/getMe → 200/);
    expect(b.output()).not.toContain(b.bot.token);
    expect(b.output()).not.toContain(SECRET);
  });
});

describe("http_request paging", () => {
  test("interactive: the offset starts at 0, the answer says where the user is; fetch_all joins every page", async () => {
    const t = texts(await new Chat(b).say("/pages", 3));
    expect(t[0]).toBe("row0 next=10 prev= page=1/3");
    expect(t[1]).toBe("row20 next=[] prev=10 page=3/3");
    expect(t[2]).toBe("all=25 items=25 last=row24");
  });
});

describe("loop, parallel_split, convert_file", () => {
  test("loop runs its body per item up to maxIterations, then afterLoopTo", async () => {
    expect(texts(await new Chat(b).say("/loop", 3))).toEqual(["item 0: a", "item 1: b", "done after 1"]);
  });

  test("a loop with a delay between items and no limit runs every item in order; the list survives in the chat's variables", async () => {
    const chat = new Chat(b);
    await chat.say("/loop", 3);
    expect(texts(await chat.say("/slowloop", 4))).toEqual(["item 0: a", "item 1: b", "item 2: c", "done after 2"]);
  });

  test("parallel_split runs every branch", async () => {
    expect(texts(await new Chat(b).say("/par", 2)).sort()).toEqual(["branch A", "branch B"]);
  });

  test("convert_file makes CSV (quoted fields, header) and JSON documents", async () => {
    const chat = new Chat(b);
    const [csv, json] = await chat.say("/csv", 2);
    // UTF-8 with a byte order mark (Excel): three bytes before the header
    const expectedCsv = '\ufeffname,city\r\nAnn,"Oslo, NO"\r\nBob,"Rome ""old"""';
    expect(csv.method).toBe("sendDocument");
    expect(csv.params.document).toEqual({ fileName: `people_${chat.user.id}.csv`, size: Buffer.byteLength(expectedCsv) });
    const people = [{ name: "Ann", city: "Oslo, NO" }, { name: "Bob", city: 'Rome "old"' }];
    expect(json.params.document).toEqual({ fileName: "people.json", size: Buffer.byteLength(JSON.stringify(people, null, 2)) });
    // the bytes themselves: EF BB BF once, then the header
    const [head] = await chat.say("/csvhead");
    const bytes = Buffer.from(head.params.text, "base64");
    expect([...bytes.subarray(0, 7)]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from("name")]);
    expect(bytes.toString("utf8")).toBe(expectedCsv);
  });
});

describe("bad scenario data", () => {
  test("variables named __proto__ or constructor stay plain data", async () => {
    const chat = new Chat(b, { first_name: "Vic" });
    await chat.say("/proto", 0);
    await b.waitForOutput(/node pr-ask/); // the bot waits for the answer now
    expect((await chat.say("polluted"))[0].params.text).toBe("got polluted [] Vic");
    await b.waitForOutput(/node pr-set: assignment/);
    await b.waitForOutput("node pr-set: assignment to an invalid variable name \"constructor\"");
    expect((await new Chat(b).say("/loop", 3)).length).toBe(3);
  });

  test("unreachable host, malformed headers, a timeout and a loop over a non-list: one error line each, the flow goes on", async () => {
    const chat = new Chat(b);
    const t = texts(await chat.say("/bad", 4, ));
    expect(t[0]).toMatch(/^unreachable: 0 \S/);
    expect(t[1]).toBe("headers: 0");
    expect(t[2]).toBe("slow: 0 no answer within 1 s");
    expect(t[3]).toBe("still here");
    await b.waitForOutput(/node bad5: loop over notalist/); // stderr may arrive after the reply
    const out = b.output();
    const id = chat.user.id;
    expect(out).toContain(`[chat ${id}] node bad1: http_request GET http://127.0.0.1:1/nothing failed:`);
    expect(out).toContain(`[chat ${id}] node bad2: http_request GET ${`http://127.0.0.1:${api.port}/items`} failed: headers are not valid JSON`);
    expect(out).toContain(`[chat ${id}] node bad3: http_request GET http://127.0.0.1:${api.port}/slow failed: no answer within 1 s`);
    expect(out).toContain(`[chat ${id}] node bad5: loop over notalist, which holds no list; the loop is skipped`);
    expect(texts(await new Chat(b).say("/loop", 3))).toEqual(["item 0: a", "item 1: b", "done after 1"]);
  });
});
