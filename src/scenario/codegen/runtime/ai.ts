// Runtime source: the ai_answer node, one chat-completions request to an OpenAI-compatible endpoint
// under the egress policy, with the user's recent conversation as memory (docs/nodes/ai.md).
// (Part of every generated bot; see types.ts.)
import { nodeError } from "./control";
import { egressFetch } from "./egress";
import { log } from "./flow";
import { EGRESS, SECRET_ENV, maskSecrets } from "./http";
import type { AiNode } from "./logic-tables";
import { sendText } from "./messages";
import { flushRecords, recordsMessages } from "./record";
import { lazyStatements } from "./connection";
import { TOKEN_ID, db, env } from "./storage";
import type { Turn } from "./types";
import { cut, cutBytes, render, toText } from "./values";

// ─── ai_answer ─────────────────────────────────────────────────────────────────

/** An answer larger than this is refused: no model's reply to a chat comes near it. */
export const AI_MAX_BYTES = 4 * 1024 * 1024;
/** Telegram's longest text message: a longer answer goes out in parts. */
export const AI_MESSAGE_CHARS = 4096;
/** How much of an endpoint's error text the log line quotes. */
export const AI_ERROR_QUOTE = 200;
/**
 * The most a node's own memory keeps per chat, in UTF-8 bytes (docs/nodes/ai.md#memory): it lives
 * in the chat's state, which is read and written at every update of the chat; 50 turns of 4 MB
 * answers would be 200 MB a chat.
 */
export const AI_MEMORY_BYTES = 32 * 1024;

export type AiMessage = { role: "system" | "user" | "assistant"; content: string };

export const aiSql = db && lazyStatements({
  // +?: planned once, not at every bind (docs/database.md "Parameters planned once")
  history: () => db!.prepare<{ direction: string; text: string }, [number, string, number]>(
    "SELECT direction, text FROM bot_messages WHERE token_id = +? AND chat_id = +? AND deleted_at IS NULL AND text <> '' ORDER BY id DESC LIMIT +?",
  ),
});

/** The API key: only from a secret env variable of the token, so the logs mask it (http.ts maskSecrets). */
export function aiKey(node: AiNode): string | undefined {
  if (!node.keyEnv) return undefined;
  if (!SECRET_ENV.has(node.keyEnv)) {
    throw new Error(env[node.keyEnv] === undefined
      ? "the env variable " + node.keyEnv + " is not set for this bot (a preview has no env variables)"
      : "the env variable " + node.keyEnv + " is not marked secret; an API key must be");
  }
  return env[node.keyEnv];
}

/**
 * The user's last turns: from the message store when the bot keeps messages (docs/dialogs.md),
 * else from the node's own memory in the chat's state. The message of this update is left out:
 * it goes last, as the question.
 */
export function aiMemory(turn: Turn, node: AiNode, question: string): AiMessage[] {
  if (node.memory <= 0) return [];
  if (recordsMessages && aiSql) {
    flushRecords();
    const rows = aiSql.history.all(TOKEN_ID, String(turn.chatId), node.memory * 2 + 1).reverse();
    const last = rows[rows.length - 1];
    if (last && last.direction === "in" && last.text === question) rows.pop();
    return rows.slice(-node.memory * 2).map((r) => ({ role: r.direction === "in" ? "user" : "assistant", content: r.text }));
  }
  const own = aiTurnsWithin(turn.state.ai?.[node.id] ?? [], node.memory);
  return own.flatMap(([user, answer]): AiMessage[] => [{ role: "user", content: user }, { role: "assistant", content: answer }]);
}

/** Keeps the turn in the node's own memory (only when the message store does not have it). */
export function aiRemember(turn: Turn, node: AiNode, question: string, answer: string) {
  if (node.memory <= 0 || recordsMessages) return;
  const all = (turn.state.ai ??= {});
  all[node.id] = aiTurnsWithin([...(all[node.id] ?? []), [question, answer]], node.memory);
}

/**
 * The newest turns, at most `count` and AI_MEMORY_BYTES together; older ones go first. A newest
 * turn larger than that on its own is kept cut: its question to half the budget, its answer to the
 * rest, each at a character's edge.
 */
export function aiTurnsWithin(turns: [string, string][], count: number): [string, string][] {
  const kept: [string, string][] = [];
  let size = 0;
  for (let i = turns.length - 1; i >= 0 && kept.length < count; i--) {
    const [question, answer] = turns[i]!;
    const bytes = Buffer.byteLength(question) + Buffer.byteLength(answer);
    if (size + bytes <= AI_MEMORY_BYTES) {
      kept.push([question, answer]);
      size += bytes;
      continue;
    }
    if (kept.length === 0) {
      const q = cutBytes(question, AI_MEMORY_BYTES / 2);
      kept.push([q, cutBytes(answer, AI_MEMORY_BYTES - Buffer.byteLength(q))]);
    }
    break;
  }
  return kept.reverse();
}

/** The endpoint for log lines: without any user or password written into the URL. */
export function aiWhere(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return url.origin + url.pathname.replace(/\/+$/, "");
  } catch {
    return JSON.stringify(baseUrl.slice(0, 80));
  }
}

/** Why an endpoint refused, in its own words when it gives them ({ error: { message } }), cut short. */
export function aiRefusal(status: number, body: string): string {
  let detail = "";
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const e = parsed?.error;
    detail = typeof e === "string" ? e : typeof e?.message === "string" ? e.message : "";
  } catch {
    detail = "";
  }
  return "the endpoint answered " + status + (detail ? ": " + detail.slice(0, AI_ERROR_QUOTE) : "");
}

/** The answer's text out of a chat-completions body; throws with the reason when there is none. */
export function aiAnswerOf(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error("the answer is not JSON: " + JSON.stringify(body.slice(0, 80)));
  }
  const choices = parsed !== null && typeof parsed === "object" ? (parsed as { choices?: unknown }).choices : undefined;
  if (!Array.isArray(choices) || choices.length === 0) throw new Error("the answer has no choices");
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => toText((p as { text?: unknown })?.text)).join("") : "";
  if (text.trim() === "") throw new Error("the answer is empty");
  return text;
}

/** One request; answers the model's text or throws with a reason that holds no secret. */
export async function aiAsk(node: AiNode, messages: AiMessage[], key: string | undefined): Promise<string> {
  const base = node.baseUrl.replace(/\/+$/, "");
  if (!/^https?:\/\//i.test(base)) throw new Error("the base URL " + JSON.stringify(base) + " is not an http(s) address");
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (key) headers.authorization = "Bearer " + key;
  const body = JSON.stringify({ model: node.model, messages, temperature: node.temperature, max_tokens: node.maxTokens });
  // one clock for the connection, the answer's headers and its body
  const signal = AbortSignal.timeout(node.timeoutSeconds * 1000);
  const { response } = await egressFetch(EGRESS, base + "/chat/completions", { method: "POST", headers, body, signal });
  const text = await aiBody(response);
  if (!response.ok) throw new Error(aiRefusal(response.status, text));
  return aiAnswerOf(text);
}

/** The answer's body, read no further than AI_MAX_BYTES: an endpoint streaming without end is cut off, not kept. */
export async function aiBody(response: Response): Promise<string> {
  const tooLarge = () => new Error("the answer is larger than " + AI_MAX_BYTES + " bytes");
  if (Number(response.headers.get("content-length") ?? "0") > AI_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > AI_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    parts.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

export async function runAi(turn: Turn, node: AiNode): Promise<string | undefined> {
  const vars = turn.state.vars;
  let answer: string;
  try {
    if (!node.model) throw new Error("no model is set");
    const key = aiKey(node);
    const question = node.user ? render(turn, node.user) : toText(turn.event.message_text);
    if (question.trim() === "") throw new Error("there is no user message to answer (this update has no text and aiUserMessage is empty)");
    const system = render(turn, node.system);
    const messages: AiMessage[] = [...(system.trim() ? [{ role: "system" as const, content: system }] : []), ...aiMemory(turn, node, question), { role: "user", content: question }];
    answer = await aiAsk(node, messages, key);
    aiRemember(turn, node, question, answer);
  } catch (err) {
    // An endpoint's refusal may quote the key it was sent (some gateways do); {ai_error} can go
    // into a message, which must never carry a secret (docs/security.md "Secrets").
    const reason = maskSecrets(err instanceof Error ? (err.name === "TimeoutError" || err.name === "AbortError" ? "no answer within " + node.timeoutSeconds + " s" : err.message) : String(err));
    vars.ai_error = reason;
    nodeError(turn, node, "ai_answer " + JSON.stringify(node.model) + " at " + aiWhere(node.baseUrl) + " failed: " + reason);
    return node.error ?? node.next;
  }
  delete vars.ai_error;
  if (node.saveTo) vars[node.saveTo] = answer;
  log(turn, "ai_answer " + node.id + ": " + answer.length + " characters from " + JSON.stringify(node.model));
  if (node.send) {
    for (let at = 0; at < answer.length; ) {
      // a part never ends in half of a character written as two (an emoji): Telegram refuses such a text
      const part = cut(answer.slice(at, at + AI_MESSAGE_CHARS + 1), AI_MESSAGE_CHARS);
      await sendText(turn, part, node.format);
      at += part.length;
    }
  }
  return node.next;
}
