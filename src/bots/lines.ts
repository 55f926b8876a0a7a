// A bot's stdout/stderr as lines (the unit of a log entry).

/** A line longer than this is emitted in pieces: a process printing without newlines must not grow a buffer without bound. */
const MAX_PENDING = 64 * 1024;

/** Calls `emit` for each non-blank line of `stream`; settles when the stream ended. */
export async function readLines(stream: ReadableStream<Uint8Array>, emit: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let rest = "";
  const line = (l: string) => {
    if (l.trim()) emit(l);
  };
  try {
    for await (const chunk of stream) {
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) line(l);
      if (rest.length > MAX_PENDING) {
        line(rest);
        rest = "";
      }
    }
  } catch {
    // the pipe broke with the process; what was read is kept
  }
  line(rest);
}
