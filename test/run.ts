// `npm test`: runs `bun test` and ends with the plain line "N passed, N failed" that CI counts.
export {};
// Extra arguments are passed through (e.g. `npm test -- test/auth`).
const args = process.argv.slice(2);
const proc = Bun.spawn([process.execPath, "test", ...args], {
  stdout: "inherit",
  stderr: "pipe",
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
});
// bun test prints its summary on stderr; mirror it and keep it for counting.
let tail = "";
const decoder = new TextDecoder();
for await (const chunk of proc.stderr) {
  const s = decoder.decode(chunk, { stream: true });
  process.stderr.write(s);
  tail = (tail + s).slice(-20000);
}
const code = await proc.exited;
const passed = Number(/^\s*(\d+) pass\s*$/m.exec(tail)?.[1] ?? 0);
const failed = Number(/^\s*(\d+) fail\s*$/m.exec(tail)?.[1] ?? 0);
const skipped = Number(/^\s*(\d+) skip\s*$/m.exec(tail)?.[1] ?? 0);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(code !== 0 ? code || 1 : failed > 0 ? 1 : 0);
