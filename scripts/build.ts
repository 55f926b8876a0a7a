// `npm run build` → dist/botloom: one executable with the server, migrations, templates, admin
// pages and (for bots) the grammY bundle embedded.
import { mkdirSync, statSync } from "node:fs";
import { WORKER_ENTRIES } from "../src/lib/worker-entry";

mkdirSync("dist", { recursive: true });
const outfile = process.env.BUILD_OUTFILE ?? "dist/botloom";
const result = await Bun.build({
  // Each of the server's worker threads is an entry point of its own (src/lib/worker-entry.ts):
  // `new Worker(...)` in the executable finds a thread's code only so.
  entrypoints: ["src/main.ts", ...Object.values(WORKER_ENTRIES).map((path) => `src/${path}`)],
  // Named, not left to Bun to work out: with a ninth entry point Bun took the repository as the
  // root, the entries moved to src/…, and no thread of the executable started.
  root: "src",
  compile: { outfile },
  bytecode: true,
  // Code reached only through import() (the S3 SDK, the MCP SDK, file-type) goes into chunks of
  // its own inside the executable, loaded on first use: in one piece, loading the bytecode of code
  // a start never runs cost ~5 ms of every cold start (bench/cold-start.ts).
  splitting: true,
  format: "esm",
  // No whitespace minification: Elysia reads handler source (Sucrose) to decide which context
  // parts (cookie, headers) to build, and fails on whitespace-minified code — every authenticated
  // route then answered 500 in the binary.
  minify: { whitespace: false, syntax: true, identifiers: true },
  sourcemap: "none",
  target: "bun",
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile} (${(statSync(outfile).size / 1048576).toFixed(1)} MB)`);
