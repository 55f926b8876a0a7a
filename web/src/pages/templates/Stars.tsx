// A template's rating as stars; with `onRate` the stars are buttons that cast the caller's vote.
import { useTranslation } from "react-i18next";

export function Stars({ rating, count, onRate, busy }: { rating: number; count: number; onRate?: (n: number) => void; busy?: boolean }) {
  const { t, i18n } = useTranslation();
  const one = rating.toLocaleString(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const full = Math.round(rating);
  const label = t("templates.rating", { rating: one, count });
  if (!onRate) return <span className="stars" aria-label={label} title={label}>{"★".repeat(full)}{"☆".repeat(5 - full)} <span className="muted small">{count > 0 ? one : ""} ({count})</span></span>;
  return (
    <span className="stars" role="group" aria-label={label}>
      <span className="small muted">{t("templates.rateLabel")} </span>
      {[1, 2, 3, 4, 5].map((n) => (
        <button key={n} type="button" className="star-btn" disabled={busy} onClick={() => onRate(n)} aria-label={t("templates.rateN", { n })}>{n <= full ? "★" : "☆"}</button>
      ))}
      {count > 0 && <span className="muted small"> {one} ({count})</span>}
    </span>
  );
}
