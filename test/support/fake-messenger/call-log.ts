// What the bots called, for the test to read and wait on. Indexed so the fake stays cheap with a
// thousand bots polling and dozens of tests waiting at once (bench/fleet.ts): a recorded call wakes
// only the waiters of its own token, and a send to a chat is found without scanning the bot's
// whole history (the fleet benchmark's profile had these two scans at half of the fake's CPU).
import type { RecordedCall } from "../../../src/emulator/bot-api/types";

const SENT = /^(send(?!ChatAction$)|copyMessage|forwardMessage|editMessage|deleteMessage)/;

interface Waiter {
  check: () => boolean;
  fail: (e: Error) => void;
}

export class CallLog {
  private all = new Map<string, RecordedCall[]>();
  /** successful send-calls per token, and per `token|chat_id` */
  private sentByToken = new Map<string, RecordedCall[]>();
  private sentByChat = new Map<string, RecordedCall[]>();
  private cursors = new Map<string, number>();
  private waiters = new Map<string, Set<Waiter>>();

  /** `unknownBot` names an unknown token in timeout messages (null when the fake knows it). */
  constructor(private readonly unknownBot: (token: string) => string | null) {}

  record(call: RecordedCall) {
    push(this.all, call.token, call);
    // error and method are final when a call is recorded (getUpdates, recorded on arrival, is never a send)
    if (!call.error && SENT.test(call.method)) {
      push(this.sentByToken, call.token, call);
      push(this.sentByChat, `${call.token}|${String(call.params.chat_id)}`, call);
    }
    const waiting = this.waiters.get(call.token);
    if (waiting) for (const w of [...waiting]) w.check();
  }

  calls(token: string, method?: string): RecordedCall[] {
    const list = this.all.get(token) ?? [];
    return method ? list.filter((c) => c.method === method) : [...list];
  }

  sent(token: string, chatId?: number): RecordedCall[] {
    return [...((chatId === undefined ? this.sentByToken.get(token) : this.sentByChat.get(`${token}|${String(chatId)}`)) ?? [])];
  }

  waitForCall(token: string, pred: (c: RecordedCall) => boolean, timeoutMs: number): Promise<RecordedCall> {
    const probe = () =>
      (this.all.get(token) ?? []).find((c) => {
        try {
          return pred(c);
        } catch {
          return false;
        }
      });
    return this.waitFor(token, timeoutMs, probe, () => `waitForCall: no matching call within ${timeoutMs} ms.\n${this.describeRecent(token)}`);
  }

  waitForSent(token: string, chatId: number, count: number, timeoutMs: number): Promise<RecordedCall[]> {
    const key = `${token}|${String(chatId)}`;
    const probe = () => {
      const all = this.sentByChat.get(key) ?? [];
      const from = this.cursors.get(key) ?? 0;
      if (all.length - from < count) return undefined;
      this.cursors.set(key, from + count);
      return all.slice(from, from + count);
    };
    return this.waitFor(token, timeoutMs, probe, () => {
      const got = (this.sentByChat.get(key)?.length ?? 0) - (this.cursors.get(key) ?? 0);
      return `waitForSent: expected ${count} new send-call(s) to chat ${chatId} within ${timeoutMs} ms, got ${got}.\n${this.describeRecent(token)}`;
    });
  }

  /** Forgets recorded calls and waitForSent positions of one token or of all. */
  clear(token?: string) {
    for (const map of [this.all, this.sentByToken]) for (const t of token ? [token] : [...map.keys()]) map.delete(t);
    for (const map of [this.sentByChat, this.cursors]) for (const key of [...map.keys()]) if (!token || key.startsWith(`${token}|`)) map.delete(key);
  }

  /** Rejects every pending wait (the fake is stopping). */
  failAll(e: Error) {
    for (const set of [...this.waiters.values()]) for (const w of [...set]) w.fail(e);
  }

  private waitFor<T>(token: string, timeoutMs: number, probe: () => T | undefined, explain: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const first = probe();
      if (first !== undefined) return resolve(first);
      let set = this.waiters.get(token);
      if (!set) this.waiters.set(token, (set = new Set()));
      const waiting = set;
      const done = () => {
        clearTimeout(timer);
        waiting.delete(w);
        if (!waiting.size && this.waiters.get(token) === waiting) this.waiters.delete(token);
      };
      const w: Waiter = {
        check: () => {
          const hit = probe();
          if (hit === undefined) return false;
          done();
          resolve(hit);
          return true;
        },
        fail: (e) => {
          done();
          reject(e);
        },
      };
      const timer = setTimeout(() => w.fail(new Error(explain())), timeoutMs);
      waiting.add(w);
    });
  }

  private describeRecent(token: string): string {
    const unknown = this.unknownBot(token);
    if (unknown) return unknown;
    const now = Date.now();
    const recent = (this.all.get(token) ?? []).filter((c) => c.method !== "getUpdates").slice(-15);
    if (!recent.length) return "The bot made no calls besides getUpdates.";
    const lines = recent.map((c) => {
      const params = JSON.stringify(c.params);
      return `  ${now - c.at} ms ago  ${c.method} ${params.length > 300 ? `${params.slice(0, 300)}…` : params}${c.error ? `  -> ${c.error}` : ""}`;
    });
    return `Recent calls (newest last):\n${lines.join("\n")}`;
  }
}

function push<K>(map: Map<K, RecordedCall[]>, key: K, call: RecordedCall) {
  const list = map.get(key);
  if (list) list.push(call);
  else map.set(key, [call]);
}
