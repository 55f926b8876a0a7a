// The nodes of a project's scenario, for "go to node" buttons and "resume at node".
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../api/client";
import type { ScenarioDoc } from "../../../api/types";

export interface NodeOption {
  id: string;
  label: string;
}

function labelOf(n: { id: string; type: string; data?: Record<string, unknown> }): string {
  const text = [n.data?.command, n.data?.messageText].find((v) => typeof v === "string" && v.trim()) as string | undefined;
  const snippet = text ? ` — ${text.trim().replace(/\s+/g, " ").slice(0, 40)}` : "";
  return `${n.id} (${n.type})${snippet}`;
}

export function useScenarioNodes(projectId: number) {
  return useQuery({
    queryKey: ["scenario-nodes", projectId],
    queryFn: async (): Promise<NodeOption[]> => {
      const p = await get<{ data?: ScenarioDoc | null }>(`/api/projects/${projectId}`);
      return (p.data?.sheets ?? []).flatMap((s) => (s.nodes ?? []).map((n) => ({ id: n.id, label: labelOf(n) })));
    },
    staleTime: 60_000,
  });
}
