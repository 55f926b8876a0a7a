// The server's logger as a process writes it (src/log.ts writes through `console`, not consola's
// basic reporter): the line format, errors and warnings on stderr and the rest on stdout, in the
// order logged, LOG_LEVEL respected, and every secret masked in every argument, Errors included.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";

const LOG = resolve(import.meta.dir, "../../src/log.ts");
const TOKEN = "7200000001:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const PAT = "mcp_" + "Q".repeat(43);
const ADMIN = "an-admin-key-0123456789";

/** Runs a few log calls at `level` in a process of its own; its stdout and stderr, line by line. */
function logAt(level: string) {
  const script = `
    const { createLogger, registerSecret } = await import(${JSON.stringify(LOG)});
    registerSecret(${JSON.stringify(ADMIN)});
    const log = createLogger(${JSON.stringify(level)});
    log.info("listening", 1, true);
    log.warn("token ${TOKEN} in a warning");
    log.error(new Error("failed with ${PAT}"));
    log.debug({ key: ${JSON.stringify(ADMIN)}, n: 2 });
    log.trace("trace line");
    log.info("after an error, encoded: ${encodeURIComponent(ADMIN)}");
  `;
  const p = Bun.spawnSync([process.execPath, "-e", script], { env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
  const lines = (b: Uint8Array) => new TextDecoder().decode(b).split("\n").filter(Boolean);
  return { code: p.exitCode, out: lines(p.stdout), err: lines(p.stderr) };
}

describe("the server's log lines", () => {
  test("info: the line format, the streams, the order, the secrets masked", () => {
    const { code, out, err } = logAt("info");
    expect(code).toBe(0);
    expect(out).toEqual(["[info] [botloom] listening 1 true", "[info] [botloom] after an error, encoded: ***"]);
    expect(err[0]).toBe("[warn] [botloom] token 7200000001:*** in a warning");
    // An Error is written with its stack, masked.
    expect(err[1]).toBe("[error] [botloom] Error: failed with mcp_***");
    expect(err.slice(2).every((l) => l.trimStart().startsWith("at "))).toBe(true);
    const all = [...out, ...err].join("\n");
    for (const secret of [TOKEN, PAT, ADMIN, encodeURIComponent(ADMIN)]) expect(all).not.toContain(secret);
  });

  test("each level shows itself and those above it; silent shows nothing", () => {
    const types = (r: ReturnType<typeof logAt>) => [...r.out, ...r.err].map((l) => /^\[(\w+)\]/.exec(l)?.[1]).filter(Boolean);
    expect(new Set(types(logAt("trace")))).toEqual(new Set(["info", "warn", "error", "debug", "trace"]));
    const debug = logAt("debug");
    expect(new Set(types(debug))).toEqual(new Set(["info", "warn", "error", "debug"]));
    expect(debug.out).toContain('[debug] [botloom] {"key":"***","n":2}');
    expect(new Set(types(logAt("warn")))).toEqual(new Set(["warn", "error"]));
    expect(new Set(types(logAt("error")))).toEqual(new Set(["error"]));
    const silent = logAt("silent");
    expect([...silent.out, ...silent.err]).toEqual([]);
  });
});
