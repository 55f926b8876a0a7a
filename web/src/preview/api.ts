// The preview API (docs/preview.md) as the chat uses it: calls, and the shapes the server's OpenAPI
// document gives them (generated, see web/src/api/types.ts).
import { del, get, post, put } from "../api/client";
import type { Answer, Body } from "../api/types";

export type PreviewView = Answer<"/api/preview/{sid}">;
export type PreviewTranscript = Answer<"/api/preview/{sid}/transcript">;
export type PreviewEntry = PreviewTranscript["entries"][number];
export type InlineButton = NonNullable<NonNullable<PreviewEntry["replyMarkup"]>["inline_keyboard"]>[number][number];
export type ReplyButton = Exclude<NonNullable<PreviewTranscript["replyKeyboard"]>["rows"][number][number], string>;

const KEEP = 400;

/** The chat so far with the entries that changed since: replaced by seq, new ones appended in order. */
export function mergeTranscript(prev: PreviewTranscript, changes: PreviewTranscript): PreviewTranscript {
  const bySeq = new Map(prev.entries.map((e) => [e.seq, e] as const));
  for (const e of changes.entries) bySeq.set(e.seq, e);
  const entries = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-KEEP);
  return { ...changes, entries };
}

export type PreviewAction = Body<"/api/preview/{sid}/actions", "post">;
export type PreviewHookAnswer = Answer<"/api/preview/{sid}/hooks/{nodeId}", "post">;

const base = (id: string) => `/api/preview/${encodeURIComponent(id)}`;

export const previewApi = {
  create: (projectId: number, document?: unknown) => post<PreviewView>(`/api/projects/${projectId}/preview`, document === undefined ? {} : { document }),
  /** a template's scenario, without a project */
  createForTemplate: (templateId: number) => post<PreviewView>(`/api/templates/${templateId}/preview`, {}),
  view: (id: string) => get<PreviewView>(base(id)),
  /** `changes`: only entries added or changed after `after` (merge them with mergeTranscript) */
  transcript: (id: string, after: number, waitMs: number, signal?: AbortSignal, changes = false) =>
    get<PreviewTranscript>(`${base(id)}/transcript`, { query: { after, wait: waitMs, changes: changes ? 1 : undefined }, signal }),
  act: (id: string, action: PreviewAction) => post<{ version: number }>(`${base(id)}/actions`, action),
  setActor: (id: string, actor: { user: string; chat: string }) => put<PreviewView>(`${base(id)}/actor`, actor),
  setDocument: (id: string, document: unknown) => put<PreviewView>(`${base(id)}/document`, { document }),
  variables: (id: string) => get<{ chatId: number; variables: Record<string, unknown> }>(`${base(id)}/variables`),
  setVariables: (id: string, variables: Record<string, unknown>) => put<{ chatId: number; variables: Record<string, unknown> }>(`${base(id)}/variables`, { variables }),
  /** fires a webhook_trigger of the running document in the current chat (docs/hooks.md "In the preview") */
  fireHook: (id: string, nodeId: string, body: Record<string, unknown>) => post<PreviewHookAnswer>(`${base(id)}/hooks/${encodeURIComponent(nodeId)}`, body),
  stop: (id: string) => del<{ success: boolean }>(base(id)),
  /** Stops a preview even while the page unloads (keepalive outlives the document). */
  stopOnLeave: (id: string) => void fetch(base(id), { method: "DELETE", credentials: "same-origin", keepalive: true }).catch(() => undefined),
  fileUrl: (id: string, fileId: string) => `${base(id)}/files/${encodeURIComponent(fileId)}`,
};

/** A file picked by the user as base64 (the API takes JSON). */
export async function fileToBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
