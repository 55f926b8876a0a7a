// The analytics overlay's bar over the canvas (docs/editor.md "Analytics overlay"): which bot
// and period the figures are for, what the line widths mean, and words for loading, errors and "no
// data yet". It fetches the figures and keeps them in the editor's store, where the canvas and the
// properties panel read them.
import "../pages/project/analytics/analytics.css";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ErrorLine } from "../components/ui";
import { useNodeFigures } from "../pages/project/analytics/api";
import { registerAnalyticsStrings } from "../pages/project/analytics/i18n";
import { PeriodPicker } from "../pages/project/analytics/PeriodPicker";
import { periodQuery } from "../pages/project/analytics/range";
import { useTokenChoice } from "../pages/project/dialogs/controls";
import { funnelOf, type Funnel } from "./funnel";
import { useEditor, type EditorStore } from "./store";

registerAnalyticsStrings();

/** The funnel of the open document, or null while the overlay is off or has no figures yet. */
export function useFunnel(store: EditorStore): Funnel | null {
  const figures = useEditor(store, (s) => s.analytics?.figures ?? null);
  const doc = useEditor(store, (s) => s.doc);
  return useMemo(() => (figures ? funnelOf(figures, doc) : null), [figures, doc]);
}

export function FunnelBar({ store, projectId }: { store: EditorStore; projectId: number }) {
  const { t } = useTranslation();
  const overlay = useEditor(store, (s) => s.analytics);
  const { tokens, items } = useTokenChoice(projectId);
  const tokenId = items.find((x) => x.id === overlay?.tokenId)?.id ?? items[0]?.id ?? null;
  const q = overlay ? periodQuery(overlay.period) : null;
  const range = q && !("problem" in q) ? q : null;
  const figures = useNodeFigures(tokenId, range);
  // until the bots are known, the bot asked for (by the address) stays asked for
  const known = tokens.data !== undefined;
  useEffect(() => {
    const cur = store.state.analytics;
    const data = figures.data ?? null;
    if (cur && known && (cur.figures !== data || cur.tokenId !== tokenId)) store.setAnalytics({ ...cur, tokenId, figures: data });
  }, [figures.data, tokenId, known, store]);
  if (!overlay) return null;
  const empty = figures.data && figures.data.items.every((i) => i.users === 0);
  return (
    <div className="ed-funnel-bar" role="region" aria-label={t("analytics.funnel.title")} data-testid="funnel-bar">
      {items.length > 1 && tokenId !== null && (
        <label className="compact-label small">
          {t("analytics.funnel.bot")}
          <select value={tokenId} onChange={(e) => store.setAnalytics({ ...overlay, tokenId: Number(e.target.value), figures: null })}>
            {items.map((tk) => <option key={tk.id} value={tk.id}>{tk.name}{tk.botUsername ? ` (@${tk.botUsername})` : ""}</option>)}
          </select>
        </label>
      )}
      <PeriodPicker compact value={overlay.period} onChange={(period) => store.setAnalytics({ ...overlay, period, figures: null })} />
      <span className="small ed-funnel-note" role="status" data-testid="funnel-status">
        {tokens.isError ? null : tokenId === null && !tokens.isPending ? (
          t("analytics.funnel.noBots")
        ) : q && "problem" in q ? (
          <span className="warn-text">{t(q.problem)}</span>
        ) : figures.isError ? null : !figures.data ? (
          t("analytics.funnel.loading")
        ) : empty ? (
          t("analytics.funnel.empty")
        ) : (
          <span className="muted">{t("analytics.funnel.legend")}</span>
        )}
      </span>
      <ErrorLine error={tokens.error ?? figures.error} />
    </div>
  );
}
