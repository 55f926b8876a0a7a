// One table of the Analytics tab (sources, languages, commands, buttons) with its CSV download.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { downloadCsv } from "../../../components/ui";
import { tableCsv } from "./csv";

export interface Column<R> {
  /** i18n key of the heading */
  label: string;
  value: (r: R) => string | number | null;
  /** how the cell shows, when not the value as text */
  render?: (r: R) => ReactNode;
  numeric?: boolean;
}

export function TopTable<R>({ id, title, rows, columns, fileName }: { id: string; title: string; rows: R[]; columns: Column<R>[]; fileName: string }) {
  const { t } = useTranslation();
  const head = columns.map((c) => t(c.label));
  return (
    <section className="card an-table" aria-labelledby={`${id}-title`} data-testid={`table-${id}`}>
      <div className="row between">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="btn small-btn" disabled={rows.length === 0} onClick={() => downloadCsv(fileName, tableCsv(head, rows.map((r) => columns.map((c) => c.value(r)))))} aria-label={t("analytics.csvOf", { table: title })}>
          CSV
        </button>
      </div>
      {rows.length === 0 ? (
        <p className="muted small">{t("analytics.noData")}</p>
      ) : (
        <div className="an-scroll">
          <table>
            <thead>
              <tr>{columns.map((c, i) => <th key={c.label} className={c.numeric ? "num" : undefined} scope="col">{head[i]}</th>)}</tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>{columns.map((c) => <td key={c.label} className={c.numeric ? "num" : undefined}>{c.render ? c.render(r) : (c.value(r) ?? "—")}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
