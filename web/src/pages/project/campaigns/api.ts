// The Campaigns endpoints of a token (docs/campaigns.md): shapes and calls. A campaign is a message
// sent to an audience of the token's users, stored and resumable on the server.
import { del, get, patch, post } from "../../../api/client";
import type { Answer, Body } from "../../../api/types";

export const RECIPIENT_STATUSES = ["pending", "sent", "failed"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export const AUDIENCE_FILTERS = ["all", "active", "inactive"] as const;
/** Telegram's limits: a text message, and the caption under a media file. */
export const TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;
export const TEST_MAX = 10;
/** Telegram's media group: 2..10 files. */
export const ALBUM_MAX = 10;

export type Campaign = Answer<"/api/bot/tokens/{tokenId}/campaigns/{id}">;
export type CampaignStatus = Campaign["status"];
export type Counts = Campaign["counts"];
export type CampaignMessage = Campaign["message"];
export type Paged<T> = { items: T[]; total: number; page: number; perPage: number };
export type CampaignPage = Answer<"/api/bot/tokens/{tokenId}/campaigns">;
export type RecipientPage = Answer<"/api/bot/tokens/{tokenId}/campaigns/{id}/recipients">;
export type Recipient = RecipientPage["items"][number];
export type Audience = Campaign["audience"];
/** What the wizard writes (create, and PATCH of a draft): the document types instants loosely. */
export type CampaignInput = Pick<Body<"/api/bot/tokens/{tokenId}/campaigns", "post">, "name" | "message" | "timeZone"> & { audience: Audience; scheduledAt?: string | null };

export const FAIL_REASONS = ["blocked", "deactivated", "other", "unknown"] as const;
export type FailReason = (typeof FAIL_REASONS)[number];

export const isLive = (s: CampaignStatus) => s === "sending" || s === "paused";
export const isEditable = (s: CampaignStatus) => s === "draft" || s === "scheduled";

const base = (tokenId: number, id?: number) => `/api/bot/tokens/${tokenId}/campaigns${id === undefined ? "" : `/${id}`}`;

/** The report's CSV (the server's recipients/export, same origin: the session cookie goes with a plain link). */
export const recipientsCsvUrl = (tokenId: number, id: number, status?: RecipientStatus) =>
  `${base(tokenId, id)}/recipients/export${status ? `?status=${status}` : ""}`;

export const campaignsApi = {
  list: (tokenId: number, page: number, perPage: number) => get<CampaignPage>(base(tokenId), { query: { page, perPage } }),
  one: (tokenId: number, id: number) => get<Campaign>(base(tokenId, id)),
  create: (tokenId: number, body: CampaignInput) => post<Campaign>(base(tokenId), body),
  update: (tokenId: number, id: number, body: Partial<CampaignInput>) => patch<Campaign>(base(tokenId, id), body),
  remove: (tokenId: number, id: number) => del<{ success: true }>(base(tokenId, id)),
  test: (tokenId: number, id: number, userIds: string[]) => post<{ sent: number; failed: number }>(`${base(tokenId, id)}/test`, { userIds }),
  act: (tokenId: number, id: number, action: "start" | "pause" | "resume" | "cancel" | "delete-sent") => post<Campaign>(`${base(tokenId, id)}/${action}`),
  recipients: (tokenId: number, id: number, q: { status?: RecipientStatus; page: number; perPage: number }) => get<RecipientPage>(`${base(tokenId, id)}/recipients`, { query: q }),
  audienceSize: (tokenId: number, audience: Audience) => post<{ size: number }>(`${base(tokenId)}/audience-size`, audience),
};
