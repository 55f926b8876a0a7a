// A shared bot runner: one process hosting many bots of one owner (docs/bots.md#running-bots).
// The platform writes this file, watchdog.ts and the interpreter (renderInterpreter) into
// <BOTS_DIR>/.runner/ and runs it with the same executable (BUN_BE_BUN=1), as it runs a bot program.
//
// The platform talks to it in JSON lines (protocol.ts): commands on stdin, stdin closing means the
// platform is gone and every bot stops; events on stdout, after a watchdog's "blocked" or
// "memory" the platform kills this runner.
import { AsyncLocalStorage } from "node:async_hooks";
import { Worker } from "node:worker_threads";
import type { BotHost, BotTables, HostedBot, Interpreter, RunnerCommand, RunnerEvent } from "./protocol";
import { createOutbox } from "./outbox.ts";

/** Thrown by a hosted bot's process.exit: it ends that bot's code path, never the runner. */
class BotExit extends Error {
  constructor(readonly code: number) {
    super("the bot exited with code " + code);
  }
}

const BLOCK_MS = Number(process.env.BOTLOOM_RUNNER_BLOCK_MS) || 5000;
const MEMORY_MB = Number(process.env.BOTLOOM_RUNNER_MEMORY_MB) || 1024;
/** Longer output lines are cut: the platform reads this process's output in lines of at most 64 Ki characters (a JSON escape takes up to six). */
const MAX_LINE = 8000;
/** How long a bot may take to stop before the platform is told it has. */
const STOP_GRACE_MS = 3000;

/** [0]: token id of the bot whose code runs now (or ran last); [1]: heartbeat of this thread. */
const shared = new Int32Array(new SharedArrayBuffer(8));

/** Started once the interpreter is loaded: compiling it is this runner's own work, no bot's. */
function startWatchdog() {
  setInterval(() => Atomics.add(shared, 1, 1), 100);
  const watchdog = new Worker(new URL("./watchdog.ts", import.meta.url), { workerData: { shared, blockMs: BLOCK_MS, memoryBytes: MEMORY_MB * 1024 * 1024 } });
  watchdog.unref();
}

const outbox = createOutbox((text) => void process.stdout.write(text));
/** Output lines leave in batches; exits, pongs and errors at once (outbox.ts). */
const send = (message: RunnerEvent) => outbox.send(JSON.stringify(message), message.ev === "line");

interface Entry {
  hosted: HostedBot | null;
  stopTimer?: ReturnType<typeof setTimeout>;
  /** its start() has not settled yet */
  starting?: boolean;
  /** the code of an exit during the start, told once the start has settled */
  exitCode?: number;
}
const bots = new Map<number, Entry>();

/** The bot has ended (it exited, failed to start, or did not stop in time): said once. */
function finish(id: number, code: number) {
  const entry = bots.get(id);
  if (!entry) return;
  clearTimeout(entry.stopTimer);
  bots.delete(id);
  send({ ev: "exit", id, code });
}

function consoleOf(id: number) {
  const print =
    (err: 0 | 1) =>
    (...args: unknown[]) => {
      if (!bots.has(id)) return; // a stopped bot's leftover work says nothing more
      const text = args.map((a) => (typeof a === "string" ? a : Bun.inspect(a))).join(" ");
      for (const line of text.split("\n")) send({ ev: "line", id, err, text: line.length > MAX_LINE ? line.slice(0, MAX_LINE) + " …" : line });
    };
  return { log: print(0), info: print(0), warn: print(1), error: print(1) };
}

/** The node scope of a bot's runtime: entering it (every update, every node step) marks the bot as the one running. */
function scopeOf(id: number): typeof AsyncLocalStorage {
  return class BotScope<T> extends AsyncLocalStorage<T> {
    override enterWith(store: T) {
      Atomics.store(shared, 0, id);
      super.enterWith(store);
    }
    override run<R>(store: T, callback: (...args: any[]) => R, ...args: any[]): R {
      Atomics.store(shared, 0, id);
      return super.run(store, callback, ...args);
    }
  };
}

function hostOf(id: number, env: Record<string, string>): BotHost {
  return {
    process: {
      env,
      exit(code = 0): never {
        // An exit during the start (its token refused, say) ends the start, and the start first
        // releases what it began, its project file among them (hosted.ts, startHosted): the end is
        // told once that is done, so the platform never sees an ended bot that still holds its file.
        // A stop asked meanwhile is told at once, as any stop.
        const entry = bots.get(id);
        if (entry?.starting && entry.stopTimer === undefined) entry.exitCode = code;
        else finish(id, code);
        throw new BotExit(code);
      },
    },
    console: consoleOf(id),
    AsyncLocalStorage: scopeOf(id),
  };
}

async function start(interpreter: Interpreter, id: number, tables: BotTables, env: Record<string, string>) {
  if (bots.has(id)) return consoleOf(id).error("this bot runs here already; the second start is ignored");
  const entry: Entry = { hosted: null, starting: true };
  bots.set(id, entry);
  Atomics.store(shared, 0, id);
  try {
    entry.hosted = interpreter.createBot(tables, hostOf(id, env));
    await entry.hosted.start();
  } catch (err) {
    if (!(err instanceof BotExit)) {
      consoleOf(id).error("the bot failed to start:", err);
      entry.exitCode ??= 1;
    }
  } finally {
    entry.starting = false;
    if (entry.exitCode !== undefined && bots.get(id) === entry) finish(id, entry.exitCode);
  }
}

function stop(id: number) {
  const entry = bots.get(id);
  if (!entry) return send({ ev: "exit", id, code: 0 });
  entry.stopTimer ??= setTimeout(() => {
    consoleOf(id).error("the bot did not stop within " + STOP_GRACE_MS / 1000 + " s; left behind");
    finish(id, 0);
  }, STOP_GRACE_MS);
  if (!entry.hosted) return finish(id, 0);
  entry.hosted.stop("SIGTERM").catch((err) => {
    if (!(err instanceof BotExit)) consoleOf(id).error("while stopping:", err);
  });
}

/** Errors no handler caught (a rejected promise in a bot's timer, say): told, never fatal to the runner. */
function uncaught(err: unknown) {
  if (err instanceof BotExit) return;
  send({ ev: "error", id: Atomics.load(shared, 0), text: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
process.on("uncaughtException", uncaught);
process.on("unhandledRejection", uncaught);

/** Whatever waits in the outbox leaves first. */
function exit(): never {
  outbox.flush();
  process.exit(0);
}

async function stopAllAndExit() {
  setTimeout(exit, STOP_GRACE_MS + 500).unref();
  for (const id of [...bots.keys()]) stop(id);
  while (bots.size > 0) await Bun.sleep(20);
  exit();
}

async function main() {
  // A path the type checker does not follow: the interpreter is written beside this file at run time.
  const interpreter = (await import(new URL("./interpreter.ts", import.meta.url).href)) as Interpreter;
  startWatchdog();
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of Bun.stdin.stream()) {
    const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      const cmd = JSON.parse(line) as RunnerCommand;
      if (cmd.op === "start") void start(interpreter, cmd.id, cmd.tables, cmd.env);
      else if (cmd.op === "stop") stop(cmd.id);
      else if (cmd.op === "ping") send({ ev: "pong", n: cmd.n });
      else if (cmd.op === "tell") bots.get(cmd.id)?.hosted?.tell(cmd.command);
    }
  }
  await stopAllAndExit();
}

await main();
