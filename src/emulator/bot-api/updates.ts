// One bot's pending updates and the two ways Telegram hands them out: long polling (getUpdates)
// and webhook pushes. Updates leave the queue only when confirmed (offset) or delivered, so a
// bot that crashes mid-poll gets them again, as on Telegram.
import { ApiError, nowSeconds, type Update } from "./types";

export interface Webhook {
  url: string;
  secretToken?: string;
  maxConnections: number;
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

export interface WebhookOptions {
  timeoutMs: number;
  retryDelaysMs: number[];
  /** a webhook answer may carry a Bot API call ({method, ...params}); Telegram executes it */
  onReply: (params: Record<string, any>) => void;
  /** how a delivery goes out (the preview's: under the egress policy, runtime/egress.ts); fetch by default */
  send?: (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<Response>;
}

// Updates Telegram sends when allowed_updates is empty/absent: all but these opt-in kinds
const OPT_IN = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

interface Poller {
  limit: number;
  resolve: (u: Update[]) => void;
  reject: (e: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}

const CONFLICT_POLL = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
const CONFLICT_WEBHOOK = "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";

export class UpdateQueue {
  private queue: Update[] = [];
  private nextId = 1;
  private poller?: Poller;
  private pumping = false;
  private closed = false;
  private allowed: string[] = [];
  webhook: Webhook | null = null;

  constructor(private readonly hookOpts: WebhookOptions) {}

  get pending() {
    return this.queue.length;
  }

  /** Whether a getUpdates is held open, waiting for an update. */
  get polling() {
    return this.poller !== undefined;
  }

  /** Assigns update_id when missing (and keeps ids increasing when the caller picked one). */
  push(update: Record<string, any>): Update {
    const u = { update_id: this.nextId, ...update } as Update; // update_id first, as Telegram orders it
    if (typeof u.update_id !== "number") u.update_id = this.nextId;
    this.nextId = Math.max(this.nextId, u.update_id + 1);
    this.queue.push(u);
    this.dispatch();
    return u;
  }

  getUpdates(p: Record<string, any>, signal?: AbortSignal): Promise<Update[]> {
    if (this.webhook) return Promise.reject(new ApiError(409, CONFLICT_WEBHOOK));
    // the newer request wins; the held one learns it was displaced
    this.endPoll((p) => p.reject(new ApiError(409, CONFLICT_POLL)));
    if (Array.isArray(p.allowed_updates)) this.allowed = p.allowed_updates;
    const offset = typeof p.offset === "number" ? p.offset : 0;
    if (offset > 0) this.queue = this.queue.filter((u) => u.update_id >= offset);
    else if (offset < 0) this.queue = this.queue.slice(offset); // -n: keep only the newest n
    const limit = Math.min(100, Math.max(1, typeof p.limit === "number" && p.limit > 0 ? p.limit : 100));
    const ready = this.take(limit);
    const timeout = typeof p.timeout === "number" ? p.timeout : 0;
    if (ready.length || timeout <= 0) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const poller: Poller = {
        limit,
        resolve,
        reject,
        timer: setTimeout(() => this.endPoll((q) => q.resolve([]), poller), timeout * 1000),
      };
      this.poller = poller;
      signal?.addEventListener("abort", () => this.endPoll((q) => q.resolve([]), poller));
    });
  }

  setWebhook(hook: Webhook, allowed: unknown, dropPending: boolean) {
    if (dropPending) this.queue = [];
    if (Array.isArray(allowed)) this.allowed = allowed;
    this.endPoll((p) => p.reject(new ApiError(409, "Conflict: terminated by setWebhook request")));
    this.webhook = hook;
    this.dispatch();
  }

  deleteWebhook(dropPending: boolean): boolean {
    if (dropPending) this.queue = [];
    const had = this.webhook !== null;
    this.webhook = null;
    return had;
  }

  get allowedUpdates() {
    return this.allowed;
  }

  /** Ends everything; a held getUpdates is answered with `error` (bot removed) or []. */
  close(error?: ApiError) {
    this.closed = true;
    this.webhook = null;
    this.endPoll((p) => (error ? p.reject(error) : p.resolve([])));
  }

  private endPoll(answer: (p: Poller) => void, only?: Poller) {
    const p = this.poller;
    if (!p || (only && p !== only)) return;
    this.poller = undefined;
    clearTimeout(p.timer);
    answer(p);
  }

  private isAllowed(u: Update) {
    const kind = Object.keys(u).find((k) => k !== "update_id");
    if (!kind) return true;
    return this.allowed.length ? this.allowed.includes(kind) : !OPT_IN.has(kind);
  }

  /** Returns up to `limit` updates without removing them: only a later offset confirms them. */
  private take(limit: number): Update[] {
    this.queue = this.queue.filter((u) => this.isAllowed(u)); // Telegram never queues filtered kinds
    return this.queue.slice(0, limit);
  }

  private dispatch() {
    if (this.closed) return;
    if (this.webhook) void this.pump();
    else if (this.poller) {
      const ready = this.take(this.poller.limit);
      if (ready.length) this.endPoll((p) => p.resolve(ready));
    }
  }

  /** Sequential delivery: the next update goes out only after the previous one was answered. */
  private async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.webhook && !this.closed) {
        const next = this.take(1)[0];
        if (!next) break;
        const hook = this.webhook;
        const delivered = await this.deliver(hook, next);
        // a webhook removed mid-delivery keeps the undelivered update for getUpdates
        if (!delivered && this.webhook !== hook) continue;
        this.queue = this.queue.filter((u) => u !== next);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async deliver(hook: Webhook, update: Update): Promise<boolean> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (hook.secretToken) headers["X-Telegram-Bot-Api-Secret-Token"] = hook.secretToken;
    const delays = this.hookOpts.retryDelaysMs;
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) {
        await Bun.sleep(delays[attempt - 1]!);
        if (this.webhook !== hook || this.closed) return false;
      }
      try {
        const res = await (this.hookOpts.send ?? fetch)(hook.url, {
          method: "POST",
          headers,
          body: JSON.stringify(update),
          signal: AbortSignal.timeout(this.hookOpts.timeoutMs),
        });
        const body = await res.text();
        if (res.ok) {
          this.webhookReply(body, res.headers.get("content-type"));
          return true;
        }
        hook.lastErrorMessage = `Wrong response from the webhook: ${res.status} ${res.statusText}`.trim();
      } catch (e) {
        const name = (e as Error)?.name;
        hook.lastErrorMessage = name === "TimeoutError" ? "Read timeout expired" : "Connection refused";
      }
      hook.lastErrorDate = nowSeconds();
    }
    return false;
  }

  private webhookReply(body: string, type: string | null) {
    if (!type?.includes("application/json") || !body.trim()) return;
    try {
      const reply = JSON.parse(body);
      if (reply && typeof reply === "object" && typeof reply.method === "string") this.hookOpts.onReply(reply);
    } catch {
      // Telegram ignores a body it cannot read
    }
  }
}
