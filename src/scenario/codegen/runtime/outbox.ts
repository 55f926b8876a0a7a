// Runtime source: what a supervised bot process writes to the platform leaves in batches. Every
// write wakes the platform's event loop, and a bot that logs line after line (its scenario SQL, a
// broadcast) woke it once a line. Lines wait up to LINE_HOLD_MS and leave together; anything that
// must not wait leaves at once, after the lines before it (docs/performance.md "Fewer wake-ups of
// the event loop"). One text, two users: a program on its own prints through it (launch.ts
// printInBatches), and a shared runner writes this file beside its main.ts (runner/outbox.ts).

// ─── Output in batches ─────────────────────────────────────────────────────────

/** How long a bot's output line may wait for others to leave with it. */
export const LINE_HOLD_MS = 20;
/** A batch this long leaves at once (a bot printing in a tight loop holds no more than this). */
export const BATCH_CHARS = 64 * 1024;

export interface Outbox {
  /** `line`: one JSON event; `hold`: it may wait for the batch (an output line), else it leaves now */
  send(line: string, hold: boolean): void;
  /** writes whatever waits (before the runner exits) */
  flush(): void;
}

export function createOutbox(write: (text: string) => void, later: (fn: () => void, ms: number) => unknown = setTimeout, cancel: (handle: any) => void = clearTimeout): Outbox {
  // (a program on its own passes a `later` whose timer does not keep it alive: what waits is written at exit)
  let waiting = "";
  let timer: unknown;
  const flush = () => {
    if (timer !== undefined) cancel(timer);
    timer = undefined;
    if (waiting === "") return;
    const text = waiting;
    waiting = "";
    write(text);
  };
  return {
    send(line, hold) {
      waiting += line + "\n";
      if (!hold || waiting.length >= BATCH_CHARS) return flush();
      timer ??= later(flush, LINE_HOLD_MS);
    },
    flush,
  };
}
