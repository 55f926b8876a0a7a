// What people call a node: its own words (command, message text, trigger text, variable...), not
// its id. The preview names the node behind a bot message with it, the graph picture labels boxes.
import type { SNode } from "./document";

const MAX = 40;

/** The node's first meaningful text, shortened; `fallback` (e.g. its type in words) when it has none. */
export function nodeName(n: Pick<SNode, "data">, fallback: string): string {
  const d = n.data ?? {};
  const firstButton = Array.isArray(d.buttons) ? d.buttons.find((b: any) => typeof b?.text === "string" && b.text.trim())?.text : undefined;
  const s = d.command ?? d.messageText ?? d.inputPrompt ?? (Array.isArray(d.textSynonyms) ? d.textSynonyms[0] : undefined) ?? d.variable ?? d.inputVariable ?? d.httpRequestUrl ?? firstButton;
  if (typeof s !== "string" || !s.trim()) return fallback;
  const one = s.trim().replace(/\s+/g, " ");
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}
