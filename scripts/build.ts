// `npm run build` → dist/botloom: one executable with the server, migrations, templates, admin
// pages and (for bots) the grammY bundle embedded.
import { mkdirSync, statSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const outfile = process.env.BUILD_OUTFILE ?? "dist/botloom";
const result = await Bun.build({
  // The worker threads (the generator's, the Tables reads', the campaign sender's, the preview bots'
  // spawner, the previews' host, the platform database's checkpointer, the bot log writer) are
  // entry points of their own: `new Worker(new URL(...))` in the executable finds them only so
  // (src/scenario/codegen/off-thread.ts, src/modules/tables/reads.ts,
  // src/modules/campaigns/send-thread.ts, src/bots/spawn-thread.ts, src/modules/preview/host.ts,
  // src/db/checkpointer.ts, src/bots/log-thread.ts).
  entrypoints: [
    "src/main.ts",
    "src/scenario/codegen/worker.ts",
    "src/modules/tables/read-worker.ts",
    "src/modules/campaigns/send-worker.ts",
    "src/bots/spawn-worker.ts",
    "src/modules/preview/host-worker.ts",
    "src/db/checkpoint-worker.ts",
    "src/bots/log-worker.ts",
  ],
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
