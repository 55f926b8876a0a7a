// Shared set-up of the tests that kill and restart real servers: one fake messenger, and every
// server and folder a test makes, ended and removed after the file's tests (also when one fails).
import { afterAll, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { startFakeMessenger, type FakeMessenger } from "./fake-messenger";
import type { ProcessServer } from "./process";

export interface RestartHarness {
  /** set before the first test runs */
  fake: FakeMessenger;
  dirs: string[];
  servers: ProcessServer[];
}

export function restartHarness(): RestartHarness {
  const h = { dirs: [], servers: [] } as unknown as RestartHarness;
  beforeAll(async () => {
    h.fake = await startFakeMessenger();
  });
  afterAll(async () => {
    for (const s of h.servers) await s.stop("SIGKILL");
    await h.fake.stop();
    for (const d of h.dirs) rmSync(d, { recursive: true, force: true });
  });
  return h;
}
