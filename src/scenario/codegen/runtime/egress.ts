// The egress policy: every outbound HTTP request the platform or its bots make on behalf of a
// scenario (http_request in bots and previews, the editor's "send test request", webhooks the
// preview's messenger calls) goes through egressFetch. runtime-text.ts embeds it into every
// generated program and the runners' interpreter like every runtime file (docs/runtime.md), so its
// one import is one of program.ts's IMPORTS; the server runs the same text (src/lib/shared-runtime.ts).
// See docs/security.md "Egress policy".
//
// Why hand-written rather than a library: the same text runs inside exported bots, which carry
// only grammy, croner and jsep; the table below is the IANA special-purpose registries' short list.
import { lookup as egressLookup } from "node:dns/promises";

// ─── Egress policy (outbound HTTP of scenarios) ───────────────────────────────

/** A request the policy refused (refused: true), or one that could not connect: the message names no port state. */
export class EgressError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
    this.name = "EgressError";
  }
}

/** Redirect hops followed, each checked like the first request. */
export const EGRESS_MAX_REDIRECTS = 5;

function egressParseV4(text: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const bytes = m.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function egressParseV6(input: string): number[] | undefined {
  let text = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input;
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(text)) return undefined;
  let tail: number[] | undefined;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tail = egressParseV4(text.slice(lastColon + 1));
    if (!tail) return undefined;
    text = text.slice(0, lastColon + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const groups = [...head, ...new Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...rest];
  if (!groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return undefined;
  const bytes = groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]);
  if (tail) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** An IP address as bytes (4 or 16), or undefined for a name. URL hostnames are already canonical. */
export function egressParseIp(text: string): number[] | undefined {
  return egressParseV4(text) ?? egressParseV6(text);
}

interface EgressNet {
  bytes: number[];
  prefix: number;
}

function egressParseNet(text: string): EgressNet | undefined {
  const slash = text.indexOf("/");
  const bytes = egressParseIp(slash < 0 ? text : text.slice(0, slash));
  if (!bytes) return undefined;
  const prefix = slash < 0 ? bytes.length * 8 : /^\d{1,3}$/.test(text.slice(slash + 1)) ? Number(text.slice(slash + 1)) : -1;
  return prefix >= 0 && prefix <= bytes.length * 8 ? { bytes, prefix } : undefined;
}

function egressInNet(addr: number[], net: EgressNet): boolean {
  if (addr.length !== net.bytes.length) return false;
  for (let bit = 0; bit < net.prefix; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((addr[bit >> 3]! & mask) !== (net.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

/** Addresses no scenario may reach, most specific first. Any IPv6 outside 2000::/3 is refused too. */
const EGRESS_BLOCKED: [EgressNet, string][] = (
  [
    ["0.0.0.0/8", "an unspecified address"],
    ["10.0.0.0/8", "a private address"],
    ["100.64.0.0/10", "a shared (CGNAT) address"],
    ["127.0.0.0/8", "a loopback address"],
    ["169.254.0.0/16", "a link-local address (cloud metadata lives here)"],
    ["172.16.0.0/12", "a private address"],
    ["192.0.0.0/24", "a reserved address"],
    ["192.0.2.0/24", "a documentation address"],
    ["192.88.99.0/24", "a 6to4 relay address"],
    ["192.168.0.0/16", "a private address"],
    ["198.18.0.0/15", "a benchmarking address"],
    ["198.51.100.0/24", "a documentation address"],
    ["203.0.113.0/24", "a documentation address"],
    ["224.0.0.0/4", "a multicast address"],
    ["255.255.255.255/32", "the broadcast address"],
    ["240.0.0.0/4", "a reserved address"],
    ["::/128", "an unspecified address"],
    ["::1/128", "a loopback address"],
    ["::ffff:0:0/96", "an IPv4-mapped address"],
    ["::/96", "an IPv4-compatible address"],
    ["64:ff9b::/96", "a NAT64 address"],
    ["64:ff9b:1::/48", "a NAT64 address"],
    ["fc00::/7", "a private (unique local) address"],
    ["fe80::/10", "a link-local address"],
    ["fec0::/10", "a site-local address"],
    ["ff00::/8", "a multicast address"],
    ["2001::/32", "a Teredo address"],
    ["2001:db8::/32", "a documentation address"],
    ["2001::/23", "a reserved address"],
    ["2002::/16", "a 6to4 address"],
    ["3fff::/20", "a documentation address"],
  ] as const
).map(([net, why]) => [egressParseNet(net)!, why]);
const EGRESS_GLOBAL_V6 = egressParseNet("2000::/3")!;

/** Why an address is not a public one, or undefined when it is. */
export function egressAddressProblem(addr: number[]): string | undefined {
  for (const [net, why] of EGRESS_BLOCKED) if (egressInNet(addr, net)) return why;
  if (addr.length === 16 && !egressInNet(addr, EGRESS_GLOBAL_V6)) return "a reserved address";
  return undefined;
}

/** One entry of the operator's allow list: a host name (or *.domain), an address or a network; a port or any. */
export interface EgressAllowEntry {
  host?: string;
  wildcard?: boolean;
  net?: EgressNet;
  port?: number;
}

function egressPort(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  const port = Number(text);
  return /^\d{1,5}$/.test(text) && port >= 1 && port <= 65535 ? port : null;
}

function egressParseEntry(raw: string): EgressAllowEntry | undefined {
  const text = raw.trim().toLowerCase();
  let m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (m) {
    const net = egressParseNet(m[1]!);
    const port = egressPort(m[2]);
    return net && net.bytes.length === 16 && port !== null ? { net, port } : undefined;
  }
  m = /^([\d.]+(?:\/\d+)?)(?::(\d+))?$/.exec(text);
  if (m) {
    const net = egressParseNet(m[1]!);
    const port = egressPort(m[2]);
    return net && port !== null ? { net, port } : undefined;
  }
  const v6 = egressParseNet(text);
  if (v6) return { net: v6 };
  m = /^(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)\.?(?::(\d+))?$/.exec(text);
  if (m) {
    const port = egressPort(m[3]);
    return port !== null ? { host: m[2]!, wildcard: m[1] !== undefined, port } : undefined;
  }
  return undefined;
}

/** The operator's list ("127.0.0.1:8080,10.0.0.0/8,internal.example"): its entries and the ones it could not read. */
export function parseEgressAllow(list: string): { entries: EgressAllowEntry[]; invalid: string[] } {
  const entries: EgressAllowEntry[] = [];
  const invalid: string[] = [];
  for (const raw of list.split(",")) {
    if (raw.trim() === "") continue;
    const entry = egressParseEntry(raw);
    if (entry) entries.push(entry);
    else invalid.push(raw.trim());
  }
  return { entries, invalid };
}

export interface EgressPolicy {
  allow: EgressAllowEntry[];
  /** the name service (tests give their own); the system resolver by default */
  resolve?: (host: string) => Promise<string[]>;
}

async function egressResolve(host: string): Promise<string[]> {
  return (await egressLookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

const egressDefaultPort = (url: URL) => Number(url.port) || (url.protocol === "https:" ? 443 : 80);

/**
 * The policy of one process: the operator's allow list plus the given service roots (the
 * messenger API root stays reachable wherever it runs, e.g. a local Bot API server).
 */
export function egressPolicy(allowList: string, alwaysAllowed: string[] = []): EgressPolicy {
  const allow = parseEgressAllow(allowList).entries;
  for (const root of alwaysAllowed) {
    try {
      const url = new URL(root);
      const entry = egressParseEntry(url.hostname + ":" + egressDefaultPort(url));
      if (entry) allow.push(entry);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return { allow };
}

function egressHostAllowed(policy: EgressPolicy, host: string, port: number): boolean {
  return policy.allow.some((e) => e.host !== undefined && (e.port === undefined || e.port === port) && (host === e.host || (e.wildcard === true && host.endsWith("." + e.host))));
}

function egressAddressAllowed(policy: EgressPolicy, addr: number[], port: number): boolean {
  return policy.allow.some((e) => e.net !== undefined && (e.port === undefined || e.port === port) && egressInNet(addr, e.net));
}

const egressAddressText = (addr: number[]) =>
  addr.length === 4 ? addr.join(".") : "[" + Array.from({ length: 8 }, (_, i) => ((addr[2 * i]! << 8) | addr[2 * i + 1]!).toString(16)).join(":") + "]";

/**
 * Resolves a URL's host once and checks every address it has; answers the address to connect
 * to. A name with one refused address is refused: the connection must not depend on which
 * address a resolver lists first.
 */
export async function egressCheck(policy: EgressPolicy, url: URL): Promise<{ address: string; port: number }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new EgressError("only http(s) addresses can be reached, not " + url.protocol, true);
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const port = egressDefaultPort(url);
  const literal = egressParseIp(host);
  let addresses: number[][];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = (await (policy.resolve ?? egressResolve)(host)).map((a) => egressParseIp(a)).filter((a): a is number[] => a !== undefined);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new EgressError("could not connect to " + url.host + " (name not found)");
  }
  if (!egressHostAllowed(policy, host, port)) {
    for (const addr of addresses) {
      const problem = egressAddressAllowed(policy, addr, port) ? undefined : egressAddressProblem(addr);
      if (problem) throw new EgressError(url.host + " is " + problem + ": outbound requests reach public addresses only (an operator can allow internal services)", true);
    }
  }
  return { address: egressAddressText(addresses[0]!), port };
}

export interface EgressRequest {
  method?: string;
  headers?: HeadersInit;
  body?: string;
  signal?: AbortSignal;
}

const EGRESS_REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * fetch under the policy: each hop is resolved once, checked, and connected to by address (the
 * Host header and TLS server name keep the name), so a second DNS answer cannot move it elsewhere.
 * Redirects are followed here, at most EGRESS_MAX_REDIRECTS, each checked again. A failed
 * connection is one message whatever the cause (refused, reset, TLS): no port scans through it.
 */
export async function egressFetch(policy: EgressPolicy, input: string | URL, init: EgressRequest = {}): Promise<{ response: Response; url: string }> {
  let current = new URL(input);
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  for (let hop = 0; ; hop++) {
    const { address, port } = await egressCheck(policy, current);
    if ((current.username || current.password) && !headers.has("authorization")) {
      headers.set("authorization", "Basic " + Buffer.from(decodeURIComponent(current.username) + ":" + decodeURIComponent(current.password)).toString("base64"));
    }
    headers.set("host", current.host);
    const pinned = current.protocol + "//" + address + ":" + port + current.pathname + current.search;
    const named = egressParseIp(current.hostname) === undefined;
    let response: Response;
    try {
      response = await fetch(pinned, { method, headers, body, signal: init.signal, redirect: "manual", tls: named ? { serverName: current.hostname } : undefined });
    } catch (err) {
      const name = err instanceof Error ? err.name : "";
      if (name === "TimeoutError" || name === "AbortError") throw err;
      throw new EgressError("could not connect to " + current.host);
    }
    const location = response.headers.get("location");
    if (!EGRESS_REDIRECTS.has(response.status) || location === null) return { response, url: current.toString() };
    await response.body?.cancel().catch(() => undefined);
    if (hop >= EGRESS_MAX_REDIRECTS) throw new EgressError("more than " + EGRESS_MAX_REDIRECTS + " redirects from " + new URL(input).host);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new EgressError("a redirect to an address that is not a URL", true);
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      method = method === "HEAD" ? "HEAD" : "GET";
      body = undefined;
      headers.delete("content-type");
      headers.delete("content-length");
    }
    // credentials meant for one origin do not follow a redirect to another
    if (next.origin !== current.origin) for (const h of ["authorization", "cookie", "proxy-authorization"]) headers.delete(h);
    current = next;
  }
}
