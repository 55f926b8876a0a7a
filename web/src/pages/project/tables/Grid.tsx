// A page of a table's rows: headers that sort, cells edited in place (Enter saves, Escape leaves,
// Shift+Enter is a line break), and a delete button per row behind a confirmation.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../api/client";
import { ConfirmDialog } from "../../../components/ui";
import type { Cell, Row, TableItem } from "./api";

export interface Sort {
  column: string;
  order: "asc" | "desc";
}

export function Grid(props: {
  table: TableItem;
  rows: Row[];
  sort: Sort;
  onSort: (s: Sort) => void;
  onSave: (id: number, column: string, value: Cell) => Promise<void>;
  onDelete: (id: number) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { table, rows, sort } = props;
  const writable = table.readOnly === null;
  const [deleting, setDeleting] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const header = (column: string, label: string, type?: string) => {
    const active = sort.column === column;
    const next: Sort = { column, order: active && sort.order === "asc" ? "desc" : "asc" };
    return (
      <th key={column} aria-sort={active ? (sort.order === "asc" ? "ascending" : "descending") : "none"} scope="col">
        <button type="button" onClick={() => props.onSort(next)} title={t("tables.sortBy", { column: label })}>
          {label} {type ? <span className="tbl-type">{type}</span> : null}
          <span aria-hidden="true">{active ? (sort.order === "asc" ? "▲" : "▼") : ""}</span>
        </button>
      </th>
    );
  };
  return (
    <div className="tbl-grid">
      <table className="table" data-testid="table-grid">
        <thead>
          <tr>
            {header("_id", "_id")}
            {table.columns.filter((c) => c.name !== table.key).map((c) => header(c.name, c.name, c.type))}
            {writable && <th scope="col"><span className="sr-only">{t("common.delete")}</span></th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const id = Number(r._id);
            return (
              <tr key={id} data-row={id}>
                <td className="tbl-id">{id}</td>
                {table.columns.filter((c) => c.name !== table.key).map((c) => (
                  <td key={c.name}>
                    <EditableCell value={r[c.name] ?? null} label={t("tables.edit", { column: c.name, id })} disabled={!writable} onSave={(v) => props.onSave(id, c.name, v)} />
                  </td>
                ))}
                {writable && (
                  <td>
                    <button type="button" className="btn small-btn danger" aria-label={t("tables.remove", { id })} title={t("tables.remove", { id })} onClick={() => setDeleting(id)}>✕</button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      <ConfirmDialog
        open={deleting !== null}
        title={t("tables.removeTitle", { id: deleting })}
        confirmLabel={t("tables.removeConfirm")}
        danger
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          setBusy(true);
          void props.onDelete(deleting!).finally(() => {
            setBusy(false);
            setDeleting(null);
          });
        }}
      >
        <p>{t("tables.removeText")}</p>
      </ConfirmDialog>
    </div>
  );
}

function EditableCell({ value, label, disabled, onSave }: { value: Cell; label: string; disabled: boolean; onSave: (v: Cell) => Promise<void> }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const shown = value === null ? <span className="tbl-null">{t("tables.nullValue")}</span> : String(value);
  if (draft === null) {
    return (
      <button type="button" className="tbl-cell" aria-label={label} disabled={disabled} onClick={() => { setDraft(value === null ? "" : String(value)); setError(null); }}>
        {shown}
      </button>
    );
  }
  const save = async () => {
    // an untouched empty cell stays NULL; a number stays a number when it still reads as one
    const next: Cell = draft === "" && value === null ? null : typeof value === "number" && draft.trim() !== "" && Number.isFinite(Number(draft)) ? Number(draft) : draft;
    if (next === value) return setDraft(null);
    setSaving(true);
    try {
      await onSave(next);
      setDraft(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="stack" style={{ gap: "0.2rem" }}>
      <div className="tbl-editor">
        <textarea
          aria-label={label}
          autoFocus
          rows={Math.min(6, Math.max(1, draft.split("\n").length))}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setDraft(null);
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void save();
            }
          }}
        />
        <button type="button" className="btn small-btn primary" disabled={saving} onClick={() => void save()}>{t("tables.save")}</button>
      </div>
      {error && <p className="error small" role="alert">{error}</p>}
    </div>
  );
}
