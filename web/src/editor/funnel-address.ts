// The analytics overlay in the editor's address (docs/editor.md "Analytics overlay"): ?funnel=1 with
// the bot (?token=) and the period (?range=&from=&to=, analytics/address.ts), so a reload or a
// shared link opens the scenario with the same overlay. The store keeps the overlay; the address
// follows it. Turning the overlay off takes its keys out but leaves ?token=, which the project's tabs share.
import { useEffect } from "react";
import { useSearchParams } from "wouter";
import { periodFromAddress, withoutPeriod, withPeriod } from "../pages/project/analytics/address";
import type { FunnelOverlay } from "./funnel";
import { useEditor, type EditorStore } from "./store";

/** The overlay an address asks for, or null (off) when it asks for none. */
export function overlayFromAddress(params: URLSearchParams): FunnelOverlay | null {
  if (params.get("funnel") !== "1") return null;
  const token = Number(params.get("token"));
  // a token that is no bot of the project reads as the first bot (FunnelBar)
  return { tokenId: Number.isSafeInteger(token) && token > 0 ? token : null, period: periodFromAddress(params), figures: null };
}

export function withOverlay(params: URLSearchParams, overlay: Pick<FunnelOverlay, "tokenId" | "period"> | null): URLSearchParams {
  if (!overlay) {
    const next = withoutPeriod(params);
    next.delete("funnel");
    return next;
  }
  const next = withPeriod(params, overlay.period);
  next.set("funnel", "1");
  if (overlay.tokenId !== null) next.set("token", String(overlay.tokenId));
  return next;
}

/** Writes the store's overlay into the address (history.replaceState) whenever its bot or period changes. */
export function useOverlayAddress(store: EditorStore) {
  const [, setParams] = useSearchParams();
  const on = useEditor(store, (s) => s.analytics !== null);
  const tokenId = useEditor(store, (s) => s.analytics?.tokenId ?? null);
  const period = useEditor(store, (s) => s.analytics?.period ?? null);
  useEffect(() => {
    const now = new URLSearchParams(location.search);
    const next = withOverlay(now, on && period ? { tokenId, period } : null);
    if (next.toString() !== now.toString()) setParams(next, { replace: true });
  }, [on, tokenId, period, setParams]);
}
