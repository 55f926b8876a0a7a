// The funnel the editor draws over the scenario (docs/editor.md "Analytics overlay"): from the
// per-node and per-transition figures of GET /api/bot/tokens/{id}/analytics/nodes, each node's users,
// visits and the part of its users who followed none of its transitions, and each transition's share
// of its source's users.
import type { NodeFigures } from "../pages/project/analytics/api";
import type { Period } from "../pages/project/analytics/range";
import { kindOf } from "./catalogue";
import { deriveEdges, sheetIndex, type Doc, type SNode } from "./document";

/** The overlay as the editor's store keeps it; null in the store = the overlay is off. */
export interface FunnelOverlay {
  tokenId: number | null;
  period: Period;
  /** the last figures fetched for that bot and period (null while none came yet) */
  figures: NodeFigures | null;
}

export interface NodeFunnel {
  users: number;
  visits: number;
  /** users who followed a transition out of the node (at most `users`) */
  onward: number;
  /** share (0..1) of the node's users who went no further; null where it means nothing: nobody came, or the node leads nowhere */
  drop: number | null;
}

export interface EdgeFunnel {
  users: number;
  /** share (0..1) of the source's users who took this transition; null when nobody reached the source */
  share: number | null;
}

export interface Funnel {
  nodes: Map<string, NodeFunnel>;
  /** keyed by `${from}>${to}` (node ids) */
  edges: Map<string, EdgeFunnel>;
}

export const edgeKey = (from: string, to: string) => `${from}>${to}`;

/** Some triggers start a walk without being counted as a step (docs/editor.md "Analytics overlay"): without figures they show none. */
const isTrigger = (n: SNode | undefined) => kindOf(n?.type ?? "")?.group === "triggers";

export function funnelOf(figures: NodeFigures, doc: Doc): Funnel {
  const index = sheetIndex(doc);
  // nodes that lead somewhere in the scenario as drawn now (across sheets too)
  const leads = new Set<string>();
  const links = new Set<string>();
  const byId = new Map(doc.sheets.flatMap((s) => s.nodes.map((n) => [n.id, n] as const)));
  for (const s of doc.sheets) {
    const { local, portals } = deriveEdges(s, index);
    for (const e of [...local, ...portals]) {
      leads.add(e.source);
      links.add(edgeKey(e.source, e.target));
    }
  }
  const reached = new Map(figures.items.map((i) => [i.nodeId, i]));
  const out = new Map<string, number>();
  const edges = new Map<string, EdgeFunnel>();
  for (const e of figures.edges) {
    const from = reached.get(e.from)?.users ?? 0;
    const k = edgeKey(e.from, e.to);
    // one pair of nodes may be counted once however many buttons join them
    const users = (edges.get(k)?.users ?? 0) + e.users;
    edges.set(k, { users, share: from > 0 ? Math.min(1, users / from) : null });
    out.set(e.from, (out.get(e.from) ?? 0) + e.users);
  }
  // a transition of the drawing that nobody took shows as 0
  for (const k of links) {
    const source = k.slice(0, k.indexOf(">"));
    if (edges.has(k) || (!reached.has(source) && isTrigger(byId.get(source)))) continue;
    const from = reached.get(source)?.users ?? 0;
    edges.set(k, { users: 0, share: from > 0 ? 0 : null });
  }
  const nodes = new Map<string, NodeFunnel>();
  for (const s of doc.sheets)
    for (const n of s.nodes) {
      const f = reached.get(n.id);
      if (!f && isTrigger(n)) continue;
      const users = f?.users ?? 0;
      const onward = Math.min(users, out.get(n.id) ?? 0);
      nodes.set(n.id, { users, visits: f?.visits ?? 0, onward, drop: users > 0 && leads.has(n.id) ? (users - onward) / users : null });
    }
  return { nodes, edges };
}

/** A share as a whole percent for people (0.254 → 25). */
export const percent = (share: number) => Math.round(share * 100);

/** The colour of a transition by the share of users who took it: most went on, some, few. */
export function shareTone(share: number | null): "ok" | "warn" | "danger" | "none" {
  if (share === null) return "none";
  return share >= 0.6 ? "ok" : share >= 0.25 ? "warn" : "danger";
}
