// A compiled-binary server in its own temporary folder, talking to a fake messenger; `start()` may
// be called again to restart it on the same folder. Registers its own beforeAll/afterAll.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "./fake-messenger";
import { buildBinary, freePort, startProcessServer, type ProcessServer } from "./process";

export interface BinaryServer {
  fake: FakeMessenger;
  binary: string;
  dir: string;
  port: number;
  servers: ProcessServer[];
  start(): Promise<ProcessServer>;
}

export function useBinaryServer(prefix: string, env: Record<string, string>): BinaryServer {
  const h = {
    servers: [] as ProcessServer[],
    async start() {
      const s = await startProcessServer([h.binary, "serve"], { cwd: h.dir, env: { ...env, MESSENGER_API_ROOT: h.fake.url }, port: h.port });
      h.servers.push(s);
      return s;
    },
  } as BinaryServer;
  beforeAll(async () => {
    h.fake = await startFakeMessenger();
    h.binary = await buildBinary(resolve(import.meta.dir, "../.."));
    h.dir = mkdtempSync(join(tmpdir(), prefix));
    h.port = await freePort();
  }, 120_000);
  afterAll(async () => {
    for (const s of h.servers) await s.stop("SIGKILL");
    await h.fake?.stop();
    if (h.dir) rmSync(h.dir, { recursive: true, force: true });
  });
  return h;
}
