// Bots import "grammy", "croner" and "jsep" like any Bun program would. Inside the appliance those
// imports resolve from <BOTS_DIR>/node_modules/<name>, written here from self-contained ES module
// builds embedded in the executable as text (docs/bots.md#running-bots); an exported bot gets the same packages
// with `bun add grammy croner jsep`. Checked once per folder and thread, written only when the
// content changed, and replaced atomically so a bot starting meanwhile never reads half a file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { PRIVATE_DIR_MODE } from "../lib/file-modes";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
// tsc does not model text imports of .js files (it sees the modules' own types), hence the directives.
// @ts-expect-error TS1192: the default export of a text import is the file's text
import cronerBundle from "../../node_modules/croner/dist/croner.js" with { type: "text" };
import grammyBundle from "../../node_modules/grammy/out/web.mjs" with { type: "text" };
// @ts-expect-error TS7016: a text import has no declaration file
import jsepBundle from "../../node_modules/jsep/dist/jsep.js" with { type: "text" };

/** Package name → its whole ES module text (each build imports nothing). */
export const BOT_MODULES: Record<string, string> = {
  grammy: grammyBundle as unknown as string,
  croner: cronerBundle as unknown as string,
  jsep: jsepBundle as unknown as string,
};

const packageJson = (name: string) =>
  JSON.stringify({ name, type: "module", main: "index.js", exports: { ".": "./index.js" } }, null, 2);
const ensured = new Set<string>();

/**
 * Writes a file the bots read only when its content changed, atomically (a reader never sees half
 * of it). The event loop (a production bot's start) and the preview thread may both write: each
 * thread has a temporary file of its own.
 */
export function writeIfChanged(file: string, content: string) {
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  const tmp = `${file}.${threadId}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

/** Writes every package bots may import into <botsDir>/node_modules. */
export function ensureBotModules(botsDir: string) {
  for (const [name, source] of Object.entries(BOT_MODULES)) {
    const dir = join(botsDir, "node_modules", name);
    const index = join(dir, "index.js");
    // A module can only go missing by hand; checking its presence is cheap, re-reading it is not.
    if (ensured.has(dir) && existsSync(index)) continue;
    mkdirSync(botsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    mkdirSync(dir, { recursive: true });
    writeIfChanged(join(dir, "package.json"), packageJson(name));
    writeIfChanged(index, source);
    ensured.add(dir);
  }
}
