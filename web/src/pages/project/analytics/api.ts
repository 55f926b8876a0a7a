// The analytics answers (docs/studio.md "Analytics tab"; the routes of /api/bot/tokens/{id}/analytics) and the
// queries that fetch them for the tab and the editor's funnel.
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../api/client";
import type { BotAnalytics, NodeAnalytics } from "../../../api/types";
import type { Bucket, PeriodQuery } from "./range";

export type Analytics = BotAnalytics;
export type SeriesPoint = Analytics["series"][number];
export type NodeFigures = Pick<NodeAnalytics, "items" | "edges">;

/** How often figures are asked for again while a screen shows them. */
const REFRESH_MS = 30_000;

export function useAnalytics(tokenId: number, range: PeriodQuery | null, bucket: Bucket) {
  return useQuery({
    queryKey: ["analytics", tokenId, range, bucket],
    queryFn: () => get<Analytics>(`/api/bot/tokens/${tokenId}/analytics`, { query: { ...range!, bucket } }),
    enabled: range !== null,
    refetchInterval: REFRESH_MS,
  });
}

export function useNodeFigures(tokenId: number | null, range: PeriodQuery | null) {
  return useQuery({
    queryKey: ["analytics-nodes", tokenId, range],
    queryFn: () => get<NodeAnalytics>(`/api/bot/tokens/${tokenId}/analytics/nodes`, { query: { ...range! } }),
    enabled: tokenId !== null && range !== null,
    refetchInterval: REFRESH_MS,
  });
}
