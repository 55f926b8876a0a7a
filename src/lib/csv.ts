// CSV as RFC 4180 reads it (quoted fields hold commas, quotes as "" and line breaks; records end
// with CRLF or LF), with two additions that make a table's export import back unchanged
// (docs/tables.md "CSV"): an empty unquoted field is NULL while "" is the empty text, and a text a
// spreadsheet would run as a formula gets a leading ' (OWASP's advice), which the import takes off.

/** Starts a formula in a spreadsheet: = + - @ TAB CR, after any quotes already prefixed. */
const FORMULA = /^'*[=+\-@\t\r]/;

/** One field: NULL empty, text quoted when it must be, formula-like text prefixed with '. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "string" ? v : v instanceof Uint8Array ? Buffer.from(v).toString("base64") : typeof v === "object" ? JSON.stringify(v) : String(v);
  if (typeof v === "string" && FORMULA.test(s)) s = `'${s}`;
  return s === "" || /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export const csvRecord = (values: readonly unknown[]) => values.map(csvField).join(",") + "\r\n";

/** A field as read: null for an empty unquoted field; the export's formula prefix taken off. */
export type CsvField = string | null;

export class CsvError extends Error {
  constructor(
    /** 1-based record number, the header being record 1 */
    readonly record: number,
    message: string,
  ) {
    super(message);
  }
}

/** The records of `text` (a BOM at the start is ignored; a last empty line is no record). */
export function parseCsv(text: string): CsvField[][] {
  const records: CsvField[][] = [];
  let record: CsvField[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  if (i >= n) return records;
  for (;;) {
    // One field from i.
    let field: CsvField;
    if (text[i] === '"') {
      let out = "";
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) throw new CsvError(records.length + 1, "a quoted field is not closed");
        out += text.slice(j, q);
        if (text[q + 1] === '"') {
          out += '"';
          j = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      if (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") throw new CsvError(records.length + 1, "text after a closing quote");
      field = out;
    } else {
      let j = i;
      while (j < n && text[j] !== "," && text[j] !== "\n" && text[j] !== "\r") j++;
      const raw = text.slice(i, j);
      if (raw.includes('"')) throw new CsvError(records.length + 1, "a quote inside an unquoted field");
      field = raw === "" ? null : raw;
      i = j;
    }
    if (typeof field === "string" && FORMULA.test(field) && field.startsWith("'")) field = field.slice(1);
    record.push(field);
    if (i >= n) {
      records.push(record);
      return records;
    }
    const c = text[i];
    i++;
    if (c === ",") continue;
    if (c === "\r" && text[i] === "\n") i++;
    records.push(record);
    record = [];
    if (i >= n) return records;
  }
}
