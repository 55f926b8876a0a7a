// The client address of the per-address limits (docs/configuration.md "TRUSTED_PROXIES"). Forwarding
// headers are believed only from the proxies the operator names: anyone else could forge them.
import { isIP } from "node:net";

/** An IP address in one spelling (lower case, IPv4-mapped IPv6 as IPv4), or null when it is none. */
export function normalizeAddress(text: string): string | null {
  let a = text.trim().toLowerCase();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  if (a.startsWith("::ffff:") && isIP(a.slice(7)) === 4) a = a.slice(7);
  return isIP(a) === 0 ? null : a;
}

/**
 * The client behind `peer`: `peer` itself unless it is a trusted proxy; then X-Forwarded-For is read
 * from the right (each proxy appends the address it saw), skipping trusted proxies, and the first
 * other address is the client. A malformed entry ends the walk at the last trusted hop: what lies
 * left of it was written by someone we do not trust.
 */
export function clientBehindProxies(peer: string, forwardedFor: string | null, trusted: ReadonlySet<string>): string {
  let client = normalizeAddress(peer) ?? peer;
  if (trusted.size === 0 || !trusted.has(client) || !forwardedFor) return client;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]!);
    if (hop === null) return client;
    client = hop;
    if (!trusted.has(hop)) return hop;
  }
  return client;
}
