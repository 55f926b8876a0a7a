// The preview does what the bot does: a button leading straight to an input node shows the input's
// question (its inputPrompt, with its buttons) in the preview chat (docs/scenario.md "Input nodes").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { PreviewDriver } from "./support";

let t: TestApp;
let owner: string;
let projectId: number;

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const scenario = {
  sheets: [{ id: "s1", name: "Main", edges: [], nodes: [
    node("start", "start", { command: "/start", messageText: "Hi!", keyboardType: "inline", buttons: [{ id: "b1", text: "Tell my name", action: "goto", target: "ask" }] }),
    node("ask", "input", { inputVariable: "name", inputTargetNodeId: "greet", inputPrompt: "What is your name?", keyboardType: "reply", buttons: [{ id: "r1", text: "Anonymous", action: "goto", target: "" }] }),
    node("greet", "message", { messageText: "Nice to meet you, {name}!" }),
  ] }],
};

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  owner = await loginAs(t, 611);
  projectId = (await t.call("POST", "/api/projects", { cookie: owner, json: { name: "Ask" } })).body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

test("the question and its reply buttons reach the preview chat; the answer is stored", async () => {
  const r = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie: owner, json: { document: scenario } });
  expect(r.status).toBe(201);
  const d = new PreviewDriver(t, owner, r.body.id);
  await d.act({ type: "text", text: "/start" });
  const [hi] = await d.botSays((m) => m.includes("Hi!"));
  await d.act({ type: "button", messageId: hi!.messageId, data: hi!.replyMarkup.inline_keyboard[0][0].callback_data });
  const [asked] = await d.botSays((m) => m.includes("What is your name?"));
  expect(asked).toMatchObject({ node: "ask", text: "What is your name?" });
  expect(asked!.replyMarkup.keyboard[0][0].text).toBe("Anonymous");
  await d.act({ type: "text", text: "Anonymous" });
  await d.botSays((m) => m.includes("Nice to meet you, Anonymous!"));
  await t.call("DELETE", `/api/preview/${d.id}`, { cookie: owner });
}, 30_000);
