// The messages between the server's event loop (sender.ts) and the campaign sender's worker thread
// (send-worker.ts). The server starts, halts and forgets; the thread sends and reports
// (docs/campaigns.md#the-sender).
import type { Counts } from "./model";
import type { CampaignRow } from "./queries";
import type { Prepared, SendToken } from "./send-one";

/** One campaign of one project file. */
export type Key = `${number}:${number}`;
export const keyOf = (projectId: number, campaignId: number): Key => `${projectId}:${campaignId}`;

export type ToThread =
  /** first message: where the project files are, the messenger, and the shared pace's memory */
  | { kind: "init"; dataDir: string; messengerApiRoot: string; pace: SharedArrayBuffer }
  | { kind: "run"; projectId: number; campaignId: number; token: SendToken; prepared: Prepared }
  /** no new window starts; the one in flight is recorded, then `ended` */
  | { kind: "halt"; projectId: number; campaignId: number }
  /** the answer to `token?`: the token as it is now (null: deleted) */
  | { kind: "token"; tokenId: number; token: SendToken | null }
  /** the project is being deleted: close its file (its loops were halted first) */
  | { kind: "forget"; projectId: number };

export type FromThread =
  | { kind: "ended"; projectId: number; campaignId: number }
  | { kind: "event"; projectId: number; tokenId: number; campaignId: number; status: CampaignRow["status"]; counts: Counts }
  /** a window's sends recorded in these chats (chat id, newest record id) */
  | { kind: "recorded"; projectId: number; tokenId: number; chats: [string, number][] }
  /** the token's pace or existence may have changed: the server reads it again */
  | { kind: "token?"; tokenId: number }
  | { kind: "log"; level: "info" | "warn" | "error"; text: string };
