import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const sha256Hex = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex");
export const hmacHex = (key: string | Uint8Array, data: string) => createHmac("sha256", key).update(data).digest("hex");

/** Constant-time comparison of two strings (different lengths compare as unequal, still in constant time for the longer). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Base62 of `bytes` random bytes (rejection sampling keeps it unbiased). */
export function randomBase62(bytes: number): string {
  const want = Math.ceil((bytes * 8) / Math.log2(62));
  let out = "";
  while (out.length < want) {
    for (const b of randomBytes(want * 2)) {
      if (b < 248 && out.length < want) out += BASE62[b % 62];
    }
  }
  return out;
}
