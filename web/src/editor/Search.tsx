// Node search (Ctrl+F) over every sheet: id, type and the texts a node shows. Enter or a click
// opens the node's sheet and centres it.
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { labelOf, type Doc } from "./document";

export function Search({ doc, onPick, onClose }: { doc: Doc; onPick: (id: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState("");
  const hits = useMemo(() => {
    const s = q.trim().toLowerCase();
    if (!s) return [];
    const out: { id: string; sheet: string; label: string }[] = [];
    for (const sheet of doc.sheets)
      for (const n of sheet.nodes) {
        if (n.id.toLowerCase().includes(s) || n.type.includes(s) || JSON.stringify(n.data ?? {}).toLowerCase().includes(s)) out.push({ id: n.id, sheet: sheet.name ?? sheet.id, label: labelOf(n, (type) => t(`editor.types.${type}`, type)) });
        if (out.length >= 50) return out;
      }
    return out;
  }, [doc, q, t]);
  return (
    <div className="ed-search" role="dialog" aria-label={t("editor.search.title")}>
      <input
        autoFocus
        type="search"
        aria-label={t("editor.search.title")}
        placeholder={t("editor.search.placeholder")}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onClose();
          if (e.key === "Enter" && hits[0]) onPick(hits[0].id);
        }}
      />
      <ul>
        {hits.map((h) => (
          <li key={h.id}>
            <button type="button" onClick={() => onPick(h.id)}>
              <span className="muted small">{h.sheet}</span> {h.label}
            </button>
          </li>
        ))}
        {q && hits.length === 0 && <li className="muted small">{t("editor.search.none")}</li>}
      </ul>
    </div>
  );
}
