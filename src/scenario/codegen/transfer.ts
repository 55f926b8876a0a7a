// Large texts cross between the event loop and the generator's worker (off-thread.ts) as bytes
// whose buffer moves instead of being copied.

/** The buffer to move with a message: bytes that own their whole buffer; a string is copied as usual. */
export function transferable(data: string | Uint8Array): ArrayBuffer[] {
  if (typeof data === "string" || !(data.buffer instanceof ArrayBuffer)) return [];
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? [data.buffer] : [];
}
