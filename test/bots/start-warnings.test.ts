// A bot's log says, when it starts, what the generator skips or works around (docs/bots.md): the
// owner who reads the Logs tab sees why a node did nothing without opening the editor.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loginAs } from "../support/app";
import { until } from "../support/process";
import { act, addBot, startRunnerPlatform, type RunnerPlatform } from "./runner-platform";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  sheets: [{
    id: "s", name: "S", edges: [], nodes: [
      node("start", "command_trigger", { command: "/start", autoTransitionTo: "bill" }),
      node("bill", "invoice", { title: "Tea", description: "A cup", amount: "20000", payload: "tea" }),
      node("lonely", "message", { messageText: "nobody reaches me" }),
    ],
  }],
};

let p: RunnerPlatform;
beforeAll(async () => {
  p = await startRunnerPlatform({});
});
afterAll(async () => {
  await p?.close();
});

test("a started bot's log lists its scenario warnings: the generator's and validation's", async () => {
  const b = await addBot(p, await loginAs(p.t, 96), "Warned", { data: scenario });
  const generated = await p.t.call("POST", `/api/projects/${b.projectId}/generate`, { cookie: b.cookie, json: {} });
  const expected = (generated.body.warnings as { nodeId: string; message: string }[]).map((w) => `scenario warning: ${w.nodeId}: ${w.message}`);
  expect(expected.some((l) => l.includes("bill"))).toBe(true);
  expect(expected.some((l) => l.includes("lonely"))).toBe(true);
  expect((await act(p, b, "start")).status).toBe(200);
  const messages = async () => ((await p.t.call("GET", `/api/projects/${b.projectId}/logs/all?limit=1000`, { cookie: b.cookie })).body as { message: string }[]).map((l) => l.message);
  // a log line keeps its first 150 characters (docs/api.md): each warning's line is its beginning
  const logged = (log: string[], line: string) => log.some((m) => line.startsWith(m.replace(/…$/, "")) && m.startsWith("scenario warning: "));
  const log = await until(async () => {
    const now = await messages();
    return expected.every((line) => logged(now, line)) ? now : undefined;
  }, "every warning in the bot's log");
  expect(log.filter((m) => m.startsWith("scenario warning: ")).length).toBe(expected.length);
});
