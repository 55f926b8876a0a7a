// `npm run build` → dist/botloom: one executable with the server, migrations, templates, admin
// pages and (for bots) the grammY bundle embedded.
import { mkdirSync, statSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const outfile = process.env.BUILD_OUTFILE ?? "dist/botloom";
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile },
  bytecode: true,
  format: "esm",
  minify: true,
  sourcemap: "none",
  target: "bun",
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile} (${(statSync(outfile).size / 1048576).toFixed(1)} MB)`);
