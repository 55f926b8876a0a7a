// The campaign sender (docs/campaigns.md#the-sender), the server's side: campaigns are sent by one
// worker thread (send-worker.ts, send-loop.ts) so a campaign goes out whether its bot runs or not
// and the event loop that answers requests only starts, halts and hears about them. Here: what the
// thread is handed (the token, the message with its media read once), the schedules, the resume
// after a restart (every `sending` row of a crash becomes failed "unknown": never sent twice), the
// test send and delete-sent.
import type { AppContext } from "../../context";
import { MessengerError } from "../../errors";
import type { TokenRow } from "../tokens/access";
import { markBlocked } from "../dialogs/queries";
import { MEDIA_METHOD } from "../dialogs/service";
import { GOTO_DATA_PREFIX } from "../dialogs/model";
import { messageSchema, type CampaignMessage, type Counts } from "./model";
import { campaignById, campaignsIn, failInFlight, projectIds, recipientDeleted, sentNotDeleted, updateCampaignIf, type Addressee, type CampaignRow } from "./queries";
import { sendOne, type Prepared, type SendDeps, type SendOutcome, type SendToken } from "./send-one";
import { keyOf, type FromThread, type Key } from "./send-protocol";
import { SendThread } from "./send-thread";

export type { Prepared, SendOutcome };

const BATCH = 200;
/** setTimeout's longest wait; a schedule further away is armed again when it ends. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Deaths of the sender's thread a server lives through (each resumes what it was sending); past them the next start resumes. */
const MAX_THREAD_DEATHS = 3;

interface Loop {
  projectId: number;
  campaignId: number;
  stopped: boolean;
  done: Promise<void>;
  /** handed to the thread: it says when the loop ended */
  posted: boolean;
  ended?: () => void;
}

/** The token as the thread needs it (no more of the row crosses over). */
const sendTokenOf = (t: TokenRow): SendToken => ({ id: t.id, projectId: t.projectId, token: t.token, sendsPerSecond: t.sendsPerSecond, protectContent: t.protectContent, messageRetentionDays: t.messageRetentionDays });

/**
 * Whether a refused deletion means the message is no longer in the chat: only the messenger's own
 * "not found" of the message says so; a message too old to delete, a rejected token or a network
 * error leaves it there.
 */
export function messageGone(e: unknown): boolean {
  return e instanceof MessengerError && e.kind === "rejected" && e.status === 400 && /message to delete not found/i.test(e.message);
}

export class CampaignSender {
  private readonly loops = new Map<Key, Loop>();
  private readonly timers = new Map<Key, ReturnType<typeof setTimeout>>();
  private closed = false;
  private deaths = 0;
  private readonly thread: SendThread;
  /** the test send's: this event loop's messenger client and the same pace as the thread's */
  private readonly deps: SendDeps;
  /** Starts a scheduled campaign (the service's start, so a schedule and a request take one path). */
  startScheduled: (projectId: number, campaign: CampaignRow) => Promise<void> = async () => {};

  constructor(private readonly ctx: AppContext) {
    this.deps = {
      messenger: ctx.messenger,
      pace: ctx.sendPace,
      blocked: (token, userId) => {
        const db = ctx.projectFiles.existing(token.projectId);
        if (db) markBlocked(db, token.id, userId, new Date().toISOString());
      },
    };
    this.thread = new SendThread(
      { kind: "init", dataDir: ctx.config.dataDir, messengerApiRoot: ctx.config.messengerApiRoot, pace: ctx.sendPace.buffer },
      (m) => this.heard(m),
      (why) => this.died(why),
    );
  }

  /** The messenger's form of a campaign message (media read once; goto buttons as Dialogs encodes them). */
  async prepare(projectId: number, m: CampaignMessage): Promise<Prepared> {
    const keyboard = m.buttons?.map((row) => row.map((b) => ("url" in b ? { text: b.text, url: b.url } : { text: b.text, callback_data: GOTO_DATA_PREFIX + b.goto })));
    const p: Prepared = { text: m.text, format: m.format ?? "none", keyboard };
    if (m.mediaIds) {
      // read once, like a single file; the first send uploads them and the rest reuse the file ids
      const items = await Promise.all(m.mediaIds.map((id) => this.ctx.media.bytesOf(projectId, id)));
      p.album = items.flatMap((media, i) => (media ? [{ mediaId: m.mediaIds![i]!, type: MEDIA_METHOD[media.kind]?.[1] ?? "document", fileName: media.fileName, mimeType: media.mimeType, bytes: media.bytes }] : []));
    }
    if (m.mediaId !== undefined) {
      const media = await this.ctx.media.bytesOf(projectId, m.mediaId);
      if (media) {
        const [method, field] = MEDIA_METHOD[media.kind] ?? MEDIA_METHOD.document!;
        p.media = { mediaId: m.mediaId, method, field, kind: media.kind, fileName: media.fileName, mimeType: media.mimeType, bytes: media.bytes };
      }
    }
    return p;
  }

  /** One message to one user (a test send), paced with the token's other sends; never throws. */
  sendOne(token: TokenRow, p: Prepared, to: Omit<Addressee, "id">): Promise<SendOutcome> {
    return sendOne(this.deps, token, p, to);
  }

  /** Sends the campaign's pending recipients (on the thread) until none is left, or it is paused or cancelled. */
  run(projectId: number, campaignId: number) {
    if (this.closed) return;
    const key = keyOf(projectId, campaignId);
    const existing = this.loops.get(key);
    if (existing && !existing.stopped) return;
    const loop: Loop = { projectId, campaignId, stopped: false, posted: false, done: Promise.resolve() };
    loop.done = (existing?.done ?? Promise.resolve())
      .then(() => this.hand(projectId, campaignId, loop))
      .catch((e) => this.ctx.log.error(`campaign ${campaignId} of project ${projectId} stopped: ${e instanceof Error ? e.message : e}`))
      .finally(() => {
        if (this.loops.get(key) === loop) this.loops.delete(key);
        if (![...this.loops.values()].some((l) => l.posted)) this.thread.busy(false);
      });
    this.loops.set(key, loop);
  }

  /** Pause or cancel: no new send starts; the ones in flight are recorded. Resolves once the loop has ended. */
  async halt(projectId: number, campaignId: number): Promise<void> {
    const loop = this.loops.get(keyOf(projectId, campaignId));
    if (!loop) return;
    this.stopLoop(loop);
    await loop.done;
  }

  private stopLoop(loop: Loop) {
    loop.stopped = true;
    if (loop.posted) this.thread.post({ kind: "halt", projectId: loop.projectId, campaignId: loop.campaignId });
  }

  isRunning(projectId: number, campaignId: number): boolean {
    const loop = this.loops.get(keyOf(projectId, campaignId));
    return !!loop && !loop.stopped;
  }

  /** Checks what the thread is handed (a bot writes its broadcast's campaign itself), then waits for the thread's loop to end. */
  private async hand(projectId: number, campaignId: number, loop: Loop) {
    const db = this.ctx.projectFiles.existing(projectId);
    const first = db ? campaignById(db, campaignId) : undefined;
    if (!db || !first || first.status !== "sending") return;
    // its token must be one of this project's, and its message one the API would take (else it ends cancelled)
    const token = this.ctx.tokens.access.find(first.tokenId);
    if (!token || token.projectId !== projectId) return;
    const message = messageSchema.safeParse(parseJson(first.message));
    if (!message.success) {
      updateCampaignIf(db, campaignId, ["sending"], { status: "cancelled", finishedAt: new Date().toISOString() });
      this.ctx.log.warn(`campaign ${campaignId} of project ${projectId} cancelled: its message is not one the messenger can take`);
      return;
    }
    const prepared = await this.prepare(projectId, message.data);
    if (loop.stopped || this.closed) return;
    const ended = new Promise<void>((resolve) => (loop.ended = resolve));
    loop.posted = true;
    this.thread.post({ kind: "run", projectId, campaignId, token: sendTokenOf(token), prepared });
    this.thread.busy(true);
    await ended;
  }

  private heard(m: FromThread) {
    if (m.kind === "ended") this.loops.get(keyOf(m.projectId, m.campaignId))?.ended?.();
    else if (m.kind === "event") this.emit(m.projectId, m.tokenId, m.campaignId, m.status, m.counts);
    else if (m.kind === "log") this.ctx.log[m.level](m.text);
    else if (m.kind === "recorded") for (const [chatId, messageId] of m.chats) this.ctx.events.emit("chat-message", { projectId: m.projectId, tokenId: m.tokenId, chatId, messageId });
    else {
      // the pace may have changed (PATCH sendsPerSecond), or the token been deleted
      const t = this.ctx.tokens.access.find(m.tokenId);
      this.thread.post({ kind: "token", tokenId: m.tokenId, token: t ? sendTokenOf(t) : null });
    }
  }

  /**
   * The thread died mid-window: what it had in flight may or may not have reached the messenger, so
   * it is failed "unknown" as after a crash of the server, and its campaigns go on on a new thread.
   */
  private died(why: string) {
    this.ctx.log.error(`The campaign sender's thread stopped: ${why}`);
    const hit = [...this.loops.values()].filter((l) => l.posted);
    for (const l of hit) l.ended?.();
    if (this.closed) return;
    if (++this.deaths > MAX_THREAD_DEATHS) {
      this.ctx.log.error("Campaigns being sent stay so until the server starts again (the sender's thread stopped too often)");
      return;
    }
    void Promise.all(hit.map((l) => l.done)).then(() => {
      for (const projectId of new Set(hit.map((l) => l.projectId))) {
        const db = this.ctx.projectFiles.existing(projectId);
        if (db) failInFlight(db);
      }
      for (const l of hit) this.run(l.projectId, l.campaignId);
    });
  }

  /** A project is being deleted: its campaigns stop and the thread closes its file. */
  async forgetProject(projectId: number) {
    const mine = [...this.loops.values()].filter((l) => l.projectId === projectId);
    for (const l of mine) this.stopLoop(l);
    await Promise.all(mine.map((l) => l.done));
    if (this.thread.started) this.thread.post({ kind: "forget", projectId });
  }

  emit(projectId: number, tokenId: number, campaignId: number, status: CampaignRow["status"], counts: Counts) {
    this.ctx.events.emit("campaign", { projectId, tokenId, campaignId, status, counts });
  }

  private readonly deletions = new Map<Key, Promise<boolean>>();

  /** Whether the campaign's sent messages are being deleted now. */
  deleting(projectId: number, campaignId: number): boolean {
    return this.deletions.has(keyOf(projectId, campaignId));
  }

  /**
   * Deletes the campaign's sent messages in their chats, paced; each deletion is recorded. One run
   * per campaign at a time; true once every sent message was handled (false: the server stopped).
   */
  deleteSent(projectId: number, token: TokenRow, campaignId: number): Promise<boolean> {
    const key = keyOf(projectId, campaignId);
    const running = this.deletions.get(key);
    if (running) return running;
    const job = this.deleteAll(projectId, token, campaignId).finally(() => this.deletions.delete(key));
    this.deletions.set(key, job);
    return job;
  }

  private async deleteAll(projectId: number, token: TokenRow, campaignId: number): Promise<boolean> {
    const db = this.ctx.projectFiles.existing(projectId);
    if (!db) return false;
    let after = 0;
    while (!this.closed) {
      const batch = sentNotDeleted(db, campaignId, after, BATCH);
      if (batch.length === 0) return true;
      for (let i = 0; i < batch.length; i++) {
        const r = batch[i]!;
        after = r.id;
        if (r.messageId === null) continue;
        await this.ctx.sendPace.slot(token.id, token.sendsPerSecond);
        // an album: every message of it in one deleteMessages
        const messageIds = [r.messageId, ...(r.albumIds ? (JSON.parse(r.albumIds) as number[]) : [])];
        let gone = true;
        try {
          if (messageIds.length > 1) await this.ctx.messenger.call(token.token, "deleteMessages", { chat_id: r.userId, message_ids: messageIds });
          else await this.ctx.messenger.call(token.token, "deleteMessage", { chat_id: r.userId, message_id: r.messageId });
        } catch (e) {
          if (e instanceof MessengerError && e.status === 429) {
            this.ctx.sendPace.pause(token.id, (e.retryAfter ?? 1) * 1000);
            i--;
            continue;
          }
          // already gone counts as deleted; too old to delete (or any other refusal) leaves it in
          // the chat and unmarked, so the report does not call it deleted and a later run tries again
          gone = messageGone(e);
        }
        if (!gone) continue;
        const records = recipientDeleted(db, { id: r.id, tokenId: token.id, chatId: r.userId, messageIds }, new Date().toISOString());
        // an open chat in the Studio shows the deletion, as it shows an operator's
        if (records.length > 0) this.ctx.events.emit("chat-message", { projectId, tokenId: token.id, chatId: r.userId, messageId: Math.max(...records) });
      }
    }
    return false;
  }

  /** Runs a scheduled campaign at its time (timers re-armed past setTimeout's longest wait). */
  schedule(projectId: number, c: CampaignRow) {
    this.unschedule(projectId, c.id);
    if (this.closed || !c.scheduledAt) return;
    const key = keyOf(projectId, c.id);
    const wait = Date.parse(c.scheduledAt) - Date.now();
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        if (wait > MAX_TIMER_MS) return this.schedule(projectId, c);
        void this.startScheduled(projectId, c).catch((e) => this.ctx.log.warn(`scheduled campaign ${c.id} of project ${projectId} did not start: ${e instanceof Error ? e.message : e}`));
      },
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    timer.unref?.();
    this.timers.set(key, timer);
  }

  unschedule(projectId: number, campaignId: number) {
    const key = keyOf(projectId, campaignId);
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  /**
   * Server start: in every project file, a recipient left `sending` by a crash becomes failed
   * "unknown", campaigns in `sending` go on and scheduled ones are armed.
   */
  async resumeAll(): Promise<{ resumed: number; unknown: number }> {
    let resumed = 0;
    let unknown = 0;
    for (const projectId of projectIds(this.ctx.db)) {
      const db = this.ctx.projectFiles.existing(projectId);
      if (!db) continue;
      unknown += failInFlight(db);
      for (const c of campaignsIn(db, ["sending", "scheduled"])) {
        if (c.status === "sending") {
          this.run(projectId, c.id);
          resumed++;
        } else this.schedule(projectId, c);
      }
    }
    if (resumed + unknown > 0) this.ctx.log.info(`Campaigns: ${resumed} resumed; ${unknown} send(s) in flight at the last stop marked failed "unknown"`);
    return { resumed, unknown };
  }

  /** Server stop: no new send starts; the ones in flight are recorded, then the thread ends. */
  async stop() {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    const loops = [...this.loops.values()];
    for (const l of loops) this.stopLoop(l);
    await Promise.all(loops.map((l) => l.done));
    this.thread.end();
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
