// The server's OpenAPI document, read from the app built in this process (no server, no network):
// `bun scripts/openapi-spec.ts --write` records it in web/src/api/openapi.json, from which
// `npm run build:web` generates the web app's API types (scripts/build-web.ts); the docs tests fail
// when the recorded document no longer matches the app.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { buildContext } from "../src/bootstrap";
import { createApp } from "../src/app";
import { createLogger } from "../src/log";
import { OPENAPI_PATH } from "../src/modules/docs/docs.routes";

export const SPEC_FILE = join(import.meta.dir, "..", "web", "src", "api", "openapi.json");

export async function openapiDocument(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "botloom-openapi-"));
  const config = loadConfig({
    DATA_DIR: join(dir, "data"),
    BOTS_DIR: join(dir, "bots"),
    UPLOADS_DIR: join(dir, "uploads"),
    SESSION_SECRET: "openapi-session-secret-0123456789",
    LOG_LEVEL: "silent",
    PATH: process.env.PATH,
  });
  const ctx = buildContext(config, { log: createLogger("silent") });
  try {
    // every /api path but health answers 503 until setup is done
    await ctx.settings.update({ auth: { loginMode: "dev_login" } });
    const res = await createApp(ctx).handle(new Request(`http://localhost${OPENAPI_PATH}`));
    if (res.status !== 200) throw new Error(`${OPENAPI_PATH} answered ${res.status}`);
    return JSON.stringify(await res.json(), null, 1) + "\n";
  } finally {
    await ctx.bots.shutdown?.();
    ctx.projectFiles.closeAll();
    ctx.db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (!process.argv.includes("--write")) throw new Error("usage: bun scripts/openapi-spec.ts --write");
  writeFileSync(SPEC_FILE, await openapiDocument());
  console.log(`written ${SPEC_FILE}`);
}
