// Pretty-printed JSON in pieces, for answers that should not hold a whole document in memory at
// once (the bot API's project export). The pieces join to exactly JSON.stringify(value, null, 2)
// for JSON data (what JSON.parse gives); the depth is bounded by the scenario limits (64 levels).
export function* prettyJsonPieces(value: unknown, indent = ""): Generator<string> {
  if (value === null || typeof value !== "object") {
    // undefined and functions never reach here from parsed JSON; JSON.stringify's own text otherwise
    yield JSON.stringify(value) ?? "null";
    return;
  }
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return void (yield "[]");
    yield "[\n";
    for (let i = 0; i < value.length; i++) {
      yield inner;
      yield* prettyJsonPieces(value[i] === undefined ? null : value[i], inner);
      yield i < value.length - 1 ? ",\n" : "\n";
    }
    yield `${indent}]`;
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function");
  if (entries.length === 0) return void (yield "{}");
  yield "{\n";
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    yield `${inner}${JSON.stringify(k)}: `;
    yield* prettyJsonPieces(v, inner);
    yield i < entries.length - 1 ? ",\n" : "\n";
  }
  yield `${indent}}`;
}

const encoder = new TextEncoder();

/**
 * A JSON object whose one string field carries `pieces` as base64, streamed: `head` is the object's
 * text up to the field's opening quote, `tail` the rest after its closing quote. Bytes are encoded
 * in runs of whole 3-byte groups, so the base64 joins up exactly as one encoding of the whole.
 */
export function base64JsonStream(head: string, pieces: Iterable<string>, tail: string): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  let carry = new Uint8Array(0);
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(head));
      }
      // Gather ~48 KB of text per chunk: fewer, larger writes.
      let text = "";
      let next = it.next();
      while (!next.done) {
        text += next.value;
        if (text.length >= 48 * 1024) break;
        next = it.next();
      }
      const bytes = encoder.encode(text);
      const all = new Uint8Array(carry.length + bytes.length);
      all.set(carry);
      all.set(bytes, carry.length);
      const done = next.done === true;
      const cut = done ? all.length : all.length - (all.length % 3);
      carry = all.slice(cut);
      if (cut > 0) controller.enqueue(encoder.encode(Buffer.from(all.subarray(0, cut)).toString("base64")));
      if (done) {
        controller.enqueue(encoder.encode(tail));
        controller.close();
      }
    },
  });
}
