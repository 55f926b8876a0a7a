// What one version changed against the one before it, node by node (docs/editor.md "Versions"):
// added, removed, changed (type or data differ; a move alone is not a change) or the same. Pure.
import { normalizeDoc, type Doc, type SNode } from "./document";

export type Change = "added" | "removed" | "changed" | "same";

export interface DiffNode {
  node: SNode;
  change: Change;
}

export interface SheetDiff {
  id: string;
  name: string;
  nodes: DiffNode[];
}

export interface VersionDiff {
  sheets: SheetDiff[];
  counts: Record<Change, number>;
}

const content = (n: SNode) => JSON.stringify([n.type, n.data ?? {}]);

/** `before` null: the first version, where every node is new. */
export function diffDocs(beforeRaw: unknown | null, afterRaw: unknown): VersionDiff {
  const after: Doc = normalizeDoc(afterRaw);
  const before: Doc | null = beforeRaw === null ? null : normalizeDoc(beforeRaw);
  const old = new Map<string, SNode>();
  for (const s of before?.sheets ?? []) for (const n of s.nodes) old.set(n.id, n);
  const seen = new Set<string>();
  const counts: Record<Change, number> = { added: 0, removed: 0, changed: 0, same: 0 };
  const sheets: SheetDiff[] = after.sheets.map((s) => ({
    id: s.id,
    name: s.name ?? s.id,
    nodes: s.nodes.map((n) => {
      seen.add(n.id);
      const was = old.get(n.id);
      const change: Change = !was ? "added" : content(was) !== content(n) ? "changed" : "same";
      counts[change]++;
      return { node: n, change };
    }),
  }));
  // removed nodes are drawn where they were, on their sheet (or a sheet of their own if it is gone)
  for (const s of before?.sheets ?? []) {
    const gone = s.nodes.filter((n) => !seen.has(n.id)).map((node): DiffNode => ({ node, change: "removed" }));
    if (gone.length === 0) continue;
    counts.removed += gone.length;
    const target = sheets.find((x) => x.id === s.id);
    if (target) target.nodes.push(...gone);
    else sheets.push({ id: s.id, name: s.name ?? s.id, nodes: gone });
  }
  return { sheets, counts };
}
