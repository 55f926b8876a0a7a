// "Preview from here": the document the preview runs when the user restarts it at a node. /start
// leads straight to that node (every /start trigger, or one added for the run), so the chat begins
// there; the user's document is not changed.
import type { Doc } from "./document";
import { mapNodes } from "./store";

export const PREVIEW_START_ID = "__preview_start";

export function startingAt(doc: Doc, nodeId: string): Doc {
  let found = false;
  const redirected = mapNodes(doc, (n) => {
    if (n.type !== "command_trigger" || String(n.data?.command ?? "").trim() !== "/start") return n;
    found = true;
    return { ...n, data: { ...n.data, autoTransitionTo: nodeId, enableAutoTransition: true } };
  });
  if (found) return redirected;
  const [first, ...rest] = doc.sheets;
  if (!first) return doc;
  const trigger = { id: PREVIEW_START_ID, type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/start", autoTransitionTo: nodeId } };
  return { ...doc, sheets: [{ ...first, nodes: [...first.nodes, trigger] }, ...rest] };
}
