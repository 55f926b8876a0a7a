// HTTP/1.1 as raw bytes on a fresh loopback connection: for requests a fetch() cannot make (a
// declared Content-Length the body never reaches, CR/LF inside headers, a forged length).
export interface RawAnswer {
  /** 0 when nothing parseable came back in time */
  status: number;
  /** the body after the head */
  text: string;
  /** milliseconds until the head of the answer arrived (for benchmarks) */
  headMs: number | null;
}

/** Writes the request; resolves with the answer once it is complete, closed, or `waitMs` passed. */
export async function rawHttp(port: number, lines: string[], body = "", waitMs = 3000): Promise<RawAnswer> {
  let out = "";
  let headMs: number | null = null;
  const t0 = performance.now();
  const answered = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, d) {
        out += d.toString();
        const end = out.indexOf("\r\n\r\n");
        if (end >= 0) headMs ??= performance.now() - t0;
        const len = /content-length: (\d+)/i.exec(out);
        if (end >= 0 && (!len || out.length >= end + 4 + Number(len[1]))) answered.resolve();
      },
      close: () => answered.resolve(),
      error: () => answered.resolve(),
    },
  });
  socket.write(lines.join("\r\n") + "\r\n\r\n" + body);
  const timer = setTimeout(() => answered.resolve(), waitMs);
  await answered.promise;
  clearTimeout(timer);
  socket.end();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0);
  return { status, text: out.slice(out.indexOf("\r\n\r\n") + 4), headMs };
}
