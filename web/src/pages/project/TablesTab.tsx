// The scenario's tables (docs/tables.md): the list with row counts, a grid of one table with
// paging, sort by a column header, search, cells edited in place, rows added and deleted, and CSV or
// JSON import and export. ?table= in the address names the open table.
import "./tables/tables.css";
import { useEffect, useRef, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "wouter";
import { errorText } from "../../api/client";
import { ErrorLine } from "../../components/ui";
import { useDebounced } from "./dialogs/controls";
import { deleteRow, exportUrl, importFile, insertRow, listTables, readRows, updateRow, type Cell, type TableItem } from "./tables/api";
import { Grid, type Sort } from "./tables/Grid";
import { registerTablesStrings } from "./tables/i18n";

registerTablesStrings();

const PER_PAGE = 50;

export function TablesTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tables = useQuery({ queryKey: ["tables", projectId], queryFn: () => listTables(projectId), refetchInterval: 10_000 });
  if (tables.isPending) return <p>{t("common.loading")}</p>;
  if (tables.isError) return <ErrorLine error={tables.error} />;
  const items = tables.data.items;
  const open = items.find((x) => x.name === params.get("table")) ?? items[0];
  return (
    <div className="stack">
      <div>
        <h2>{t("tables.title")}</h2>
        <p className="muted small">{t("tables.intro")}</p>
      </div>
      {items.length === 0 ? (
        <p className="muted" data-testid="tables-none">{t("tables.none")}</p>
      ) : (
        <div className="tbl-layout">
          <nav className="card tbl-list" aria-label={t("tables.list")} data-testid="table-list">
            {items.map((x) => (
              <button key={x.name} type="button" className={x.name === open?.name ? "list-btn active" : "list-btn"} aria-current={x.name === open?.name ? "true" : undefined} onClick={() => setParams({ table: x.name })}>
                <span className="ellipsis">{x.name}</span> <span className="muted small">{t("tables.rows", { count: x.rows })}</span>
              </button>
            ))}
          </nav>
          {open && <TableView key={open.name} projectId={projectId} table={open} />}
        </div>
      )}
    </div>
  );
}

function TableView({ projectId, table }: { projectId: number; table: TableItem }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim());
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ column: "_id", order: "asc" });
  useEffect(() => setPage(1), [term]);
  const rows = useQuery({
    queryKey: ["table-rows", projectId, table.name, page, sort, term],
    queryFn: () => readRows(projectId, table.name, { page, perPage: PER_PAGE, sort: sort.column, order: sort.order, search: term }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["table-rows", projectId, table.name] });
    void qc.invalidateQueries({ queryKey: ["tables", projectId] });
  };
  // The list's poll brings the bot's inserts and deletes as a new row count: the page is read again
  // then, so the grid never shows fewer rows than the list beside it (and a quiet table costs no read).
  const seenRows = useRef(table.rows);
  useEffect(() => {
    if (seenRows.current === table.rows) return;
    seenRows.current = table.rows;
    void qc.invalidateQueries({ queryKey: ["table-rows", projectId, table.name] });
  }, [table.rows, projectId, table.name, qc]);
  const data = rows.data;
  const from = data && data.items.length > 0 ? (data.page - 1) * data.perPage + 1 : 0;
  const to = data ? from + data.items.length - 1 : 0;
  const writable = table.readOnly === null;
  return (
    <section className="tbl-main stack" aria-label={table.name}>
      {!writable && <p className="warn-text small" role="note">{t("tables.readOnly", { reason: table.readOnly })}</p>}
      <div className="tbl-tools">
        <input type="search" aria-label={t("tables.search")} value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t("tables.search")} />
        <a className="btn small-btn" href={exportUrl(projectId, table.name, "csv")} download>{t("tables.exportCsv")}</a>
        <a className="btn small-btn" href={exportUrl(projectId, table.name, "json")} download>{t("tables.exportJson")}</a>
      </div>
      <ErrorLine error={rows.error} />
      {data && data.items.length === 0 ? (
        <p className="muted">{term ? t("tables.noMatch") : t("tables.empty")}</p>
      ) : data ? (
        <Grid
          table={table}
          rows={data.items}
          sort={sort}
          onSort={(s) => { setSort(s); setPage(1); }}
          onSave={async (id, column, value) => {
            await updateRow(projectId, table.name, id, { [column]: value });
            refresh();
          }}
          onDelete={async (id) => {
            await deleteRow(projectId, table.name, id);
            refresh();
          }}
        />
      ) : null}
      {data && data.total > 0 && (
        <div className="row between">
          <button type="button" className="btn small-btn" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t("common.prev")}</button>
          <span className="muted small" data-testid="table-range">{t(data.totalCapped ? "tables.rangeCapped" : "tables.range", { from, to, total: data.total })}</span>
          <button type="button" className="btn small-btn" disabled={to >= data.total} onClick={() => setPage(page + 1)}>{t("common.next")}</button>
        </div>
      )}
      {writable && <AddRow projectId={projectId} table={table} onAdded={refresh} />}
      {writable && <ImportFile projectId={projectId} table={table} onDone={refresh} />}
    </section>
  );
}

function AddRow({ projectId, table, onAdded }: { projectId: number; table: TableItem; onAdded: () => void }) {
  const { t } = useTranslation();
  const columns = table.columns.filter((c) => c.name !== table.key);
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open) return <div><button type="button" className="btn small-btn" onClick={() => setOpen(true)}>{t("tables.add")}</button></div>;
  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      const row: Record<string, Cell> = {};
      for (const [k, v] of Object.entries(values)) if (v !== "") row[k] = v;
      await insertRow(projectId, table.name, row);
      setValues({});
      setOpen(false);
      onAdded();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card stack" aria-label={t("tables.adding")} onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <h3>{t("tables.adding")}</h3>
      <div className="tbl-add">
        {columns.map((c) => (
          <label key={c.name}>
            <span className="small">{c.name} {c.type && <span className="muted">{c.type}</span>}</span>
            <input value={values[c.name] ?? ""} onChange={(e) => setValues({ ...values, [c.name]: e.target.value })} />
          </label>
        ))}
      </div>
      <p className="muted small">{t("tables.addHint")}</p>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="row end">
        <button type="button" className="btn" onClick={() => setOpen(false)}>{t("tables.cancel")}</button>
        <button type="submit" className="btn primary" disabled={busy}>{t("tables.create")}</button>
      </div>
    </form>
  );
}

function ImportFile({ projectId, table, onDone }: { projectId: number; table: TableItem; onDone: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<"append" | "replace">("append");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async () => {
    if (!file) return;
    setBusy(true);
    setResult(null);
    try {
      const r = await importFile(projectId, table.name, file, mode);
      setResult({ ok: true, text: t("tables.imported", { count: r.inserted }) });
      onDone();
    } catch (e) {
      setResult({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card stack" aria-labelledby="tbl-import-title">
      <h3 id="tbl-import-title">{t("tables.importTitle")}</h3>
      <div className="row">
        <label>
          <span className="small">{t("tables.file")}</span>
          <input type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => { setFile(e.target.files?.[0] ?? null); setResult(null); }} />
        </label>
        <label>
          <span className="small">{t("tables.mode")}</span>
          <select value={mode} onChange={(e) => setMode(e.target.value as "append" | "replace")}>
            <option value="append">{t("tables.modes.append")}</option>
            <option value="replace">{t("tables.modes.replace")}</option>
          </select>
        </label>
        <button type="button" className="btn primary" disabled={!file || busy} onClick={() => void run()}>{busy ? t("tables.importing") : t("tables.importBtn")}</button>
      </div>
      <p className="muted small">{t("tables.importHint")}</p>
      {result && <p className={result.ok ? "small" : "error"} role={result.ok ? "status" : "alert"} data-testid="import-result">{result.text}</p>}
    </section>
  );
}
