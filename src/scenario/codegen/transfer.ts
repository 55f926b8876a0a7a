// A large program crosses from the generator's worker to the event loop (worker.ts) as bytes whose
// buffer moves instead of being copied.

/** The buffer to move with a message: bytes that own their whole buffer. */
export function transferable(data: Uint8Array): ArrayBuffer[] {
  if (!(data.buffer instanceof ArrayBuffer)) return [];
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? [data.buffer] : [];
}
