// The period picker of the Analytics tab and the editor's funnel: preset chips (24 h … 90 d) and,
// for "custom", two date fields.
import { useTranslation } from "react-i18next";
import { PRESETS, type Period } from "./range";

export function PeriodPicker({ value, onChange, compact }: { value: Period; onChange: (p: Period) => void; compact?: boolean }) {
  const { t } = useTranslation();
  const today = new Date().toISOString().slice(0, 10);
  return (
    <div className={compact ? "an-period compact" : "an-period"}>
      <div className="chips" role="group" aria-label={t("analytics.period")}>
        {[...PRESETS, "custom" as const].map((p) => (
          <button key={p} type="button" className={value.preset === p ? "chip active" : "chip"} aria-pressed={value.preset === p} onClick={() => onChange({ ...value, preset: p })}>
            {t(`analytics.presets.${p}`)}
          </button>
        ))}
      </div>
      {value.preset === "custom" && (
        <div className="an-dates">
          <label className="compact-label">
            {t("analytics.from")}
            <input type="date" value={value.from} max={today} onChange={(e) => onChange({ ...value, from: e.target.value })} />
          </label>
          <label className="compact-label">
            {t("analytics.to")}
            <input type="date" value={value.to} max={today} onChange={(e) => onChange({ ...value, to: e.target.value })} />
          </label>
        </div>
      )}
    </div>
  );
}
