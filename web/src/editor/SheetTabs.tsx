// Sheet tabs: open, add, rename (double click), duplicate, delete, reorder.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { addSheet, deleteSheet, duplicateSheet, moveSheet, renameSheet } from "./ops";
import { useEditor, type EditorStore } from "./store";

export function SheetTabs({ store, readOnly }: { store: EditorStore; readOnly?: boolean }) {
  const { t } = useTranslation();
  const sheets = useEditor(store, (s) => s.doc.sheets);
  const active = useEditor(store, (s) => s.sheetId);
  const [editing, setEditing] = useState<string | null>(null);
  const current = sheets.find((s) => s.id === active);
  return (
    <div className="ed-sheets" role="tablist" aria-label={t("editor.sheets.title")}>
      {sheets.map((s) => (
        <div key={s.id} className={s.id === active ? "ed-sheet active" : "ed-sheet"}>
          {editing === s.id ? (
            <input
              autoFocus
              aria-label={t("editor.sheets.rename")}
              defaultValue={s.name ?? ""}
              onBlur={(e) => {
                const name = e.target.value.trim();
                if (name && name !== s.name) store.commit(renameSheet(store.state.doc, s.id, name));
                setEditing(null);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") (e.target as HTMLInputElement).blur();
                if (e.key === "Escape") setEditing(null);
              }}
            />
          ) : (
            <button type="button" role="tab" aria-selected={s.id === active} onClick={() => store.openSheet(s.id)} onDoubleClick={() => !readOnly && setEditing(s.id)}>
              {s.name ?? s.id} <span className="muted small">{s.nodes.length}</span>
            </button>
          )}
        </div>
      ))}
      {!readOnly && <button type="button" className="ghost" title={t("editor.sheets.add")} aria-label={t("editor.sheets.add")} onClick={() => {
        const r = addSheet(store.state.doc, t("editor.sheets.newName", { n: store.state.doc.sheets.length + 1 }));
        store.commit(r.doc, { sheetId: r.id });
      }}>+</button>}
      {current && !readOnly && (
        <span className="ed-sheet-tools">
          <button type="button" className="ghost" onClick={() => setEditing(current.id)}>{t("editor.sheets.rename")}</button>
          <button type="button" className="ghost" onClick={() => {
            const r = duplicateSheet(store.state.doc, current.id, `${current.name ?? current.id} (2)`);
            store.commit(r.doc, { sheetId: r.id });
          }}>{t("editor.sheets.duplicate")}</button>
          <button type="button" className="ghost" aria-label={t("editor.sheets.left")} onClick={() => store.commit(moveSheet(store.state.doc, current.id, -1))}>◀</button>
          <button type="button" className="ghost" aria-label={t("editor.sheets.right")} onClick={() => store.commit(moveSheet(store.state.doc, current.id, 1))}>▶</button>
          <button type="button" className="ghost danger" disabled={sheets.length < 2} onClick={() => {
            if (confirm(t("editor.sheets.confirmDelete", { name: current.name ?? current.id }))) store.commit(deleteSheet(store.state.doc, current.id));
          }}>{t("editor.sheets.delete")}</button>
        </span>
      )}
    </div>
  );
}
