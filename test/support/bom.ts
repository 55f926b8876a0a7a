// A CSV download as Excel on Windows needs it (src/lib/csv-cell.ts CSV_BOM): the UTF-8 byte-order
// mark EF BB BF first, and nowhere else (a streamed export must not repeat it per chunk).
import { expect } from "bun:test";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** How many times EF BB BF occurs in `bytes`. */
export function bomCount(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let i = buf.indexOf(BOM); i >= 0; i = buf.indexOf(BOM, i + 1)) n++;
  return n;
}

/** The body starts with the BOM, and holds it once. `what` names the download in a failure. */
export function expectOneBom(bytes: Uint8Array, what: string) {
  expect({ what, first: [...bytes.subarray(0, 3)], boms: bomCount(bytes) }).toEqual({ what, first: [0xef, 0xbb, 0xbf], boms: 1 });
}
