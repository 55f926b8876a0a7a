// Live events: one WebSocket to /api/events per tab, shared by every component that listens.
// The server sends { event: "projects-changed", kind, projectId } (docs/api.md#live-events) and, for
// a bot's Dialogs, { event: "chat-message", projectId, tokenId, chatId, messageId } (docs/dialogs.md),
// and a campaign's progress, { event: "campaign", projectId, tokenId, campaignId, status, counts }
// (docs/campaigns.md).
// A dropped socket reconnects with a growing delay, so a restarting server is picked up again.
import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";

export interface ProjectsChanged {
  event: "projects-changed";
  kind: "created" | "deleted" | "reordered" | "updated" | string;
  projectId: number;
}

export interface ChatMessageEvent {
  event: "chat-message";
  projectId: number;
  tokenId: number;
  chatId: string;
  messageId: number | null;
}

export interface CampaignEvent {
  event: "campaign";
  projectId: number;
  tokenId: number;
  campaignId: number;
  status: "draft" | "scheduled" | "sending" | "paused" | "done" | "cancelled";
  counts: { pending: number; sent: number; failed: number; blocked: number };
}

export type LiveEvent = ProjectsChanged | ChatMessageEvent | CampaignEvent;
type Listener = (e: LiveEvent) => void;

const listeners = new Set<Listener>();
let socket: WebSocket | null = null;
let retryDelay = 1000;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

function eventsUrl(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/api/events`;
}

function parse(data: unknown): LiveEvent | null {
  if (typeof data !== "string") return null;
  try {
    const m = JSON.parse(data);
    if (!m || typeof m.projectId !== "number") return null;
    if (m.event === "projects-changed") return m as ProjectsChanged;
    if (m.event === "chat-message" && typeof m.tokenId === "number") return { ...m, chatId: String(m.chatId) } as ChatMessageEvent;
    if (m.event === "campaign" && typeof m.tokenId === "number" && typeof m.campaignId === "number" && m.counts) return m as CampaignEvent;
    return null;
  } catch {
    return null;
  }
}

function connect() {
  if (socket || listeners.size === 0) return;
  const ws = new WebSocket(eventsUrl());
  socket = ws;
  ws.onopen = () => {
    retryDelay = 1000;
  };
  ws.onmessage = (m) => {
    const e = parse(m.data);
    if (e) for (const l of [...listeners]) l(e);
  };
  ws.onclose = () => {
    if (socket === ws) socket = null;
    if (listeners.size === 0) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30_000);
  };
}

function disconnectIfIdle() {
  if (listeners.size > 0) return;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  const ws = socket;
  socket = null;
  ws?.close();
}

/** Subscribe outside React (returns the unsubscribe function). */
export function subscribeEvents(listener: Listener): () => void {
  listeners.add(listener);
  connect();
  return () => {
    listeners.delete(listener);
    // Let a remount in the same tick (StrictMode, route change) keep the socket.
    setTimeout(disconnectIfIdle, 0);
  };
}

/** Calls `onEvent` for every live event while the component is mounted. */
export function useProjectEvents(onEvent: Listener) {
  const ref = useRef(onEvent);
  ref.current = onEvent;
  useEffect(() => subscribeEvents((e) => ref.current(e)), []);
}

/** Refreshes the cached project list (and the changed project) on every live event. */
export function useLiveProjects() {
  const qc = useQueryClient();
  useProjectEvents((e) => {
    if (e.event !== "projects-changed") return;
    void qc.invalidateQueries({ queryKey: ["projects", "list"] });
    if (e.kind === "updated") void qc.invalidateQueries({ queryKey: ["projects", e.projectId] });
  });
}
