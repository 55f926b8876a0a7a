// A small time chart of two figures per bucket (new and active users, messages in and out) drawn
// with uPlot in the theme's colours; the legend under it names both series and their sums.
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import type { SeriesPoint } from "./api";
import { atSeconds, type Bucket } from "./range";

type Figure = Exclude<keyof SeriesPoint, "at">;

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const HEIGHT = 200;

export function SeriesChart({ id, title, series, figures, bucket }: { id: string; title: string; series: SeriesPoint[]; figures: [Figure, Figure]; bucket: Bucket }) {
  // `series` has every bucket of the period (fillBuckets)
  const { t, i18n } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const colours = ["--accent", "--ok"] as const;
  useEffect(() => {
    const el = box.current;
    if (!el || series.length === 0 || figures.every((f) => series.every((p) => p[f] === 0))) return;
    const xs = series.map((p) => atSeconds(p.at));
    const half = bucket === "hour" ? 1800 : 43_200;
    const axis = { stroke: css("--muted"), grid: { stroke: css("--border"), width: 1 }, ticks: { stroke: css("--border") } };
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        // half a bucket of room on each side so the first and last points are not on the frame
        scales: { x: { time: true, range: (_u, min, max) => [min - half, max + half] }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        axes: [axis, { ...axis, size: 48 }],
        series: [
          {},
          ...figures.map((f, i) => ({ label: t(`analytics.figures.${f}`), stroke: css(colours[i]!), fill: i === 0 ? `${css(colours[i]!)}22` : undefined, width: 2, points: { show: series.length <= 16 } })),
        ],
      },
      [xs, ...figures.map((f) => series.map((p) => p[f]))],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series, bucket, figures[0], figures[1], i18n.language, t]);
  const sums = figures.map((f) => series.reduce((a, p) => a + p[f], 0));
  const quiet = sums.every((x) => x === 0);
  return (
    <section className="card an-chart" aria-labelledby={`${id}-title`} data-testid={`chart-${id}`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {quiet ? (
        <p className="muted">{t("analytics.noData")}</p>
      ) : (
        <div ref={box} className="chart" role="img" aria-label={figures.map((f, i) => `${t(`analytics.figures.${f}`)}: ${sums[i]}`).join(", ")} />
      )}
      <ul className="an-legend plain-row">
        {figures.map((f, i) => (
          <li key={f}>
            <span className="an-swatch" style={{ background: `var(${colours[i]})` }} aria-hidden /> {t(`analytics.figures.${f}`)}: <strong>{sums[i]}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}
