// The figures of a project's bots (docs/studio.md "Analytics tab"): a bot, a period and a step; totals; charts of
// users (new, active) and messages (in, out); tables of sources, languages, commands and buttons,
// each downloadable as CSV. One screen for a bot's numbers (it took over the Users tab's counters
// and its chart of new users per day).
import "./dialogs/dialogs.css";
import "./analytics/analytics.css";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { ErrorLine } from "../../components/ui";
import { TokenPicker, useTokenChoice } from "./dialogs/controls";
import { useAnalytics, type Analytics } from "./analytics/api";
import { registerAnalyticsStrings } from "./analytics/i18n";
import { PeriodPicker } from "./analytics/PeriodPicker";
import { bucketFromAddress, periodFromAddress, withBucket, withPeriod } from "./analytics/address";
import { BUCKETS, defaultBucket, fillBuckets, periodQuery, type Bucket, type Period } from "./analytics/range";
import { SeriesChart } from "./analytics/SeriesChart";
import { TopTable } from "./analytics/TopTable";

registerAnalyticsStrings();

const TOTALS = ["users", "activeUsers", "newUsers", "messagesIn", "messagesOut", "blocked"] as const;
const ZERO = { newUsers: 0, activeUsers: 0, messagesIn: 0, messagesOut: 0, blocked: 0 };

export function AnalyticsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { tokens, items, tokenId, params, setParams } = useTokenChoice(projectId);
  // the address holds the choice (analytics/address.ts): read once here, written back on every change
  const [period, setPeriod] = useState<Period>(() => periodFromAddress(params));
  const [bucket, setBucket] = useState<Bucket | null>(() => bucketFromAddress(params));
  useEffect(() => {
    const now = new URLSearchParams(location.search);
    const next = withBucket(withPeriod(now, period), bucket);
    if (next.toString() !== now.toString()) setParams(next, { replace: true });
  }, [period, bucket, setParams]);
  if (tokens.isPending) return <p>{t("common.loading")}</p>;
  if (tokens.isError) return <ErrorLine error={tokens.error} />;
  if (tokenId === null) return <p className="muted">{t("analytics.noBots")}</p>;
  // 24 h is a rolling window of hours (`hours=24`): by hour only
  const step = period.preset === "24h" ? "hour" : bucket ?? defaultBucket(period);
  return (
    <div className="stack" data-testid="analytics">
      <div className="an-controls">
        <TokenPicker items={items} tokenId={tokenId} onPick={(id) => setParams((p) => withToken(p, id), { replace: true })} />
        <PeriodPicker value={period} onChange={(p) => { setPeriod(p); setBucket(null); }} />
        <label className="compact-label">
          {t("analytics.bucket")}
          <select value={step} onChange={(e) => setBucket(e.target.value as Bucket)}>
            {BUCKETS.map((b) => <option key={b} value={b}>{t(`analytics.buckets.${b}`)}</option>)}
          </select>
        </label>
      </div>
      <Figures key={tokenId} projectId={projectId} tokenId={tokenId} period={period} bucket={step} />
    </div>
  );
}

const withToken = (p: URLSearchParams, id: number) => {
  const next = new URLSearchParams(p);
  next.set("token", String(id));
  return next;
};

function Figures({ projectId, tokenId, period, bucket }: { projectId: number; tokenId: number; period: Period; bucket: Bucket }) {
  const { t } = useTranslation();
  const q = periodQuery(period);
  const range = "problem" in q ? null : q;
  const a = useAnalytics(tokenId, range, bucket);
  if ("problem" in q) return <p className="warn-text" role="alert">{t(q.problem)}</p>;
  if (a.isError) return <ErrorLine error={a.error} />;
  if (!a.data) return <p>{t("common.loading")}</p>;
  const d: Analytics = a.data;
  const empty = d.series.every((p) => p.newUsers + p.activeUsers + p.messagesIn + p.messagesOut + p.blocked === 0) && d.totals.users === 0;
  // the answer's range: the server cuts a range longer than it allows
  const series = fillBuckets(d.series, d.range, bucket, ZERO);
  const file = (name: string) => `${name}-${tokenId}-${d.range.from}-${d.range.to}.csv`;
  return (
    <>
      {d.range.clamped && <p className="warn-text" role="status" data-testid="analytics-clamped">{t("analytics.clamped", { from: d.range.from, to: d.range.to })}</p>}
      {empty && <p className="muted" data-testid="analytics-empty">{t("analytics.noDataLong")}</p>}
      <ul className="stats" aria-label={t("analytics.totals")}>
        {TOTALS.map((k) => (
          <li key={k} className="card stat" data-testid={`total-${k}`}>
            <span className="stat-value">{d.totals[k]}</span>
            <span className="muted small">{t(`analytics.figures.${k}`)}</span>
          </li>
        ))}
      </ul>
      <div className="an-charts">
        <SeriesChart id="users" title={t("analytics.users")} series={series} figures={["newUsers", "activeUsers"]} bucket={bucket} />
        <SeriesChart id="messages" title={t("analytics.messages")} series={series} figures={["messagesIn", "messagesOut"]} bucket={bucket} />
      </div>
      <div className="an-tables">
        <TopTable
          id="sources"
          title={t("analytics.sources")}
          rows={d.sources}
          fileName={file("sources")}
          columns={[
            { label: "analytics.col.source", value: (r) => r.source, render: (r) => r.source || <span className="muted">{t("analytics.noSource")}</span> },
            { label: "analytics.col.users", value: (r) => r.users, numeric: true },
          ]}
        />
        <TopTable
          id="languages"
          title={t("analytics.languages")}
          rows={d.languages}
          fileName={file("languages")}
          columns={[
            { label: "analytics.col.language", value: (r) => r.language, render: (r) => r.language || <span className="muted">{t("analytics.unknownLanguage")}</span> },
            { label: "analytics.col.users", value: (r) => r.users, numeric: true },
          ]}
        />
        <TopTable
          id="commands"
          title={t("analytics.commands")}
          rows={d.commands}
          fileName={file("commands")}
          columns={[
            { label: "analytics.col.command", value: (r) => r.command, render: (r) => <code>{r.command.startsWith("/") ? r.command : `/${r.command}`}</code> },
            { label: "analytics.col.count", value: (r) => r.count, numeric: true },
          ]}
        />
        <TopTable
          id="buttons"
          title={t("analytics.buttons")}
          rows={d.buttons}
          fileName={file("buttons")}
          columns={[
            { label: "analytics.col.button", value: (r) => r.text },
            {
              label: "analytics.col.node",
              value: (r) => r.nodeId,
              render: (r) => (r.nodeId ? <Link href={`/projects/${projectId}/scenario?node=${encodeURIComponent(r.nodeId)}`} title={t("analytics.openNode", { node: r.nodeId })}>{r.nodeId}</Link> : "—"),
            },
            { label: "analytics.col.count", value: (r) => r.count, numeric: true },
          ]}
        />
      </div>
    </>
  );
}
