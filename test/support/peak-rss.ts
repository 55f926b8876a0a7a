// Preloaded into a child process (`bun --preload`): as it exits, it writes its own peak RSS
// (VmHWM, in kB) to the file PEAK_FILE names. The peak that wait4 reports for a child (Bun's
// resourceUsage.maxRSS) is no measure of it: a child started with posix_spawn shares its parent's
// memory until it runs its program, and Linux counts the parent's peak as the child's.
import { readFileSync, writeFileSync } from "node:fs";

process.on("exit", () => {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  if (kb && process.env.PEAK_FILE) writeFileSync(process.env.PEAK_FILE, kb);
});
