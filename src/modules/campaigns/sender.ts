// The campaign sender (docs/campaigns.md#the-sender): one loop per campaign being sent, in the
// server, so a campaign goes out whether its bot runs or not. Per window of sends in flight: `sending`
// is committed, the messenger is called for each, then `sent` with the message id or `failed` with the
// reason in one commit. A start after a crash turns every `sending` row into failed "unknown" (never
// sent twice) and resumes the rest.
import type { AppContext } from "../../context";
import { MessengerError } from "../../errors";
import type { FilePart } from "../../messenger/client";
import { renderFor } from "../../lib/shared-render";
import { messageFileId } from "../../lib/shared-runtime";
import type { ProjectDb } from "../../db/project-db";
import type { TokenRow } from "../tokens/access";
import { markBlocked, type NewMessage } from "../dialogs/queries";
import { BLOCKED, CAPTION_MAX, MEDIA_METHOD, PARSE_MODE } from "../dialogs/service";
import { GOTO_DATA_PREFIX } from "../dialogs/model";
import { messageSchema, type CampaignMessage, type Counts } from "./model";
import {
  campaignById,
  campaignsIn,
  claimRecipients,
  countsOf,
  failInFlight,
  nextPending,
  projectIds,
  recipientDeleted,
  sentNotDeleted,
  settleRecipients,
  updateCampaignIf,
  type Addressee,
  type CampaignRow,
  type Settled,
} from "./queries";

/** How often a campaign being sent tells the Studio its counts (the contract: at least every 2 s). */
const PROGRESS_MS = 1000;
const BATCH = 200;
/** At most this many sends of one campaign in flight at once (a raised pace): one window. */
const MAX_IN_FLIGHT = 16;
/** setTimeout's longest wait; a schedule further away is armed again when it ends. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Sends in flight at once: one at the default pace (recipients in order), more when the pace is
 * raised beyond what one round trip at a time allows.
 */
const windowFor = (sendsPerSecond: number) => Math.min(MAX_IN_FLIGHT, Math.max(1, Math.ceil(sendsPerSecond / 50)));

type Key = `${number}:${number}`;
const keyOf = (projectId: number, campaignId: number): Key => `${projectId}:${campaignId}`;

interface Loop {
  stopped: boolean;
  done: Promise<void>;
}

/** What one send needs besides the recipient: the message as the messenger takes it. */
export interface Prepared {
  text: string;
  format: "none" | "html" | "markdown";
  keyboard?: { text: string; url?: string; callback_data?: string }[][];
  media?: { mediaId: number; method: string; field: string; kind: string; fileName: string; mimeType: string; bytes: Uint8Array; fileId?: string };
  /** an album (sendMediaGroup): the items in order, the caption on the first (docs/campaigns.md#albums) */
  album?: { mediaId: number; type: string; fileName: string; mimeType: string; bytes: Uint8Array; fileId?: string }[];
}

/**
 * A sent message carries the text the recipient got (their variables rendered in), for its record;
 * an album's `messageIds` are all of its messages, the first being `messageId`.
 */
export type SendOutcome = { ok: true; messageId: number; messageIds?: number[]; fileIds?: (string | null)[]; text: string } | { ok: false; retryAfter?: number; error: string };


export class CampaignSender {
  private readonly loops = new Map<Key, Loop>();
  private readonly timers = new Map<Key, ReturnType<typeof setTimeout>>();
  private closed = false;
  /** Starts a scheduled campaign (the service's start, so a schedule and a request take one path). */
  startScheduled: (projectId: number, campaign: CampaignRow) => Promise<void> = async () => {};

  constructor(private readonly ctx: AppContext) {}

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

  /** One message to one user, paced with the token's other sends; never throws. */
  async sendOne(token: TokenRow, p: Prepared, to: Omit<Addressee, "id">): Promise<SendOutcome> {
    const vars = { ...parseVars(to.variables), ...parseVars(to.chatVariables) };
    const text = renderFor(p.text, { id: Number(to.userId), firstName: to.firstName, lastName: to.lastName, username: to.username }, vars, p.format);
    const params: Record<string, unknown> = {
      chat_id: to.userId,
      parse_mode: PARSE_MODE[p.format],
      protect_content: token.protectContent === 1 ? true : undefined,
      reply_markup: p.keyboard ? { inline_keyboard: p.keyboard } : undefined,
    };
    await this.ctx.sendPace.slot(token.id, token.sendsPerSecond);
    try {
      if (p.album && p.album.length > 0) return await this.sendAlbum(token, p.album, params, text);
      if (p.media) {
        const m = p.media;
        const file = m.fileId ? undefined : { field: m.field, name: m.fileName, type: m.mimeType, bytes: m.bytes };
        const r = await this.ctx.messenger.call<Record<string, unknown> & { message_id: number }>(token.token, m.method, { ...params, caption: text, [m.field]: m.fileId }, file);
        const fileId = messageFileId(r);
        m.fileId ??= fileId ?? undefined;
        return { ok: true, messageId: r.message_id, fileIds: [fileId], text };
      }
      const r = await this.ctx.messenger.call<{ message_id: number }>(token.token, "sendMessage", { ...params, text });
      return { ok: true, messageId: r.message_id, text };
    } catch (e) {
      if (!(e instanceof MessengerError)) return { ok: false, error: "unknown" };
      if (e.status === 429) {
        this.ctx.sendPace.pause(token.id, (e.retryAfter ?? 1) * 1000);
        return { ok: false, retryAfter: e.retryAfter ?? 1, error: "rate limited" };
      }
      if (e.status === 403 && BLOCKED.test(e.message)) {
        const db = this.ctx.projectFiles.existing(token.projectId);
        if (db && Number(to.userId) > 0) markBlocked(db, token.id, to.userId, new Date().toISOString());
        return { ok: false, error: /deactivated/i.test(e.message) ? "deactivated" : "blocked" };
      }
      // unreachable: the messenger may have taken it, so it is not retried (at most once)
      return { ok: false, error: e.kind === "unreachable" ? "unknown" : e.message.slice(0, 300) };
    }
  }

  /**
   * An album in one sendMediaGroup: files not uploaded yet go as attach:// parts, the caption rides on
   * the first item (a media group takes no keyboard: the model refuses buttons with one).
   */
  private async sendAlbum(token: TokenRow, album: NonNullable<Prepared["album"]>, params: Record<string, unknown>, text: string): Promise<SendOutcome> {
    const files: FilePart[] = [];
    const media = album.map((it, i) => {
      if (!it.fileId) files.push({ field: `file${i}`, name: it.fileName, type: it.mimeType, bytes: it.bytes });
      return { type: it.type, media: it.fileId ?? `attach://file${i}`, ...(i === 0 && { caption: text, parse_mode: params.parse_mode }) };
    });
    const sent = await this.ctx.messenger.call<(Record<string, unknown> & { message_id: number })[]>(
      token.token,
      "sendMediaGroup",
      { chat_id: params.chat_id, protect_content: params.protect_content, media },
      files,
    );
    const fileIds = sent.map((m) => messageFileId(m));
    album.forEach((it, i) => (it.fileId ??= fileIds[i] ?? undefined));
    const ids = sent.map((m) => m.message_id);
    return { ok: true, messageId: ids[0]!, messageIds: ids, fileIds, text };
  }

  /** Sends the campaign's pending recipients until none is left, or it is paused or cancelled. */
  run(projectId: number, campaignId: number) {
    if (this.closed) return;
    const key = keyOf(projectId, campaignId);
    const existing = this.loops.get(key);
    if (existing && !existing.stopped) return;
    const loop: Loop = { stopped: false, done: Promise.resolve() };
    loop.done = (existing?.done ?? Promise.resolve())
      .then(() => this.send(projectId, campaignId, loop))
      .catch((e) => this.ctx.log.error(`campaign ${campaignId} of project ${projectId} stopped: ${e instanceof Error ? e.message : e}`))
      .finally(() => {
        if (this.loops.get(key) === loop) this.loops.delete(key);
      });
    this.loops.set(key, loop);
  }

  /** Pause or cancel: no new send starts; the one in flight is recorded. Resolves once the loop has ended. */
  async halt(projectId: number, campaignId: number): Promise<void> {
    const loop = this.loops.get(keyOf(projectId, campaignId));
    if (!loop) return;
    loop.stopped = true;
    await loop.done;
  }

  isRunning(projectId: number, campaignId: number): boolean {
    const loop = this.loops.get(keyOf(projectId, campaignId));
    return !!loop && !loop.stopped;
  }

  private async send(projectId: number, campaignId: number, loop: Loop) {
    const db = this.ctx.projectFiles.existing(projectId);
    const first = db ? campaignById(db, campaignId) : undefined;
    if (!db || !first || first.status !== "sending") return;
    // A bot writes its broadcast's campaign into the project file itself: its token must be one of
    // this project's, and its message one the API would take (else it ends cancelled).
    let token = this.ctx.tokens.access.find(first.tokenId);
    if (!token || token.projectId !== projectId) return;
    const message = messageSchema.safeParse(parseJson(first.message));
    if (!message.success) {
      updateCampaignIf(db, campaignId, ["sending"], { status: "cancelled", finishedAt: new Date().toISOString() });
      this.ctx.log.warn(`campaign ${campaignId} of project ${projectId} cancelled: its message is not one the messenger can take`);
      return;
    }
    const prepared = await this.prepare(projectId, message.data);
    const tell = (status: CampaignRow["status"]) => this.emit(projectId, first.tokenId, campaignId, status, countsOf(db, campaignId));
    tell("sending");
    // once a second while the loop runs, also while it waits out a retry_after
    const beat = setInterval(() => tell("sending"), PROGRESS_MS);
    try {
      await this.sendAll(db, first, loop, prepared, token, tell);
    } finally {
      clearInterval(beat);
    }
    const now = campaignById(db, campaignId);
    if (now && now.status !== "done") tell(now.status);
  }

  private async sendAll(db: ProjectDb, first: CampaignRow, loop: Loop, prepared: Prepared, token: TokenRow, tell: (status: CampaignRow["status"]) => void) {
    const campaignId = first.id;
    /** not taken (429) in the last window: pending again, and first in the next one */
    let retry: Addressee[] = [];
    while (!loop.stopped && !this.closed) {
      const batch = nextPending(db, first.tokenId, campaignId, BATCH);
      if (batch.length === 0) {
        const done = updateCampaignIf(db, campaignId, ["sending"], { status: "done", finishedAt: new Date().toISOString() });
        if (done) tell("done");
        return;
      }
      let next = 0;
      while ((next < batch.length || retry.length > 0) && !loop.stopped && !this.closed) {
        // the pace may have changed (PATCH sendsPerSecond): read once a window
        // (a deleted token sends nothing more)
        const fresh = this.ctx.tokens.access.find(first.tokenId);
        if (!fresh) return;
        const t = (token = fresh);
        const windowOf = windowFor(t.sendsPerSecond);
        const seen = new Set(retry.map((r) => r.id));
        const take = [...retry, ...batch.slice(next, next + Math.max(0, windowOf - retry.length)).filter((r) => !seen.has(r.id))];
        next += take.length - retry.length;
        retry = [];
        const settled = await this.sendWindow(db, first, t, prepared, take);
        retry = take.filter((r) => settled.back.has(r.id));
        // API requests waiting behind the window's commits go first (docs/campaigns.md#the-sender)
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * One window: its recipients marked `sending` in one commit, sent at once (each in the token's
   * pace), their outcomes and chat records in one commit. A crash can leave only this window
   * `sending`: the sends in flight (docs/campaigns.md#exactly-once).
   */
  private async sendWindow(db: ProjectDb, first: CampaignRow, t: TokenRow, prepared: Prepared, take: Addressee[]): Promise<{ back: Set<number> }> {
    const claimed = claimRecipients(db, take.map((r) => r.id));
    const outcomes = await Promise.all(
      take
        .filter((r) => claimed.has(r.id))
        .map(async (r): Promise<Settled> => {
          const out = await this.sendOne(t, prepared, r);
          if (out.ok) {
            const at = new Date().toISOString();
            const records = this.records(t, r.userId, prepared, out.messageIds ?? [out.messageId], out.fileIds ?? [], out.text, at, first.nodeId);
            return { id: r.id, sent: { messageId: out.messageId, albumIds: out.messageIds?.slice(1), at, records } };
          }
          return out.retryAfter !== undefined ? { id: r.id, back: true } : { id: r.id, failed: out.error };
        }),
    );
    settleRecipients(db, outcomes);
    return { back: new Set(outcomes.filter((o) => "back" in o).map((o) => o.id)) };
  }

  /**
   * The campaign's message as the chat's record holds it (docs/dialogs.md): one record per message
   * (an album's items each, the caption on the first); none when the token keeps no messages.
   */
  private records(token: TokenRow, chatId: string, p: Prepared, messageIds: number[], fileIds: (string | null)[], text: string, at: string, nodeId: string | null) {
    if (token.messageRetentionDays <= 0) return [];
    const format = p.format === "none" ? null : p.format;
    return messageIds.map((messageId, i) => {
      const message: NewMessage = {
        direction: "out",
        sentBy: "campaign",
        operatorId: null,
        kind: p.album?.[i]?.type ?? p.media?.field ?? "text",
        text: i === 0 ? text : "",
        buttons: p.keyboard ? JSON.stringify(p.keyboard.map((r) => r.map((b) => (b.url ? { text: b.text, url: b.url } : { text: b.text, data: b.callback_data })))) : null,
        messengerMessageId: messageId,
        nodeId,
        createdAt: at,
      };
      // the file as Dialogs shows it (fetched through the token by its file id), and the project's media file
      const mediaId = p.album?.[i]?.mediaId ?? p.media?.mediaId ?? null;
      return { tokenId: token.id, chatId, message, format: i === 0 ? format : null, fileId: fileIds[i] ?? null, mediaId };
    });
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
        const album = r.albumIds ? (JSON.parse(r.albumIds) as number[]) : [];
        try {
          if (album.length > 0) await this.ctx.messenger.call(token.token, "deleteMessages", { chat_id: r.userId, message_ids: [r.messageId, ...album] });
          else await this.ctx.messenger.call(token.token, "deleteMessage", { chat_id: r.userId, message_id: r.messageId });
        } catch (e) {
          if (e instanceof MessengerError && e.status === 429) {
            this.ctx.sendPace.pause(token.id, (e.retryAfter ?? 1) * 1000);
            i--;
            continue;
          }
          // too old to delete, or already gone: the messenger allows no more
        }
        recipientDeleted(db, r.id, new Date().toISOString());
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

  /** Server stop: no new send starts; the ones in flight are recorded. */
  async stop() {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    const loops = [...this.loops.values()];
    for (const l of loops) l.stopped = true;
    await Promise.all(loops.map((l) => l.done));
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function parseVars(raw: string | null): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
