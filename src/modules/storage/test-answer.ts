// The storage test endpoint must not work as a scanner of the server's network (issue 12): for an
// object store outside loopback, every failure is one sentence and arrives no sooner than the
// probe's time limit, so "refused", "no answer" and "HTTP 404" look alike in text and in time.
// Loopback endpoints (an object store on the same machine, as in development) keep the detailed
// reasons: scanning one's own loopback reveals nothing the operator cannot see already.
import { TEST_TIMEOUT_MS } from "./backends/objstore";

export const GENERIC_TEST_FAILURE =
  "The object store could not be used with these settings: check the endpoint, bucket, region and credentials";

/** True for http(s)://localhost, 127.0.0.0/8 and [::1] endpoints; false for no endpoint (the public service). */
export function isLoopbackEndpoint(endpoint: unknown): boolean {
  if (typeof endpoint !== "string") return false;
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Waits out the rest of the probe's time limit, counted from `startedAt` (ms). */
export async function padToTestTimeout(startedAt: number, limitMs = TEST_TIMEOUT_MS) {
  const left = startedAt + limitMs - performance.now();
  if (left > 0) await Bun.sleep(left);
}
