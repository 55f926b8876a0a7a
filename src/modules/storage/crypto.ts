// Sealing of storage credentials at rest (docs/api.md#storage-rules rule 2): AES-256-GCM with a key derived
// from STORAGE_ENCRYPTION_KEY by HKDF-SHA-256. The salt is fixed so the same server key always
// opens what it sealed; the row id is bound as additional data, so a sealed value copied into
// another row does not open there.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const SALT = "botloom/storage-credentials";
const INFO = "aes-256-gcm v1";
const PREFIX = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class UnreadableSecretError extends Error {}

const keys = new Map<string, Buffer>();

function deriveKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, SALT, INFO, 32));
    keys.set(secret, key);
  }
  return key;
}

/** `v1.` + base64url(iv | tag | ciphertext). */
export function seal(secret: string, plaintext: string, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secret), iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Throws UnreadableSecretError when the value was sealed with another key, for another row, or was altered. */
export function open(secret: string, sealed: string, aad: string): string {
  if (!sealed.startsWith(PREFIX)) throw new UnreadableSecretError("unknown sealed format");
  const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new UnreadableSecretError("sealed value is truncated");
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey(secret), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new UnreadableSecretError("sealed value cannot be opened with this key");
  }
}
