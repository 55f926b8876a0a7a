// The campaign sender's loops, one per campaign being sent, run on the sender's worker thread
// (send-worker.ts) with its own connections to the project files (docs/campaigns.md#the-sender).
// Per window of sends in flight: `sending` is committed, the messenger is called for each, then
// `sent` with the message id or `failed` with the reason in one commit. A start after a crash turns
// every `sending` row into failed "unknown" (never sent twice) and resumes the rest (sender.ts).
import type { ProjectDb } from "../../db/project-db";
import type { Counts } from "./model";
import { campaignById, claimRecipients, countsOf, nextPending, settleRecipients, updateCampaignIf, type Addressee, type CampaignRow, type Settled } from "./queries";
import { recordsOf, sendOne, type Prepared, type SendDeps, type SendToken } from "./send-one";
import { keyOf, type Key } from "./send-protocol";

/** How often a campaign being sent tells the Studio its counts (the contract: at least every 2 s). */
const PROGRESS_MS = 1000;
const BATCH = 200;
/** At most this many sends of one campaign in flight at once (a raised pace): one window. */
const MAX_IN_FLIGHT = 16;

/**
 * Sends in flight at once: one at the default pace (recipients in order), more when the pace is
 * raised beyond what one round trip at a time allows.
 */
const windowFor = (sendsPerSecond: number) => Math.min(MAX_IN_FLIGHT, Math.max(1, Math.ceil(sendsPerSecond / 50)));

export interface LoopHost {
  send: SendDeps;
  /** the thread's own connection to the project's file */
  db(projectId: number): ProjectDb | null;
  /** the token as last read by the server (null: deleted); asks for a fresher one now and then */
  token(tokenId: number): SendToken | null;
  emit(e: { projectId: number; tokenId: number; campaignId: number; status: CampaignRow["status"]; counts: Counts }): void;
  /** chats a window's sends were recorded in, each with its newest record (a chat-message event each) */
  recorded(projectId: number, tokenId: number, chats: [string, number][]): void;
  ended(projectId: number, campaignId: number): void;
  log(level: "info" | "warn" | "error", text: string): void;
}

interface Loop {
  stopped: boolean;
  done: Promise<void>;
}

export class CampaignLoops {
  private readonly loops = new Map<Key, Loop>();

  constructor(private readonly host: LoopHost) {}

  /** Sends the campaign's pending recipients until none is left, or it is halted. */
  run(projectId: number, campaignId: number, prepared: Prepared) {
    const key = keyOf(projectId, campaignId);
    const before = this.loops.get(key);
    if (before) before.stopped = true;
    const loop: Loop = { stopped: false, done: Promise.resolve() };
    loop.done = (before?.done ?? Promise.resolve())
      .then(() => this.send(projectId, campaignId, loop, prepared))
      .catch((e) => this.host.log("error", `campaign ${campaignId} of project ${projectId} stopped: ${e instanceof Error ? e.message : e}`))
      .finally(() => {
        if (this.loops.get(key) === loop) this.loops.delete(key);
        this.host.ended(projectId, campaignId);
      });
    this.loops.set(key, loop);
  }

  /** No new window starts; the one in flight is recorded (then the host hears `ended`). */
  halt(projectId: number, campaignId: number) {
    const loop = this.loops.get(keyOf(projectId, campaignId));
    if (loop) loop.stopped = true;
  }

  private async send(projectId: number, campaignId: number, loop: Loop, prepared: Prepared) {
    const db = this.host.db(projectId);
    const first = db ? campaignById(db, campaignId) : undefined;
    if (!db || !first || first.status !== "sending" || loop.stopped) return;
    const tell = (status: CampaignRow["status"]) => this.host.emit({ projectId, tokenId: first.tokenId, campaignId, status, counts: countsOf(db, campaignId) });
    tell("sending");
    // once a second while the loop runs, also while it waits out a retry_after
    const beat = setInterval(() => tell("sending"), PROGRESS_MS);
    try {
      await this.sendAll(projectId, db, first, loop, prepared, tell);
    } finally {
      clearInterval(beat);
    }
    const now = campaignById(db, campaignId);
    if (now && now.status !== "done") tell(now.status);
  }

  private async sendAll(projectId: number, db: ProjectDb, first: CampaignRow, loop: Loop, prepared: Prepared, tell: (status: CampaignRow["status"]) => void) {
    const campaignId = first.id;
    /** not taken (429) in the last window: pending again, and first in the next one */
    let retry: Addressee[] = [];
    while (!loop.stopped) {
      const batch = nextPending(db, first.tokenId, campaignId, BATCH);
      if (batch.length === 0) {
        const done = updateCampaignIf(db, campaignId, ["sending"], { status: "done", finishedAt: new Date().toISOString() });
        if (done) tell("done");
        return;
      }
      let next = 0;
      while ((next < batch.length || retry.length > 0) && !loop.stopped) {
        // the pace may have changed (PATCH sendsPerSecond), the token may be gone: the server's
        // latest reading of it (docs/campaigns.md#one-pace-per-token)
        const t = this.host.token(first.tokenId);
        if (!t) return;
        const windowOf = windowFor(t.sendsPerSecond);
        const seen = new Set(retry.map((r) => r.id));
        const take = [...retry, ...batch.slice(next, next + Math.max(0, windowOf - retry.length)).filter((r) => !seen.has(r.id))];
        next += take.length - retry.length;
        const settled = await this.sendWindow(projectId, db, first, t, prepared, take);
        retry = take.filter((r) => settled.back.has(r.id));
      }
    }
  }

  /**
   * One window: its recipients marked `sending` in one commit, sent at once (each in the token's
   * pace), their outcomes and chat records in one commit. A crash can leave only this window
   * `sending`: the sends in flight (docs/campaigns.md#exactly-once).
   */
  private async sendWindow(projectId: number, db: ProjectDb, first: CampaignRow, t: SendToken, prepared: Prepared, take: Addressee[]): Promise<{ back: Set<number> }> {
    const claimed = claimRecipients(db, take.map((r) => r.id));
    const outcomes = await Promise.all(
      take
        .filter((r) => claimed.has(r.id))
        .map(async (r): Promise<Settled> => {
          const out = await sendOne(this.host.send, t, prepared, r);
          if (out.ok) {
            const at = new Date().toISOString();
            const records = recordsOf(t, r.userId, prepared, out.messageIds ?? [out.messageId], out.fileIds ?? [], out.text, at, first.nodeId);
            return { id: r.id, sent: { messageId: out.messageId, albumIds: out.messageIds?.slice(1), at, records } };
          }
          return out.retryAfter !== undefined ? { id: r.id, back: true } : { id: r.id, failed: out.error };
        }),
    );
    const chats = settleRecipients(db, outcomes);
    if (chats.length > 0) this.host.recorded(projectId, first.tokenId, chats);
    return { back: new Set(outcomes.filter((o) => "back" in o).map((o) => o.id)) };
  }
}
