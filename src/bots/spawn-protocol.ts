// The messages between the server's event loop (spawn-thread.ts) and the thread that starts and
// watches preview bots' processes (spawn-worker.ts): why it exists is in spawn-thread.ts.

export type ToSpawner =
  /** `nice`: the process's niceness itself (this thread runs nicer than the server) */
  | { kind: "spawn"; id: number; cmd: string[]; cwd: string; env: Record<string, string>; nice: number }
  /** a line (or several) for the process's stdin */
  | { kind: "write"; id: number; text: string }
  /** closes the process's stdin */
  | { kind: "end"; id: number }
  | { kind: "kill"; id: number; signal: "SIGTERM" | "SIGKILL" };

export type FromSpawner =
  | { kind: "spawned"; id: number; pid: number }
  | { kind: "failed"; id: number; message: string }
  /** what the process printed since the last message, as lines (blank ones left out) */
  | { kind: "lines"; id: number; level: "stdout" | "stderr"; lines: string[] }
  /** after its last lines (or 500 ms after the exit, when a child kept its pipes open) */
  | { kind: "exited"; id: number; code: number | null; signal: string | null };
