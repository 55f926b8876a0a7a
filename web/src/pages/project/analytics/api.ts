// The analytics answers (docs/analytics.md; the routes of /api/bot/tokens/{id}/analytics) and the
// queries that fetch them for the tab and the editor's funnel.
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../api/client";
import type { Bucket } from "./range";

export interface SeriesPoint {
  at: string;
  newUsers: number;
  activeUsers: number;
  messagesIn: number;
  messagesOut: number;
  blocked: number;
}

export interface Analytics {
  series: SeriesPoint[];
  totals: { users: number; activeUsers: number; newUsers: number; messagesIn: number; messagesOut: number; blocked: number };
  sources: { source: string; users: number }[];
  languages: { language: string; users: number }[];
  commands: { command: string; count: number }[];
  buttons: { text: string; nodeId: string | null; count: number }[];
  /** set when the server shortened a range that was too long */
  clamped?: unknown;
}

export interface NodeFigures {
  items: { nodeId: string; sheetId: string | null; users: number; visits: number }[];
  edges: { from: string; to: string; users: number }[];
}

/** How often figures are asked for again while a screen shows them. */
const REFRESH_MS = 30_000;

export function useAnalytics(tokenId: number, range: { from: string; to: string } | null, bucket: Bucket) {
  return useQuery({
    queryKey: ["analytics", tokenId, range, bucket],
    queryFn: () => get<Analytics>(`/api/bot/tokens/${tokenId}/analytics`, { query: { ...range!, bucket } }),
    enabled: range !== null,
    refetchInterval: REFRESH_MS,
  });
}

export function useNodeFigures(tokenId: number | null, range: { from: string; to: string } | null) {
  return useQuery({
    queryKey: ["analytics-nodes", tokenId, range],
    queryFn: () => get<NodeFigures>(`/api/bot/tokens/${tokenId}/analytics/nodes`, { query: { ...range! } }),
    enabled: tokenId !== null && range !== null,
    refetchInterval: REFRESH_MS,
  });
}
