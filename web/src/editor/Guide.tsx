// Help for a first visit: the hint on an empty sheet, and a short tour that points at the palette,
// the canvas, the properties and the preview in turn (started from the hint or the help panel).
import { useLayoutEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export function EmptyHint({ onAddStart, onTour, onBrowse }: { onAddStart: () => void; onTour: () => void; onBrowse: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="ed-hint" role="note" data-testid="empty-hint">
      <h3>{t("editor.hint.title")}</h3>
      <p>{t("editor.hint.text")}</p>
      <div className="ed-hint-actions">
        <button type="button" className="primary" onClick={onAddStart}>{t("editor.hint.add")}</button>
        <button type="button" onClick={onBrowse}>{t("editor.hint.pick")}</button>
        <button type="button" className="link" onClick={onTour}>{t("editor.hint.tour")}</button>
      </div>
    </div>
  );
}

export const TOUR_STEPS = [
  { key: "palette", target: ".ed-palette" },
  { key: "canvas", target: ".ed-canvas" },
  { key: "props", target: ".ed-props" },
  { key: "preview", target: "[data-tour=preview]" },
] as const;

/** A card next to the part of the screen it explains; the part is outlined while the card shows. */
export function Tour({ onClose, onStep }: { onClose: () => void; onStep?: (key: string) => void }) {
  const { t } = useTranslation();
  const [i, setI] = useState(0);
  const step = TOUR_STEPS[i]!;
  const [at, setAt] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    onStep?.(step.key);
    const id = requestAnimationFrame(() => {
      const el = document.querySelector(step.target);
      el?.classList.add("ed-tour-focus");
      const r = el?.getBoundingClientRect();
      const w = Math.min(320, window.innerWidth - 16);
      if (!r) return setAt({ left: 8, top: 8 });
      // beside the part when there is room, else over its top edge
      const left = r.right + 12 + w < window.innerWidth ? r.right + 12 : r.left - 12 - w > 0 ? r.left - 12 - w : Math.max(8, r.left + 12);
      setAt({ left, top: Math.max(8, Math.min(r.top + 12, window.innerHeight - 200)) });
    });
    return () => {
      cancelAnimationFrame(id);
      document.querySelector(step.target)?.classList.remove("ed-tour-focus");
    };
  }, [step, onStep]);
  const last = i === TOUR_STEPS.length - 1;
  return (
    <div className="ed-tour" role="dialog" aria-label={t("editor.hint.tour")} style={at ?? { left: 8, top: 8 }}>
      <p className="muted small">{t("editor.tour.step", { n: i + 1, total: TOUR_STEPS.length })}</p>
      <p>{t(`editor.tour.${step.key}`)}</p>
      <div className="ed-modal-actions">
        {!last && <button type="button" className="ghost" onClick={onClose}>{t("editor.tour.skip")}</button>}
        <button type="button" className="primary" autoFocus onClick={() => (last ? onClose() : setI(i + 1))}>{last ? t("editor.tour.done") : t("editor.tour.next")}</button>
      </div>
    </div>
  );
}
