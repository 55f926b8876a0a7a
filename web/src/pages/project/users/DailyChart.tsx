// New users per day (GET /api/bot/tokens/{id}/stats/daily) drawn with uPlot, in theme colours.
import { useEffect, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import { get } from "../../../api/client";
import { ErrorLine } from "../../../components/ui";

interface Daily {
  items: { date: string; newUsers: number }[];
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function DailyChart({ tokenId }: { tokenId: number }) {
  const { t, i18n } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const daily = useQuery({ queryKey: ["daily", tokenId], queryFn: () => get<Daily>(`/api/bot/tokens/${tokenId}/stats/daily`, { query: { days: 30 } }), refetchInterval: 30_000 });
  useEffect(() => {
    const el = box.current;
    const items = daily.data?.items;
    if (!el || !items) return;
    const xs = items.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const ys = items.map((d) => d.newUsers);
    const axis = { stroke: css("--muted"), grid: { stroke: css("--border"), width: 1 }, ticks: { stroke: css("--border") } };
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: 180,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        // Half a day of room on each side so the first and last bars are whole.
        scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [axis, { ...axis, size: 40 }],
        series: [{}, { label: t("users.newPerDay"), stroke: css("--accent"), fill: `${css("--accent")}33`, width: 2, points: { show: false }, paths: uPlot.paths.bars!({ size: [0.7, 24] }) }],
      },
      [xs, ys],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [daily.data, i18n.language, t]);
  return (
    <section className="card" aria-labelledby="daily-title">
      <h2 id="daily-title">{t("users.newPerDay")}</h2>
      <ErrorLine error={daily.error} />
      <div ref={box} className="chart" role="img" aria-label={t("users.chartLabel", { total: daily.data?.items.reduce((a, d) => a + d.newUsers, 0) ?? 0 })} />
    </section>
  );
}
