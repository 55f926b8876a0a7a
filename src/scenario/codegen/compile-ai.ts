// `ai_answer` nodes: a chat-completions request to any OpenAI-compatible endpoint (docs/nodes/ai.md).
// The reference editor has no such node; its fields are named ai* after the http_request family.
import { CompileContext, num, text, type RawNode } from "./compile-context";
import { varName } from "./compile-control";
import { formatOf } from "./compile-message";
import type { AiNode } from "./runtime/logic-tables";

/** An env variable's name as the platform accepts it (modules/env-vars): never a key pasted in its place. */
const ENV_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const clamp = (v: number | undefined, min: number, max: number, fallback: number) => Math.min(Math.max(v ?? fallback, min), max);

export function compileAi(node: RawNode, ctx: CompileContext): AiNode {
  const d = node.data;
  const baseUrl = text(d.aiBaseUrl)?.trim() ?? "https://api.openai.com/v1";
  if (!/^https?:\/\/[^\s/]+/i.test(baseUrl)) ctx.warn(node, "ai.badBaseUrl");
  const model = text(d.aiModel)?.trim() ?? "";
  if (!model) ctx.warn(node, "ai.noModel");
  const rawKey = text(d.aiApiKeyEnv)?.trim().replace(/^\{(.+)\}$/, "$1");
  // the key itself must never sit in the scenario: a value that is no env name is dropped unseen
  const keyEnv = rawKey && ENV_NAME.test(rawKey) ? rawKey : undefined;
  if (rawKey && !keyEnv) ctx.warn(node, "ai.keyInScenario");
  const saveTo = varName(d.aiSaveTo) ?? (d.aiSaveTo === undefined ? "ai_answer" : undefined);
  const send = d.aiSendAnswer !== false;
  if (!send && !saveTo) ctx.warn(node, "ai.answerUnused");
  return {
    t: "ai",
    id: node.id,
    baseUrl,
    model,
    keyEnv,
    system: text(d.aiSystemPrompt) ?? "",
    user: text(d.aiUserMessage) ?? "",
    memory: Math.trunc(clamp(num(d.aiMemoryTurns), 0, 50, 5)),
    temperature: clamp(num(d.aiTemperature), 0, 2, 0.7),
    maxTokens: Math.trunc(clamp(num(d.aiMaxTokens), 1, 32000, 512)),
    timeoutSeconds: clamp(num(d.aiTimeout), 1, 120, 30),
    saveTo,
    send,
    format: formatOf(text(d.aiFormatMode)),
    next: ctx.target(node, text(d.autoTransitionTo), "autoTransitionTo"),
    error: ctx.target(node, text(d.errorTransitionTo), "errorTransitionTo"),
    adminOnly: d.adminOnly === true ? true : undefined,
  };
}
