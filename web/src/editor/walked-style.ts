// The preview's walked path on the canvas: the nodes a chat went through and the links it took
// between them, drawn by one style sheet over the canvas rather than by the canvas itself, so a
// bot message re-renders no node card (on a big sheet that would re-adopt every node) and the
// canvas needs to know nothing about previews. The sheet lives while the preview panel does.
import { useEffect, useMemo } from "react";
import { deriveEdges, sheetIndex, type Doc } from "./document";

/** The style rules that light `path` (node ids in the order the chat met them) on the canvas. */
export function walkedRules(doc: Doc, path: string[]): string[] {
  if (path.length === 0) return [];
  const index = sheetIndex(doc);
  const steps = new Set(path.slice(1).map((id, i) => `${path[i]}>${id}`));
  const edges = doc.sheets.flatMap((s) => deriveEdges(s, index).local).filter((e) => steps.has(`${e.source}>${e.target}`));
  return [
    // `--walked` lets a test ask the page which nodes the rule reached
    ...[...new Set(path)].map((id) => `.ed-node[data-node-id="${CSS.escape(id)}"] { --walked: 1; border-color: var(--accent); box-shadow: 0 0 0 2px color-mix(in srgb, var(--accent) 45%, transparent); }`),
    ...edges.map((e) => `.react-flow__edge[data-id="${CSS.escape(e.id)}"] { --walked: 1; } .react-flow__edge[data-id="${CSS.escape(e.id)}"] path { stroke: var(--accent); stroke-width: 3; }`),
  ];
}

export function useWalkedStyle(doc: Doc, path: string[]) {
  const sheet = useMemo(() => new CSSStyleSheet(), []);
  useEffect(() => {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => void (document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet));
  }, [sheet]);
  const rules = useMemo(() => walkedRules(doc, path).join("\n"), [doc, path]);
  useEffect(() => sheet.replaceSync(rules), [sheet, rules]);
}
