// `npm run build` → dist/botloom: one executable with the server, migrations, templates, admin
// pages and (for bots) the grammY bundle embedded.
import { mkdirSync, statSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const outfile = process.env.BUILD_OUTFILE ?? "dist/botloom";
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile },
  bytecode: true,
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
