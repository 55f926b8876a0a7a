// A table of the Analytics tab as CSV, made in the browser from the JSON it already shows.
import { csvCell } from "../../../../../src/lib/csv-cell";

export function tableCsv(head: string[], rows: unknown[][]): string {
  return [head, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
