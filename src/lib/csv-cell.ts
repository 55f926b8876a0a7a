// One CSV cell, shared by the server's exports and the Studio's client-side ones (the Studio
// imports this file, so it stays free of server imports).

/**
 * Starts every CSV download, once: Excel on Windows reads a CSV without a byte-order mark in the
 * ANSI code page, so Cyrillic (any non-Latin-1) text opens as mojibake. Our imports skip it.
 */
export const CSV_BOM = "\uFEFF";

/** A spreadsheet would run a cell starting with = + - @ (or a tab/CR) as a formula: such cells get a leading quote. */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? "" : typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
