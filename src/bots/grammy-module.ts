// Bots import "grammy" like any grammY program. Inside the appliance that import resolves from
// <BOTS_DIR>/node_modules/grammy, written here from grammY's self-contained web build, which is
// embedded in the executable as text (DESIGN.md §6). Checked once per folder and process, written
// only when the content changed, and replaced atomically so a bot starting meanwhile never reads
// half a file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { PRIVATE_DIR_MODE } from "../lib/file-modes";
import { join } from "node:path";
import grammyBundle from "../../node_modules/grammy/out/web.mjs" with { type: "text" };

const PACKAGE_JSON = JSON.stringify({ name: "grammy", type: "module", main: "index.js", exports: { ".": "./index.js" } }, null, 2);
const ensured = new Set<string>();

function writeIfChanged(file: string, content: string) {
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  writeFileSync(`${file}.tmp`, content);
  renameSync(`${file}.tmp`, file);
}

export function ensureGrammyModule(botsDir: string) {
  const dir = join(botsDir, "node_modules", "grammy");
  const index = join(dir, "index.js");
  // The module can only go missing by hand; checking its presence is cheap, re-reading it is not.
  if (ensured.has(dir) && existsSync(index)) return;
  mkdirSync(botsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  mkdirSync(dir, { recursive: true });
  writeIfChanged(join(dir, "package.json"), PACKAGE_JSON);
  writeIfChanged(index, grammyBundle as unknown as string);
  ensured.add(dir);
}
