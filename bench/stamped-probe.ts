// A health probe that reads, with each answer, the kernel's time of its arrival at the probe's
// socket (SO_TIMESTAMPNS): the server's part of a request's latency, without the time the probe's
// own process then waits for a core to read it. On a machine the load keeps busy that wait is
// the probe's, not the server's (docs/performance.md "The figure, eighteenth stop").
//
//   bun bench/stamped-probe.ts <url> <ms> <warmupMs> [everyMs]
// One request at a time on one kept-alive connection, 10 ms apart (everyMs), through libc (blocking calls:
// the process does nothing else). Prints {"seen":[...],"atSocket":[...]} in ms, one pair per request.
import { dlopen, FFIType, ptr } from "bun:ffi";

const [url, msArg, warmupArg, everyArg] = process.argv.slice(2);
const { hostname, port } = new URL(url!);
if (hostname !== "127.0.0.1") throw new Error("the stamped probe speaks IPv4 to 127.0.0.1 only");
const ms = Number(msArg);
const warmupMs = Number(warmupArg ?? 0);
/** ms between a request's answer and the next request */
const everyMs = Number(everyArg ?? 10);

const libc = dlopen("libc.so.6", {
  socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  connect: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
  setsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
  send: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i64 },
  recvmsg: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i64 },
  clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  close: { args: [FFIType.i32], returns: FFIType.i32 },
});
const { socket, connect, setsockopt, send, recvmsg, clock_gettime, close } = libc.symbols;

const AF_INET = 2, SOCK_STREAM = 1, SOL_SOCKET = 1, SO_TIMESTAMPNS = 35, IPPROTO_TCP = 6, TCP_NODELAY = 1;
const CLOCK_REALTIME = 0;

const fd = socket(AF_INET, SOCK_STREAM, 0);
if (fd < 0) throw new Error("socket() failed");
const addr = new Uint8Array(new ArrayBuffer(16));
const av = new DataView(addr.buffer);
av.setUint16(0, AF_INET, true);
av.setUint16(2, Number(port), false);
addr.set([127, 0, 0, 1], 4);
if (connect(fd, ptr(addr), 16) !== 0) throw new Error("connect() failed");
const one = new Int32Array(new ArrayBuffer(4));
one[0] = 1;
if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, ptr(one), 4) !== 0) throw new Error("SO_TIMESTAMPNS refused");
setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, ptr(one), 4);

const request = new TextEncoder().encode(`GET /api/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
const buf = new Uint8Array(65536);
// Each buffer the kernel reads or writes is made from its own ArrayBuffer before any ptr(): asking a
// small typed array for its .buffer later moves its bytes, and the kernel would write to the old place.
const control = new Uint8Array(new ArrayBuffer(64));
const iov = new BigUint64Array(new ArrayBuffer(16));
iov[0] = BigInt(ptr(buf));
iov[1] = BigInt(buf.length);
const msg = new Uint8Array(new ArrayBuffer(56));
const mv = new DataView(msg.buffer);
const cv = new DataView(control.buffer);
mv.setBigUint64(16, BigInt(ptr(iov)), true); // msg_iov
mv.setBigUint64(24, 1n, true); // msg_iovlen
mv.setBigUint64(32, BigInt(ptr(control)), true); // msg_control
const ts = new BigInt64Array(new ArrayBuffer(16));

clock_gettime(CLOCK_REALTIME, ptr(ts));
/** whole seconds taken off both clocks' readings, so that a double keeps their nanoseconds */
const epoch = ts[0]!;
const msOf = (sec: bigint, nsec: bigint) => Number(sec - epoch) * 1e3 + Number(nsec) / 1e6;
/** CLOCK_REALTIME, the clock of the kernel's receive stamps, in ms */
const nowMs = () => {
  clock_gettime(CLOCK_REALTIME, ptr(ts));
  return msOf(ts[0]!, ts[1]!);
};

/** Reads one whole answer; the stamp of its last stamped segment, in ms of CLOCK_REALTIME (NaN: none). */
function readAnswer(): number {
  let text = "";
  let stamp = NaN;
  for (;;) {
    mv.setBigUint64(40, BigInt(control.length), true); // msg_controllen, reset per call
    const n = Number(recvmsg(fd, ptr(msg), 0));
    if (n <= 0) throw new Error("the server closed the probe's connection");
    // cmsghdr: len (8), level (4), type (4), then the timespec
    if (Number(mv.getBigUint64(40, true)) >= 32 && cv.getInt32(8, true) === SOL_SOCKET && cv.getInt32(12, true) === SO_TIMESTAMPNS) {
      stamp = msOf(cv.getBigInt64(16, true), cv.getBigInt64(24, true));
    }
    text += Buffer.from(buf.subarray(0, n)).toString("latin1");
    const head = text.indexOf("\r\n\r\n");
    if (head < 0) continue;
    const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
    if (text.length < head + 4 + length) continue;
    if (!text.startsWith("HTTP/1.1 200")) throw new Error("health " + text.slice(0, 12));
    return stamp;
  }
}

const seen: number[] = [];
const atSocket: number[] = [];
let unstamped = 0;
const from = performance.now() + warmupMs;
const end = from + ms;
while (performance.now() < end) {
  const t = performance.now();
  const sentAt = nowMs();
  if (Number(send(fd, ptr(request), request.length, 0)) !== request.length) throw new Error("send() failed");
  const stamp = readAnswer();
  const took = performance.now() - t;
  if (t >= from) {
    seen.push(took);
    if (Number.isNaN(stamp)) unstamped++;
    atSocket.push(Number.isNaN(stamp) ? took : stamp - sentAt);
  }
  Bun.sleepSync(everyMs);
}
close(fd);
console.log(JSON.stringify({ seen, atSocket, unstamped }));
