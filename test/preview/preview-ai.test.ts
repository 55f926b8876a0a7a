// ai_answer in the Studio's preview (docs/nodes/ai.md "Preview"): a preview has no env variables,
// so a node whose key comes from one takes its error exit with a message that says why; a node
// without a key (a local model server the operator allowed) answers from the fake LLM.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm";
import { doc, node } from "../scenario/harness";
import { PreviewDriver } from "./support";

let t: TestApp;
let owner: string;
let projectId: number;
let llm: FakeLlm;

beforeAll(async () => {
  llm = startFakeLlm();
  t = createTestApp({ env: { EGRESS_ALLOW: `127.0.0.1:${llm.port}` } });
  await setUp(t);
  owner = await loginAs(t, 612);
  projectId = (await t.call("POST", "/api/projects", { cookie: owner, json: { name: "AI preview" } })).body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
  await llm.stop();
});

test("a key from an env variable is missing in a preview (error exit); a keyless local endpoint answers", async () => {
  const ai = (id: string, extra: Record<string, unknown>) => node(id, "ai_answer", { aiBaseUrl: llm.url, aiModel: "echo", aiTimeout: 5, errorTransitionTo: "sorry", ...extra });
  const document = doc(
    node("c1", "command_trigger", { command: "/keyed", autoTransitionTo: "keyed" }),
    ai("keyed", { aiApiKeyEnv: "OPENAI_API_KEY" }),
    node("c2", "command_trigger", { command: "/local", autoTransitionTo: "local" }),
    ai("local", { aiSystemPrompt: "Be brief." }),
    node("sorry", "message", { messageText: "sorry: {ai_error}" }),
  );
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document } });
  expect(r.status).toBe(201);
  const d = new PreviewDriver(t, owner, r.body.id);
  const before = llm.requests.length;
  await d.act({ type: "text", text: "/keyed" });
  const [refused] = await d.botSays((m) => m.some((x) => x.startsWith("sorry:")));
  expect(refused!.text).toBe("sorry: the env variable OPENAI_API_KEY is not set for this bot (a preview has no env variables)");
  expect(llm.requests.length).toBe(before);
  await d.act({ type: "text", text: "/local" });
  const [answer] = await d.botSays((m) => m.some((x) => x.startsWith("echo:")));
  // the preview keeps messages too: the earlier turn is the memory
  expect(answer!.text).toBe("echo: /local (4 messages)");
  const last = llm.requests[llm.requests.length - 1]!;
  expect(last.authorization).toBeNull();
  expect(last.body.messages!.map((m) => m.role + ":" + m.content)).toEqual([
    "system:Be brief.",
    "user:/keyed",
    "assistant:sorry: the env variable OPENAI_API_KEY is not set for this bot (a preview has no env variables)",
    "user:/local",
  ]);
  await t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });
}, 60_000);
