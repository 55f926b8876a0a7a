// Bots import "grammy" like any grammY program. Inside the appliance that import resolves from
// <BOTS_DIR>/node_modules/grammy, written here from grammY's self-contained web build, which is
// embedded in the executable as text (DESIGN.md §6). Written only when the content changed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import grammyBundle from "../../node_modules/grammy/out/web.mjs" with { type: "text" };

const PACKAGE_JSON = JSON.stringify({ name: "grammy", type: "module", main: "index.js", exports: { ".": "./index.js" } }, null, 2);

function writeIfChanged(file: string, content: string) {
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  writeFileSync(file, content);
}

export function ensureGrammyModule(botsDir: string) {
  const dir = join(botsDir, "node_modules", "grammy");
  mkdirSync(dir, { recursive: true });
  writeIfChanged(join(dir, "package.json"), PACKAGE_JSON);
  writeIfChanged(join(dir, "index.js"), grammyBundle as unknown as string);
}
