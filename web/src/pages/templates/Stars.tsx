// A template's rating as stars; with `onRate` the stars are buttons that cast the caller's vote.
import { useTranslation } from "react-i18next";

export function Stars({ rating, count, onRate, busy }: { rating: number; count: number; onRate?: (n: number) => void; busy?: boolean }) {
  const { t } = useTranslation();
  const full = Math.round(rating);
  const label = t("templates.rating", { rating: rating.toFixed(1), count });
  if (!onRate) return <span className="stars" aria-label={label} title={label}>{"★".repeat(full)}{"☆".repeat(5 - full)} <span className="muted small">{count > 0 ? rating.toFixed(1) : ""} ({count})</span></span>;
  return (
    <span className="stars" role="group" aria-label={label}>
      <span className="small muted">{t("templates.rateLabel")} </span>
      {[1, 2, 3, 4, 5].map((n) => (
        <button key={n} type="button" className="star-btn" disabled={busy} onClick={() => onRate(n)} aria-label={t("templates.rateN", { n })}>{n <= full ? "★" : "☆"}</button>
      ))}
      {count > 0 && <span className="muted small"> {rating.toFixed(1)} ({count})</span>}
    </span>
  );
}
