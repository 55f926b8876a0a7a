// A running bot (a shared runner on the fake messenger) and the Tables API on the same file: the
// bot's bot_table insert shows in the Studio's listing, a row edited there is what the bot reads
// next, and a row added there is one the bot counts — the bot keeps no copy of its tables.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { FakeUser } from "../support/fake-messenger";
import { node, scenarioOf, startAudience, type AudienceEnv } from "../browser/audience-support";

const table = (id: string, next: string | undefined, data: Record<string, unknown>) => node(id, "bot_table", { tableName: "orders", ...data, autoTransitionTo: next });
const say = (id: string, text: string) => node(id, "message", { messageText: text });
const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });

const scenario = scenarioOf(
  cmd("add", "ins"),
  table("ins", "added", { operation: "insert", row: { item: "apple", price: "10" } }),
  say("added", "added"),
  cmd("show", "read"),
  table("read", "cnt", { operation: "read", where: [{ column: "item", value: "apple" }], saveResultTo: "first" }),
  table("cnt", "shown", { operation: "count", saveResultTo: "n" }),
  say("shown", "price={first.price} rows={n}"),
);

let env: AudienceEnv;
const ann: FakeUser = { id: 770001, first_name: "Ann" } as FakeUser;

beforeAll(async () => {
  env = await startAudience({ project: "Shop", bot: "shop_bot", scenario });
}, 60_000);
afterAll(async () => {
  await env?.stop();
});

async function ask(text: string): Promise<string> {
  env.fake.sendText(env.botToken, ann, text);
  const [reply] = await env.fake.waitForSent(env.botToken, ann.id, 1, 20_000);
  return String(reply!.params.text);
}

test("a row edited in the Studio is what the running bot reads next", async () => {
  expect(await ask("/add")).toBe("added");
  const base = `/api/projects/${env.projectId}/tables`;
  const list = await env.t.call("GET", base, { cookie: env.cookie });
  expect(list.status).toBe(200);
  const orders = list.body.items.find((x: { name: string }) => x.name === "orders");
  expect(orders.rows).toBe(1);
  expect(await ask("/show")).toBe("price=10 rows=1");

  const rows = await env.t.call("GET", `${base}/orders/rows`, { cookie: env.cookie });
  const id = rows.body.items[0]._id;
  const patched = await env.t.call("PATCH", `${base}/orders/rows/${id}`, { cookie: env.cookie, json: { price: "99" } });
  expect(patched.status).toBe(200);
  expect(await ask("/show")).toBe("price=99 rows=1");

  const added = await env.t.call("POST", `${base}/orders/rows`, { cookie: env.cookie, json: { item: "pear", price: "5" } });
  expect(added.status).toBe(201);
  expect(await ask("/show")).toBe("price=99 rows=2");

  // the bot writes while the Studio reads: its next insert is counted by the listing
  expect(await ask("/add")).toBe("added");
  const again = await env.t.call("GET", base, { cookie: env.cookie });
  expect(again.body.items.find((x: { name: string }) => x.name === "orders").rows).toBe(3);
}, 60_000);
