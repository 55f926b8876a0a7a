// The node palette: every type the engine runs, in the reference groups. Drag a type onto the
// canvas, or click it to add it in the middle of the view. The quick-add menu reuses the list.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { GROUPS, NODE_KINDS } from "./catalogue";

export function Palette({ onAdd }: { onAdd: (type: string) => void }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const q = filter.trim().toLowerCase();
  return (
    <aside className="ed-palette" aria-label={t("editor.palette")}>
      <input className="ed-palette-filter" type="search" placeholder={t("editor.paletteFilter")} aria-label={t("editor.paletteFilter")} value={filter} onChange={(e) => setFilter(e.target.value)} />
      {GROUPS.map((g) => {
        const kinds = NODE_KINDS.filter((k) => k.group === g && (!q || k.type.includes(q) || t(`editor.types.${k.type}`).toLowerCase().includes(q)));
        if (!kinds.length) return null;
        return (
          <section key={g} className="ed-palette-group">
            <h3>{t(`editor.groups.${g}`)}</h3>
            {kinds.map((k) => (
              <button
                key={k.type}
                type="button"
                className="ed-palette-item"
                draggable
                data-type={k.type}
                title={t(`editor.typeHints.${k.type}`, { defaultValue: "" }) || undefined}
                onDragStart={(e) => {
                  e.dataTransfer.setData("application/x-botloom-node", k.type);
                  e.dataTransfer.effectAllowed = "copy";
                }}
                onClick={() => onAdd(k.type)}
              >
                <span aria-hidden>{k.icon}</span> {t(`editor.types.${k.type}`)}
              </button>
            ))}
          </section>
        );
      })}
    </aside>
  );
}

const QUICK = ["message", "keyboard", "input", "condition", "set_variable", "delay", "http_request", "photo"];

/** The small menu that adds the next node from a handle. */
export function QuickAdd({ at, onPick, onClose }: { at: { x: number; y: number }; onPick: (type: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="ed-quickmenu" role="menu" style={{ left: Math.max(0, Math.min(at.x, window.innerWidth - 220)), top: Math.max(0, Math.min(at.y, window.innerHeight - 360)) }} onKeyDown={(e) => e.key === "Escape" && onClose()}>
      {QUICK.map((type, i) => (
        <button key={type} type="button" role="menuitem" autoFocus={i === 0} onClick={() => onPick(type)}>
          {t(`editor.types.${type}`)}
        </button>
      ))}
      <button type="button" className="ghost" onClick={onClose}>{t("common.cancel")}</button>
    </div>
  );
}
