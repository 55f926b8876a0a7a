// Restore's tar reader (src/modules/backups/tar-read.ts) reads what the backup's writer (tar.ts)
// writes and what GNU tar writes, whatever sizes the stream's chunks come in, and tells a file from
// a link or a folder; a header that is not one and a stream cut inside an entry are errors.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, linkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tarStream } from "../../src/modules/backups/tar";
import { readTar, TarError, type TarHeader } from "../../src/modules/backups/tar-read";

const root = mkdtempSync(join(tmpdir(), "botloom-tar-read-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function* chunksOf(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function collect(source: AsyncIterable<Uint8Array>) {
  const out: { header: TarHeader; bytes: Uint8Array }[] = [];
  await readTar(source, async (header, data) => {
    const parts: Uint8Array[] = [];
    for await (const piece of data) parts.push(piece.slice());
    out.push({ header, bytes: Buffer.concat(parts) });
  });
  return out;
}

async function written(entries: Parameters<typeof tarStream>[0]) {
  const parts: Uint8Array[] = [];
  for await (const piece of tarStream(entries, 0)) parts.push(piece.slice());
  return new Uint8Array(Buffer.concat(parts));
}

describe("readTar", () => {
  test("reads back what the backup's writer wrote, a pax long name included, in chunks of any size", async () => {
    const big = join(root, "big.bin");
    const data = new Uint8Array(300_123).map((_, i) => (i * 7919) % 251);
    writeFileSync(big, data);
    const long = `projects/${"n".repeat(140)}.db`;
    const tar = await written([
      { name: "manifest.json", text: "{}\n" },
      { name: long, path: big, size: data.length },
      { name: "empty", text: "" },
    ]);
    for (const size of [7, 512, 100_000, tar.length]) {
      const got = await collect(chunksOf(tar, size));
      expect(got.map((e) => [e.header.name, e.header.size, e.header.file])).toEqual([
        ["manifest.json", 3, true],
        [long, data.length, true],
        ["empty", 0, true],
      ]);
      expect(Buffer.from(got[1]!.bytes).equals(Buffer.from(data))).toBe(true);
    }
  });

  test("reads GNU tar's long names; links and folders are not files", async () => {
    const dir = join(root, "gnu");
    mkdirSync(join(dir, "d"), { recursive: true });
    const long = "l".repeat(150);
    writeFileSync(join(dir, long), "hello");
    symlinkSync("/etc/passwd", join(dir, "d", "sym"));
    linkSync(join(dir, long), join(dir, "hard"));
    const archive = join(root, "gnu.tar");
    expect(Bun.spawnSync(["tar", "-cf", archive, "--format=gnu", "-C", dir, long, "hard", "d"]).exitCode).toBe(0);
    const got = await collect(chunksOf(readFileSync(archive), 4096));
    expect(got.map((e) => [e.header.name, e.header.file, new TextDecoder().decode(e.bytes)])).toEqual([
      [long, true, "hello"],
      ["hard", false, ""],
      ["d/", false, ""],
      ["d/sym", false, ""],
    ]);
  });

  test("a wrong checksum or a stream cut inside an entry is an error; what follows the end is not read as entries", async () => {
    const tar = await written([{ name: "a", text: "x".repeat(2000) }]);
    const damaged = tar.slice();
    damaged[0] = "b".charCodeAt(0);
    await expect(collect(chunksOf(damaged, 512))).rejects.toThrow(new TarError("a header's checksum is wrong"));
    await expect(collect(chunksOf(tar.subarray(0, 1024), 512))).rejects.toThrow(new TarError("it ends inside an entry"));
    // After the end: another archive's entry, read through and dropped.
    const after = new Uint8Array(Buffer.concat([tar, await written([{ name: "b", text: "y" }])]));
    expect((await collect(chunksOf(after, 1000))).map((e) => e.header.name)).toEqual(["a"]);
  });
});
