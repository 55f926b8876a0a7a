// A selected node's figures under the analytics overlay, at the top of the properties panel:
// visits, users, how many went no further, and where the others went.
import { useTranslation } from "react-i18next";
import { labelOf, type Doc } from "./document";
import { percent } from "./funnel";
import { useFunnel } from "./FunnelBar";
import { useEditor, type EditorStore } from "./store";

export function FunnelFacts({ store, nodeId, doc }: { store: EditorStore; nodeId: string; doc: Doc }) {
  const { t } = useTranslation();
  const funnel = useFunnel(store);
  const edges = useEditor(store, (s) => s.analytics?.figures?.edges);
  const f = funnel?.nodes.get(nodeId);
  if (!funnel || !f) return null;
  const all = doc.sheets.flatMap((s) => s.nodes);
  const name = (id: string) => {
    const n = all.find((x) => x.id === id);
    return n ? labelOf(n, (type) => t(`editor.types.${type}`, type)) : id;
  };
  const next = (edges ?? []).filter((e) => e.from === nodeId && e.users > 0).sort((a, b) => b.users - a.users);
  return (
    <section className="ed-funnel-facts" aria-label={t("analytics.funnel.node")} data-testid="funnel-facts">
      <h3 className="small">{t("analytics.funnel.node")}</h3>
      {f.users === 0 ? (
        <p className="muted small">{t("analytics.funnel.noVisits")}</p>
      ) : (
        <>
          <dl>
            <dt>{t("analytics.funnel.users")}</dt>
            <dd data-testid="funnel-users">{f.users}</dd>
            <dt>{t("analytics.funnel.visits")}</dt>
            <dd data-testid="funnel-visits">{f.visits}</dd>
            {f.drop !== null && (
              <>
                <dt>{t("analytics.funnel.dropOff")}</dt>
                <dd data-testid="funnel-drop">{t("analytics.funnel.dropOffText", { gone: f.users - f.onward, users: f.users, percent: percent(f.drop) })}</dd>
              </>
            )}
          </dl>
          {next.length > 0 && (
            <>
              <h4 className="small">{t("analytics.funnel.next")}</h4>
              <ul className="plain small">
                {next.map((e) => (
                  <li key={`${e.to}-${e.users}`}>
                    {name(e.to)}: {t("analytics.funnel.edge", { count: e.users, percent: percent(Math.min(1, e.users / f.users)) })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
