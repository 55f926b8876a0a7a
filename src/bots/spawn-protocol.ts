// The messages between the server's event loop (spawn-thread.ts) and the thread that starts and
// watches preview bots' processes (spawn-worker.ts): why it exists is in spawn-thread.ts.

/**
 * What the thread writes before it starts a process: the packages bots import into `botsDir`
 * (bot-modules.ts), then `files` (name → text) into `cwd`, a private folder it creates.
 */
export interface Prepare {
  botsDir: string;
  files: Record<string, string>;
}

export type ToSpawner =
  /** `nice`: the process's niceness itself (this thread runs nicer than the server) */
  | { kind: "spawn"; id: number; cmd: string[]; cwd: string; env: Record<string, string>; nice: number; prepare?: Prepare }
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
