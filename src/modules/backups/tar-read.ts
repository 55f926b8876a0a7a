// A tar stream read piece by piece, the counterpart of tar.ts: ustar headers (and the older v7
// ones), pax extended headers for a long name or a large size, GNU long names. Each entry's data is
// handed on in the pieces it arrives in, so an archive of any size passes through a buffer of one
// chunk. It reads names as they are written, never as paths on this disk: what to do with an entry
// is its caller's choice (archive-unpack.ts).

import { BLOCK, paddingOf as padding } from "./tar-blocks";

/** A pax header or a GNU long name is read whole: more than this is no archive of ours. */
const MAX_META = 1 << 20;

export class TarError extends Error {}

export interface TarHeader {
  name: string;
  size: number;
  /** A regular file ('0', '7', or NUL in the oldest archives); links, folders, devices and the rest are not. */
  file: boolean;
}

/**
 * Calls `entry` with each entry of the tar stream `source` and its data, one after the other;
 * whatever data `entry` leaves unread is skipped. The entries end at the end-of-archive block or
 * where the stream ends between entries; what follows that block is read and dropped, so that the
 * stream is read to its end (gunzip checks its CRC there). Throws TarError when a header is not one
 * (its checksum is wrong) or the stream ends inside an entry.
 */
export async function readTar(source: AsyncIterable<Uint8Array>, entry: (header: TarHeader, data: AsyncIterable<Uint8Array>) => Promise<void>): Promise<void> {
  const input = new Input(source);
  /** What a pax header or a GNU long name says of the entry that follows it. */
  let next: { name?: string; size?: number } = {};
  for (;;) {
    const block = await input.exactly(BLOCK);
    if (block === null) return;
    if (block.every((b) => b === 0)) return input.drain();
    const h = parseHeader(block);
    const type = String.fromCharCode(block[156]!);
    if (type === "x" || type === "L") {
      if (h.size > MAX_META) throw new TarError(`a ${type === "x" ? "pax header" : "long name"} of ${h.size} bytes`);
      const meta = h.size ? await input.exactly(h.size) : new Uint8Array(0);
      if (meta === null) throw new TarError("it ends inside an entry");
      await input.skip(padding(h.size));
      next = type === "x" ? { ...next, ...paxRecords(meta) } : { ...next, name: cString(meta, 0, meta.length) };
      continue;
    }
    // A global pax header and a GNU long link name: nothing read here needs them.
    if (type === "g" || type === "K") {
      await input.skip(h.size + padding(h.size));
      continue;
    }
    // Symbolic links, devices, folders and fifos carry no data, whatever their size field says (as libarchive reads them).
    const size = "23456".includes(type) ? 0 : (next.size ?? h.size);
    const header: TarHeader = { name: next.name ?? h.name, size, file: type === "0" || type === "7" || type === "\0" };
    next = {};
    let left = size;
    const data = {
      async *[Symbol.asyncIterator]() {
        while (left > 0) {
          const piece = await input.next(left);
          left -= piece.length;
          yield piece;
        }
      },
    };
    await entry(header, data);
    while (left > 0) left -= (await input.next(left)).length;
    await input.skip(padding(size));
  }
}


function parseHeader(block: Uint8Array): { name: string; size: number } {
  const stored = octal(block, 148, 8);
  // The sum of the header's bytes with its checksum field as spaces; some old writers summed signed bytes.
  let unsigned = 8 * 0x20;
  let signed = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) {
    if (i >= 148 && i < 156) continue;
    unsigned += block[i]!;
    signed += (block[i]! << 24) >> 24;
  }
  if (stored === null || (stored !== unsigned && stored !== signed)) throw new TarError("a header's checksum is wrong");
  const name = cString(block, 0, 100);
  // POSIX ustar ("ustar\0") keeps the start of a long name in its prefix field; GNU's ("ustar  ") keeps other things there.
  const ustar = cString(block, 257, 6) === "ustar" && block[262] === 0;
  const prefix = ustar ? cString(block, 345, 155) : "";
  return { name: prefix ? `${prefix}/${name}` : name, size: sizeField(block) };
}

/** The size field: octal digits, or (GNU, for 8 GiB and more) a big-endian number flagged by its first byte's top bit. */
function sizeField(block: Uint8Array): number {
  if (block[124]! & 0x80) {
    let n = block[124]! & 0x7f;
    for (let i = 125; i < 136; i++) n = n * 256 + block[i]!;
    if (!Number.isSafeInteger(n)) throw new TarError("an entry's size is out of range");
    return n;
  }
  const n = octal(block, 124, 12);
  if (n === null) throw new TarError("an entry's size is not a number");
  return n;
}

/** An octal field (leading spaces, then digits up to a NUL or a space); null when there are no digits or others. */
function octal(block: Uint8Array, offset: number, length: number): number | null {
  const text = cString(block, offset, length).trim();
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : null;
}

const decoder = new TextDecoder();

function cString(bytes: Uint8Array, offset: number, length: number): string {
  const field = bytes.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return decoder.decode(end < 0 ? field : field.subarray(0, end));
}

/** The path and size of pax records ("<length> <key>=<value>\n"); other keys are of no use here. */
function paxRecords(bytes: Uint8Array): { name?: string; size?: number } {
  const out: { name?: string; size?: number } = {};
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const length = space > at ? Number(decoder.decode(bytes.subarray(at, space))) : NaN;
    if (!Number.isSafeInteger(length) || length <= space - at || at + length > bytes.length || bytes[at + length - 1] !== 0x0a) throw new TarError("a pax header is malformed");
    const record = decoder.decode(bytes.subarray(space + 1, at + length - 1));
    const eq = record.indexOf("=");
    if (eq < 0) throw new TarError("a pax header is malformed");
    const [key, value] = [record.slice(0, eq), record.slice(eq + 1)];
    if (key === "path") out.name = value;
    if (key === "size") {
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new TarError("an entry's size is out of range");
      out.size = Number(value);
    }
    at += length;
  }
  return out;
}

/** The bytes of `source` as they are asked for, never more than one of its chunks held. */
class Input {
  private readonly chunks: AsyncIterator<Uint8Array>;
  private head: Uint8Array = new Uint8Array(0);

  constructor(source: AsyncIterable<Uint8Array>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  /** The next bytes, at most `max` (and at least one); null where the stream ends. */
  private async some(max: number): Promise<Uint8Array | null> {
    while (this.head.length === 0) {
      const r = await this.chunks.next();
      if (r.done) return null;
      this.head = r.value;
    }
    const out = this.head.subarray(0, max);
    this.head = this.head.subarray(out.length);
    return out;
  }

  /** The next bytes of an entry, at most `max`: the stream must not end here. */
  async next(max: number): Promise<Uint8Array> {
    const piece = await this.some(max);
    if (piece === null) throw new TarError("it ends inside an entry");
    return piece;
  }

  /** The next `n` bytes in one buffer; null where the stream ends before the first of them. */
  async exactly(n: number): Promise<Uint8Array | null> {
    const first = await this.some(n);
    if (first === null || first.length === n) return first;
    const out = new Uint8Array(n);
    out.set(first);
    for (let at = first.length; at < n; ) {
      const piece = await this.next(n - at);
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  }

  async skip(n: number) {
    while (n > 0) n -= (await this.next(n)).length;
  }

  async drain() {
    this.head = new Uint8Array(0);
    while (!(await this.chunks.next()).done);
  }
}
