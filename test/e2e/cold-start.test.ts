// The compiled binary listens before it has loaded the app (src/listener.ts, src/app-loader.ts):
// health answers at once, a request sent at that moment gets the app's own answer, and a stop
// signal at that moment still shuts down cleanly.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary, firstHealth, freePort, spawnServer, startProcessServer } from "../support/process";

let binary: string;
let dir: string;

beforeAll(async () => {
  binary = await buildBinary(resolve(import.meta.dir, "../.."));
  dir = mkdtempSync(join(tmpdir(), "botloom-cold-"));
  // A first start creates the data; the tests below restart on it.
  const first = await startProcessServer([binary, "serve", "--init"], { cwd: dir });
  expect(await first.stop()).toBe(0);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts the binary and returns at its first health answer. */
async function startUntilHealthy() {
  const port = await freePort();
  const proc = spawnServer([binary, "serve"], { cwd: dir, port, env: { LOG_LEVEL: "warn" } });
  const url = `http://127.0.0.1:${port}`;
  try {
    return { proc, url, health: await firstHealth(url, proc) };
  } catch (e) {
    proc.kill("SIGKILL");
    throw e;
  }
}

describe("restart on existing data", () => {
  test("requests sent at the first health answer get the app's answers, and templates turn true", async () => {
    const { proc, url, health } = await startUntilHealthy();
    try {
      expect(health).toMatchObject({ database: true, ready: true });
      expect(typeof health.templates).toBe("boolean");
      const [status, page, projects] = await Promise.all([fetch(`${url}/admin/api/status`), fetch(`${url}/admin/login`), fetch(`${url}/api/projects`)]);
      expect(status.status).toBe(200);
      expect(await status.json()).toEqual({ authenticated: false, adminEnabled: true });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('name="key"');
      // Not a 404 or a refusal from a half-loaded server: the app's own answer (the platform is not set up).
      expect(projects.status).toBe(503);
      expect((await projects.json()).error).toBe("NOT_SET_UP");
      expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ database: true, templates: true, ready: true });
    } finally {
      proc.kill("SIGKILL");
      await proc.exited;
    }
  });

  test("a stop signal at the first health answer exits 0 and removes the pid file", async () => {
    const { proc } = await startUntilHealthy();
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect(existsSync(join(dir, "data", "botloom.pid"))).toBe(false);
  });
});
