// The streamed export equals the whole-text one: pretty JSON pieces join to JSON.stringify(v, null, 2),
// and base64 encoded piece by piece equals one encoding of the whole, at every 3-byte alignment.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { base64JsonStream, prettyJsonPieces } from "../../src/lib/json-stream";

const COMPAT = join(import.meta.dir, "../../../shared/compat");

function random(seed: number) {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const value = (depth: number): unknown => {
    const r = next();
    if (depth > 5 || r < 0.3) return [null, true, false, 0, -1.5, 1e21, "", "ж", "a\"b\\\n\u2028😀", 42][Math.floor(next() * 10)];
    if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}${"ü".repeat(i)}`, value(depth + 1)]));
  };
  return value(0);
}

describe("json stream", () => {
  test("pieces join to JSON.stringify(value, null, 2) for 2,000 random JSON values", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const v = random(seed);
      expect([...prettyJsonPieces(v)].join("")).toBe(JSON.stringify(v, null, 2));
    }
  });

  test("the export stream decodes to the same bytes as one encoding, whatever the length", async () => {
    for (const n of [0, 1, 2, 3, 4, 5, 49_151, 49_152, 49_153, 200_000]) {
      const text = "é".repeat(n % 7) + "x".repeat(n);
      const stream = base64JsonStream('{"data":"', [text.slice(0, n / 3), text.slice(n / 3)], '","end":1}');
      const parsed = JSON.parse(await new Response(stream).text());
      expect(parsed.end).toBe(1);
      expect(Buffer.from(parsed.data, "base64").toString("utf8")).toBe(text);
      expect(parsed.data).toBe(Buffer.from(text, "utf8").toString("base64"));
    }
  });

  test.skipIf(!existsSync(COMPAT))("every compat file prints identically", () => {
    for (const form of ["current", "legacy"]) {
      for (const f of readdirSync(join(COMPAT, form))) {
        const v = JSON.parse(readFileSync(join(COMPAT, form, f), "utf8"));
        expect([...prettyJsonPieces(v)].join("")).toBe(JSON.stringify(v, null, 2));
      }
    }
  });
});
