// What every storage backend offers the media module and the /uploads server.
import type { TestResult } from "../model";

export interface StoredObject {
  /** A Bun file (local) or a byte stream (object store). */
  body: Blob | ReadableStream<Uint8Array>;
  size: number | null;
}

export interface StorageBackend {
  readonly kind: "local" | "objstore";
  /** Writes the whole object; `data` is already in memory (multipart bodies are), so sizes are exact. */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** null when the object does not exist. */
  read(key: string): Promise<StoredObject | null>;
  /** Removing a missing object is not an error. */
  remove(key: string): Promise<void>;
  test(): Promise<TestResult>;
  /** Where a public link may redirect instead of streaming (object store with `publicUrlBase`). */
  publicUrl(key: string): string | null;
  close(): void;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._~-]{0,199}$/;

/**
 * Object keys we write or serve: `/`-separated segments of safe characters, none starting with a
 * dot (no `.`/`..`, no hidden or temporary files), at most 8 levels. Everything else is refused
 * before it reaches a file system or a bucket.
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024) return false;
  const parts = key.split("/");
  return parts.length <= 8 && parts.every((p) => SEGMENT.test(p));
}
