// Process figures read from /proc (Linux): a process tree, its resident memory and CPU time. Kept
// apart from lib.ts so tests can check them without the benchmarks' signal handlers.
import { readFileSync } from "node:fs";

/** Process ids of the direct children of `pid`. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** `pid` and every process below it (children, their children, ...), read from /proc. */
export function treeOf(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...childrenOf(out[i]));
  return out;
}

/** Summed RSS of a process tree in MB and how many processes it holds (the root included). */
export function treeRssMb(pid: number): { totalMB: number; processes: number } {
  const rss = treeOf(pid).map(rssMb).filter((x): x is number => x !== null);
  return { totalMB: Number(rss.reduce((a, b) => a + b, 0).toFixed(1)), processes: rss.length };
}

/** Fields of /proc/<pid>/stat after the parenthesised command name (so f[0] is field 3, the state). */
function statFields(pid: number, tid?: number): string[] | null {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU time (user + system, fields 14 and 15) a process has used so far, in ms; null when it is gone. */
export function cpuMs(pid: number): number | null {
  const f = statFields(pid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS : null;
}

/** CPU time one thread of a process has used so far, in ms (the main thread's id is the process id); null when it is gone. */
export function threadCpuMs(pid: number, tid: number): number | null {
  const f = statFields(pid, tid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS : null;
}

/** When a process started (field 22, clock ticks since boot): with the pid, it names one process even after pid reuse. */
export function startedAt(pid: number): number | null {
  const f = statFields(pid);
  return f ? Number(f[19]) : null;
}

/** USER_HZ, the unit of /proc/<pid>/stat times (100 on mainstream Linux when getconf is missing). */
const CLOCK_TICKS = (() => {
  try {
    return Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status), null when it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
