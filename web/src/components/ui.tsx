// Small shared pieces: the error line, a confirmation dialog, a copy button, dates and sizes.
import { useEffect, useRef, useState, type ReactNode } from "react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { errorText } from "../api/client";
import { CSV_BOM } from "../../../src/lib/csv-cell";

export function ErrorLine({ error }: { error: unknown }) {
  if (!error) return null;
  return <p className="error" role="alert">{errorText(error)}</p>;
}

/** A modal confirmation (native <dialog>: focus trap and Escape come with it). */
export function ConfirmDialog(props: { open: boolean; title: string; children?: ReactNode; confirmLabel: string; danger?: boolean; busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className="dialog" onCancel={(e) => { e.preventDefault(); props.onCancel(); }} aria-labelledby="dialog-title">
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
      <div className="row end">
        <button type="button" className="btn" onClick={props.onCancel}>{t("common.cancel")}</button>
        <button type="button" className={props.danger ? "btn danger-solid" : "btn primary"} disabled={props.busy} onClick={props.onConfirm}>{props.confirmLabel}</button>
      </div>
    </dialog>
  );
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API needs a secure context; a plain-http VPS falls back to selection copy.
      const area = document.createElement("textarea");
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return <button type="button" className="btn small-btn" onClick={() => void copy()}>{done ? t("common.copied") : (label ?? t("common.copy"))}</button>;
}

export function useDates() {
  const { i18n } = useTranslation();
  const toDate = (v: string | number | null | undefined) => {
    if (v === null || v === undefined || v === "") return null;
    const d = new Date(typeof v === "string" && /^\d{4}-\d{2}-\d{2} /.test(v) ? `${v.replace(" ", "T")}Z` : v);
    return Number.isNaN(d.getTime()) ? null : d;
  };
  return {
    date: (v: string | number | null | undefined) => toDate(v)?.toLocaleDateString(i18n.language) ?? "—",
    dateTime: (v: string | number | null | undefined) => toDate(v)?.toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "medium" }) ?? "—",
  };
}

export function formatSize(bytes: number): string {
  const one = (n: number) => n.toLocaleString(i18next.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (bytes < 1024) return i18next.t("units.bytes", { n: bytes });
  if (bytes < 1024 * 1024) return i18next.t("units.kb", { n: one(bytes / 1024) });
  return i18next.t("units.mb", { n: one(bytes / 1024 / 1024) });
}

/**
 * Saves a CSV with the UTF-8 BOM first, once (CSV_BOM: Excel on Windows needs it for non-Latin
 * text). A CSV fetched from the server lost the server's BOM in fetch's text(), so it goes back here.
 */
export function downloadCsv(fileName: string, csv: string) {
  downloadText(fileName, csv.startsWith(CSV_BOM) ? csv : CSV_BOM + csv, "text/csv");
}

/** Saves text as a file through a temporary object URL (no server round trip). */
export function downloadText(fileName: string, text: string, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
