// Campaigns of a token (docs/campaigns.md): drafts, schedules, the audience snapshot at start, the
// sender's controls (pause, resume, cancel), test sends, the report and delete-sent.
import type { AppContext } from "../../context";
import type { ProjectDb } from "../../db/project-db";
import { badRequest, conflict, notFound } from "../../errors";
import type { TokenRow } from "../tokens/access";
import { GOTO_DATA_MAX_BYTES, GOTO_DATA_PREFIX } from "../dialogs/model";
import { CAPTION_MAX, scenarioHasNode } from "../dialogs/service";
import {
  albumProblem,
  campaignView,
  instantIn,
  type Audience,
  type CampaignMessage,
  type CampaignView,
  type CreateBody,
  type PatchBody,
} from "./model";
import {
  addresseesOf,
  audienceSize,
  campaignOf,
  campaignPage,
  setTimeZone,
  timeZoneOf,
  countsOf,
  deleteCampaign,
  insertCampaign,
  recipientPage,
  recipientRowsForCsv,
  recordTestSend,
  startCampaign,
  unknownTags,
  updateCampaignIf,
  type CampaignRow,
} from "./queries";
import { recipientView } from "./model";
import type { CampaignSender } from "./sender";
import { recordsOf } from "./send-one";
import { CSV_BOM, csvCell } from "../../lib/csv-cell";

/** How long delete-sent's answer waits for the deletions to end (docs/campaigns.md#the-sender). */
const DELETE_SENT_WAIT_MS = 10_000;

type Page<T> = { items: T[]; total: number; page: number; perPage: number };

export class CampaignsService {
  constructor(private readonly ctx: AppContext) {}

  private get sender(): CampaignSender {
    return this.ctx.campaigns;
  }

  private require(tokenId: number, actorId: number): { token: TokenRow; db: ProjectDb } {
    const { token } = this.ctx.tokens.access.require(tokenId, actorId, { hideForbidden: true });
    return { token, db: this.ctx.projectFiles.open(token.projectId) };
  }

  private requireCampaign(tokenId: number, actorId: number, id: number) {
    const { token, db } = this.require(tokenId, actorId);
    const c = campaignOf(db, tokenId, id);
    if (!c) throw notFound("Campaign not found");
    return { token, db, c };
  }

  private view(db: ProjectDb, c: CampaignRow): CampaignView {
    return campaignView(c, countsOf(db, c.id), timeZoneOf(db, c.id));
  }

  /** What a start or a save refuses: unknown media, goto nodes or tags; a caption over 1024. */
  private async check(token: TokenRow, db: ProjectDb, m: CampaignMessage, a: Audience) {
    if (m.mediaId !== undefined) {
      if (!(await this.ctx.media.bytesOf(token.projectId, m.mediaId))) throw badRequest(`message.mediaId: media file ${m.mediaId} is not in the project`);
      if (m.text.length > CAPTION_MAX) throw badRequest(`message.text is at most ${CAPTION_MAX} characters with a media file (a caption)`);
    }
    if (m.mediaIds) {
      const kinds: string[] = [];
      for (const id of m.mediaIds) {
        const media = await this.ctx.media.bytesOf(token.projectId, id);
        if (!media) throw badRequest(`message.mediaIds: media file ${id} is not in the project`);
        kinds.push(media.kind);
      }
      const problem = albumProblem(kinds);
      if (problem) throw badRequest(`message.mediaIds: ${problem}`);
      if (m.text.length > CAPTION_MAX) throw badRequest(`message.text is at most ${CAPTION_MAX} characters with an album (the first file's caption)`);
    }
    for (const row of m.buttons ?? [])
      for (const b of row) {
        if (!("goto" in b)) continue;
        if (new TextEncoder().encode(GOTO_DATA_PREFIX + b.goto).length > GOTO_DATA_MAX_BYTES) throw badRequest(`message.buttons: the node id "${b.goto}" is too long for a button`);
        if (!scenarioHasNode(this.ctx.db, token.projectId, b.goto)) throw badRequest(`message.buttons: node "${b.goto}" is not in the project's scenario`);
      }
    if (a.tags?.length) {
      const unknown = unknownTags(db, token.id, a.tags);
      if (unknown.length > 0) throw badRequest(`audience.tags: no user carries ${unknown.map((t) => JSON.stringify(t)).join(", ")}`);
    }
    if (a.registeredFrom && a.registeredTo && a.registeredFrom > a.registeredTo) throw badRequest("audience: registeredFrom is after registeredTo");
  }

  private future(at: string): string {
    if (Date.parse(at) <= Date.now()) throw badRequest("scheduledAt is in the past");
    return at;
  }

  async list(tokenId: number, actorId: number, page: number, perPage: number): Promise<Page<CampaignView>> {
    const { db } = this.require(tokenId, actorId);
    const { rows, total } = await campaignPage(db, tokenId, perPage, (page - 1) * perPage);
    return { items: rows.map((c) => this.view(db, c)), total, page, perPage };
  }

  async get(tokenId: number, actorId: number, id: number): Promise<CampaignView> {
    const { db, c } = this.requireCampaign(tokenId, actorId, id);
    return this.view(db, c);
  }

  async audienceSize(tokenId: number, actorId: number, a: Audience): Promise<{ size: number }> {
    const { db } = this.require(tokenId, actorId);
    return { size: await audienceSize(db, tokenId, a, Date.now()) };
  }

  async create(tokenId: number, actorId: number, body: CreateBody): Promise<CampaignView> {
    const { token, db } = this.require(tokenId, actorId);
    const audience = body.audience ?? {};
    await this.check(token, db, body.message, audience);
    const timeZone = body.timeZone ?? "UTC";
    const scheduledAt = body.scheduledAt === undefined ? null : this.future(instantIn(body.scheduledAt, timeZone));
    const c = await insertCampaign(db, {
      tokenId,
      name: body.name,
      status: scheduledAt ? "scheduled" : "draft",
      message: JSON.stringify(body.message),
      audience: JSON.stringify(audience),
      scheduledAt,
      createdBy: actorId,
      createdAt: new Date().toISOString(),
      source: "api",
    });
    if (timeZone !== "UTC") await setTimeZone(db, c.id, timeZone);
    if (scheduledAt) this.sender.schedule(token.projectId, c);
    return this.view(db, c);
  }

  async update(tokenId: number, actorId: number, id: number, body: PatchBody): Promise<CampaignView> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    if (c.status !== "draft" && c.status !== "scheduled") throw conflict(`A campaign can be changed only as a draft or scheduled; this one is ${c.status}`);
    const message = body.message ?? (JSON.parse(c.message) as CampaignMessage);
    const audience = body.audience ?? (JSON.parse(c.audience) as Audience);
    await this.check(token, db, message, audience);
    const timeZone = body.timeZone ?? (await timeZoneOf(db, id));
    const scheduledAt = body.scheduledAt === undefined ? c.scheduledAt : body.scheduledAt === null ? null : this.future(instantIn(body.scheduledAt, timeZone));
    const updated = await updateCampaignIf(db, id, ["draft", "scheduled"], {
      name: body.name ?? c.name,
      message: JSON.stringify(message),
      audience: JSON.stringify(audience),
      scheduledAt,
      status: scheduledAt ? "scheduled" : "draft",
    });
    if (!updated) throw conflict("The campaign started meanwhile; it can no longer be changed");
    if (body.timeZone !== undefined) await setTimeZone(db, id, body.timeZone);
    if (updated.scheduledAt) this.sender.schedule(token.projectId, updated);
    else this.sender.unschedule(token.projectId, id);
    return this.view(db, updated);
  }

  async start(tokenId: number, actorId: number, id: number): Promise<CampaignView> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    if (c.status !== "draft" && c.status !== "scheduled") throw conflict(`Only a draft or scheduled campaign starts; this one is ${c.status}`);
    const started = await this.begin(token, db, c);
    if (started === "empty") throw badRequest("The audience is empty: nobody to send to (blocked users are always left out)");
    if (!started) throw conflict("The campaign was started already");
    return this.view(db, started);
  }

  /** The snapshot and the status change in one step (queries.startCampaign); then the sender runs. */
  private async begin(token: TokenRow, db: ProjectDb, c: CampaignRow): Promise<CampaignRow | "empty" | undefined> {
    const message = JSON.parse(c.message) as CampaignMessage;
    const audience = JSON.parse(c.audience) as Audience;
    await this.check(token, db, message, audience);
    const now = Date.now();
    if ((await audienceSize(db, token.id, audience, now)) === 0) return "empty";
    const started = await startCampaign(db, c, audience, now);
    if (!started) return undefined;
    this.sender.unschedule(token.projectId, c.id);
    this.sender.run(token.projectId, c.id);
    return started;
  }

  /** A schedule's time came: start as a request would; a campaign that cannot start ends cancelled. */
  async startScheduled(projectId: number, c: CampaignRow): Promise<void> {
    const token = this.ctx.tokens.access.find(c.tokenId);
    const db = this.ctx.projectFiles.existing(projectId);
    if (!token || !db) return;
    const now = campaignOf(db, c.tokenId, c.id);
    if (!now || now.status !== "scheduled") return;
    let started: Awaited<ReturnType<CampaignsService["begin"]>>;
    try {
      started = await this.begin(token, db, now);
    } catch (e) {
      started = "empty";
      this.ctx.log.warn(`scheduled campaign ${c.id}: ${e instanceof Error ? e.message : e}`);
    }
    if (started === "empty") {
      const ended = updateCampaignIf(db, c.id, ["scheduled"], { status: "cancelled", finishedAt: new Date().toISOString(), audienceSize: 0 });
      if (ended) this.sender.emit(projectId, c.tokenId, c.id, "cancelled", countsOf(db, c.id));
    }
  }

  async pause(tokenId: number, actorId: number, id: number): Promise<CampaignView> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    const paused = await updateCampaignIf(db, id, ["sending"], { status: "paused" });
    if (!paused) throw conflict(`Only a campaign being sent can be paused; this one is ${c.status}`);
    await this.sender.halt(token.projectId, id);
    return this.told(token, db, id);
  }

  async resume(tokenId: number, actorId: number, id: number): Promise<CampaignView> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    const resumed = await updateCampaignIf(db, id, ["paused"], { status: "sending" });
    if (!resumed) throw conflict(`Only a paused campaign can be resumed; this one is ${c.status}`);
    this.sender.run(token.projectId, id);
    return this.view(db, resumed);
  }

  async cancel(tokenId: number, actorId: number, id: number): Promise<CampaignView> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    const cancelled = await updateCampaignIf(db, id, ["draft", "scheduled", "sending", "paused"], { status: "cancelled", finishedAt: new Date().toISOString() });
    if (!cancelled) throw conflict(`The campaign is ${c.status} already`);
    this.sender.unschedule(token.projectId, id);
    await this.sender.halt(token.projectId, id);
    return this.told(token, db, id);
  }

  private told(token: TokenRow, db: ProjectDb, id: number): CampaignView {
    const v = this.view(db, campaignOf(db, token.id, id)!);
    this.sender.emit(token.projectId, token.id, id, v.status, v.counts);
    return v;
  }

  async remove(tokenId: number, actorId: number, id: number): Promise<{ success: true }> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    if (c.status === "sending") throw conflict("A campaign being sent cannot be deleted: pause or cancel it first");
    this.sender.unschedule(token.projectId, id);
    await this.sender.halt(token.projectId, id);
    await deleteCampaign(db, id);
    return { success: true };
  }

  async deleteSent(tokenId: number, actorId: number, id: number): Promise<CampaignView> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    if (c.status === "sending") throw conflict("Pause or cancel the campaign before deleting its messages");
    if (c.status === "draft" || c.status === "scheduled") throw conflict("The campaign has sent nothing yet");
    if (this.sender.deleting(token.projectId, id)) throw conflict("The campaign's messages are being deleted already");
    const job = this.sender.deleteSent(token.projectId, token, id).then((complete) => {
      if (!complete) return;
      updateCampaignIf(db, id, ["sending", "paused", "done", "cancelled"], { sentDeletedAt: new Date().toISOString() });
      const v = this.view(db, campaignOf(db, tokenId, id)!);
      this.sender.emit(token.projectId, tokenId, id, v.status, v.counts);
    });
    job.catch((e) => this.ctx.log.warn(`campaign ${id}: deleting its messages stopped: ${e instanceof Error ? e.message : e}`));
    // A small campaign's answer says it is done (sentDeletedAt); a big one goes on after the
    // answer (deletions are paced like sends) and tells the Studio with a campaign event.
    await Promise.race([job.catch(() => undefined), Bun.sleep(DELETE_SENT_WAIT_MS)]);
    return this.view(db, campaignOf(db, tokenId, id)!);
  }

  async recipients(tokenId: number, actorId: number, id: number, status: "pending" | "sent" | "failed" | undefined, page: number, perPage: number) {
    const { db } = this.requireCampaign(tokenId, actorId, id);
    const { rows, total } = await recipientPage(db, tokenId, id, status, perPage, (page - 1) * perPage);
    return { items: rows.map(recipientView), total, page, perPage };
  }

  /** The report as CSV: a BOM (for Excel), then one row per recipient in send order (cells a spreadsheet would run are defused). */
  async recipientsCsv(tokenId: number, actorId: number, id: number, status?: "pending" | "sent" | "failed"): Promise<string> {
    const { db } = this.requireCampaign(tokenId, actorId, id);
    const lines = [["userId", "firstName", "username", "status", "error", "sentAt", "deletedAt"].join(",")];
    for (let after = 0; ; ) {
      const rows = await recipientRowsForCsv(db, tokenId, id, status, after, 5000);
      if (rows.length === 0) break;
      for (const r of rows) lines.push([r.userId, r.firstName, r.username, r.status, r.error, r.sentAt, r.deletedAt].map(csvCell).join(","));
      after = rows[rows.length - 1]!.id;
    }
    return CSV_BOM + lines.join("\n") + "\n";
  }

  /** A test to up to ten users: paced like any send, never a recipient, never counted. */
  async test(tokenId: number, actorId: number, id: number, userIds: string[]): Promise<{ sent: number; failed: number }> {
    const { token, db, c } = this.requireCampaign(tokenId, actorId, id);
    const message = JSON.parse(c.message) as CampaignMessage;
    await this.check(token, db, message, {});
    const prepared = await this.sender.prepare(token.projectId, message);
    const known = await addresseesOf(db, tokenId, userIds);
    let sent = 0;
    for (const userId of new Set(userIds)) {
      const who = known.get(userId) ?? { firstName: null, lastName: null, username: null, variables: null, chatVariables: null };
      const out = await this.sender.sendOne(token, prepared, { userId, ...who });
      if (!out.ok) continue;
      sent++;
      // the chat shows what the bot sent in it, a test too (docs/campaigns.md)
      const at = new Date().toISOString();
      const messageIds = out.messageIds ?? [out.messageId];
      const newest = await recordTestSend(db, token.id, at, messageIds.length, recordsOf(token, userId, prepared, messageIds, out.fileIds ?? [], out.text, at, c.nodeId));
      if (newest !== undefined) this.ctx.events.emit("chat-message", { projectId: token.projectId, tokenId: token.id, chatId: userId, messageId: newest });
    }
    return { sent, failed: new Set(userIds).size - sent };
  }
}
