// The cores a thread may run on, as the kernel lists them (/proc/…/status Cpus_allowed_list), and
// the same list for a CPU mask of src/lib/priority.ts: tests of BACKGROUND_CPUS compare the two.
import { readdirSync, readFileSync } from "node:fs";

const listed = (status: string) => /Cpus_allowed_list:\s*(\S+)/.exec(status)![1]!;

/** The calling thread's cores ("0-1"). */
export const coresOfThisThread = () => listed(readFileSync("/proc/thread-self/status", "utf8"));

/** The cores of thread `tid` of this process. */
export const coresOfThread = (tid: number | string) => listed(readFileSync(`/proc/self/task/${tid}/status`, "utf8"));

/** The cores of every thread of process `pid`, one entry a thread (one that ended meanwhile left out). */
export function coresOfThreads(pid: number): string[] {
  const lists: string[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      lists.push(listed(readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8")));
    } catch {
      // that thread ended between the listing and the read
    }
  }
  return lists;
}

/** A mask as the kernel lists it: bit k of byte i is core 8i+k; runs joined ("1-3,5"). */
export function listOf(mask: Uint8Array): string {
  const cores = [...mask].flatMap((b, i) => [0, 1, 2, 3, 4, 5, 6, 7].filter((k) => b & (1 << k)).map((k) => i * 8 + k));
  const runs: string[] = [];
  for (let i = 0; i < cores.length; ) {
    let j = i;
    while (j + 1 < cores.length && cores[j + 1] === cores[j]! + 1) j++;
    runs.push(i === j ? `${cores[i]}` : `${cores[i]}-${cores[j]}`);
    i = j + 1;
  }
  return runs.join(",");
}
