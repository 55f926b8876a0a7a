// A tar stream written piece by piece (POSIX ustar, with a pax header for what ustar cannot hold: a
// name longer than its fields, a file of 8 GiB or more), so that an archive of any size passes
// through a buffer of one chunk. Readers: restore's own (tar-read.ts), GNU tar, libarchive.
import { open } from "node:fs/promises";
import { BLOCK, paddingOf } from "./tar-blocks";

const CHUNK = 1 << 20;
/** The largest size ustar's 11 octal digits hold. */
const USTAR_MAX_SIZE = 0o77777777777;

export type TarEntry = { name: string; text: string } | { name: string; path: string; size: number };

const encoder = new TextEncoder();

function field(block: Uint8Array, offset: number, length: number, value: string) {
  block.set(encoder.encode(value).subarray(0, length), offset);
}

const octal = (n: number, digits: number) => n.toString(8).padStart(digits, "0");

/** ustar keeps a name in `prefix` (155) + "/" + `name` (100); null when it does not fit. */
function splitName(name: string): { prefix: string; name: string } | null {
  if (encoder.encode(name).length <= 100) return { prefix: "", name };
  const cut = name.lastIndexOf("/", 155);
  if (cut <= 0) return null;
  const [prefix, rest] = [name.slice(0, cut), name.slice(cut + 1)];
  return encoder.encode(prefix).length <= 155 && encoder.encode(rest).length <= 100 ? { prefix, name: rest } : null;
}

function header(name: string, size: number, mtime: number, type: "0" | "x"): Uint8Array {
  const split = splitName(name) ?? { prefix: "", name: name.slice(0, 100) };
  const h = new Uint8Array(BLOCK);
  field(h, 0, 100, split.name);
  field(h, 100, 8, "0000600\0");
  field(h, 108, 8, "0000000\0");
  field(h, 116, 8, "0000000\0");
  field(h, 124, 12, `${octal(Math.min(size, USTAR_MAX_SIZE), 11)}\0`);
  field(h, 136, 12, `${octal(mtime, 11)}\0`);
  field(h, 148, 8, "        ");
  field(h, 156, 1, type);
  field(h, 257, 8, "ustar\u000000");
  field(h, 345, 155, split.prefix);
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, `${octal(sum, 6)}\0 `);
  return h;
}

const padding = (size: number) => new Uint8Array(paddingOf(size));

/** A pax record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = encoder.encode(body).length + 1;
  while (String(len).length + encoder.encode(body).length > len) len++;
  return `${len}${body}`;
}

function* entryHeader(name: string, size: number, mtime: number): Generator<Uint8Array> {
  const records = (splitName(name) ? "" : paxRecord("path", name)) + (size > USTAR_MAX_SIZE ? paxRecord("size", String(size)) : "");
  if (records) {
    const pax = encoder.encode(records);
    yield header(`PaxHeaders/${name.slice(-80)}`, pax.length, mtime, "x");
    yield pax;
    yield padding(pax.length);
  }
  yield header(name, size, mtime, "0");
}

/**
 * The tar stream of `entries`, files read in chunks of 1 MiB. A file must keep the size it was
 * given (staged copies no one writes): one that changed fails the archive rather than tear it.
 */
export async function* tarStream(entries: TarEntry[], mtime: number): AsyncGenerator<Uint8Array> {
  for (const e of entries) {
    if ("text" in e) {
      const bytes = encoder.encode(e.text);
      yield* entryHeader(e.name, bytes.length, mtime);
      yield bytes;
      yield padding(bytes.length);
      continue;
    }
    yield* entryHeader(e.name, e.size, mtime);
    const file = await open(e.path, "r");
    try {
      let done = 0;
      for (;;) {
        // A fresh buffer per chunk: the consumer (gzip) may still hold the previous one.
        const buf = new Uint8Array(Math.min(CHUNK, Math.max(e.size - done, 1)));
        const { bytesRead } = await file.read(buf, 0, buf.length, done);
        if (bytesRead === 0) break;
        done += bytesRead;
        if (done > e.size) break;
        yield buf.subarray(0, bytesRead);
      }
      if (done !== e.size) throw new Error(`${e.name} changed while it was archived (${e.size} bytes expected, ${done} read)`);
    } finally {
      await file.close();
    }
    yield padding(e.size);
  }
  // The end of the archive: two zero blocks.
  yield new Uint8Array(2 * BLOCK);
}
