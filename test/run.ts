// `npm test`: runs `bun test` and ends with the plain line "N passed, N failed" that CI counts.
// Without arguments the Chromium tests (test/browser) run in a `bun test` of their own beside the
// rest: they mostly wait for the browser while the others mostly wait for servers and bots, and
// together in one process they took about 15½ minutes of a 2-core CI run (docs/testing.md "What a run prints").
// Their output is held and printed whole after the others', so neither log is cut into the other.
// Failures are recapped just above the closing line, and a file with a failure runs again alone
// (docs/testing.md "Waiting on a busy machine").
// Extra arguments are passed through (e.g. `npm test -- test/auth`) to one `bun test`.
import { readdirSync } from "node:fs";

const args = process.argv.slice(2);
const TEST_DIR = import.meta.dir;
const BROWSER = "test/browser";
/**
 * Each test's time limit unless it sets its own: Bun's default of 5 s is for a test alone on the
 * machine, and a CPU-bound test (the secret masker's 400 random texts: 2.8 s alone) went over it
 * while the two halves of the suite shared 2 cores. bunfig.toml has no key for it; `--timeout` is it.
 */
const TIMEOUT_MS = "30000";
/** How many lines of a failed test's error the recap repeats. */
const RECAP_LINES = 40;

interface Outcome {
  passed: number;
  failed: number;
  skipped: number;
  code: number;
  /** it printed its closing summary ("Ran N tests across M files") */
  summarized: boolean;
  /** what it printed, when held */
  held: string;
  /** each failed test with the lines bun printed before it (its error), for the recap */
  failures: Failure[];
}

interface Failure {
  /** the test file, as bun names it ("test/…/x.test.ts") */
  file: string;
  text: string;
}

/** One `bun test` of `paths`: its stdout and stderr streamed here (`live`) or held for the caller to print. */
async function run(paths: string[], live: boolean, title: string): Promise<Outcome> {
  const proc = Bun.spawn([process.execPath, "test", ...(paths.some((a) => a.startsWith("--timeout")) ? [] : ["--timeout", TIMEOUT_MS]), ...paths], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  });
  let held = "";
  // bun test prints its summary on stderr; keep its tail for counting.
  let tail = "";
  // The last lines seen, to recap each failure with the error bun printed just before it.
  const recent: string[] = [];
  const failures: Failure[] = [];
  let file = "";
  // Bun lists the failed tests again at its end ("N tests failed:"), after the last file's name: not counted twice.
  let listedAgain = false;
  let partial = "";
  const scan = (s: string) => {
    const lines = (partial + s).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (/^test\/.*:$/.test(line)) file = line.slice(0, -1);
      if (/^\d+ tests? failed:$/.test(line)) listedAgain = true;
      if (/^\(fail\) /.test(line) && !listedAgain) {
        failures.push({ file, text: [`${title} · ${file}`, ...recent, line].join("\n") });
      }
      if (/^\((pass|fail|skip|todo)\) |^test\/.*:$/.test(line)) recent.length = 0;
      else {
        recent.push(line);
        if (recent.length > RECAP_LINES) recent.shift();
      }
    }
  };
  const pump = async (stream: ReadableStream<Uint8Array>, to: NodeJS.WriteStream, counted: boolean) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const s = decoder.decode(chunk, { stream: true });
      if (live) to.write(s);
      else held += s;
      if (counted) {
        tail = (tail + s).slice(-20000);
        scan(s);
      }
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout, false), pump(proc.stderr, process.stderr, true)]);
  const code = await proc.exited;
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\s*$`, "m").exec(tail)?.[1] ?? 0);
  const summarized = /^Ran \d+ tests? across \d+ files?\./m.test(tail);
  return { passed: count("pass"), failed: count("fail"), skipped: count("skip"), code, summarized, held: live ? "" : `\n──── ${title} ────\n${held}`, failures };
}

const groups: Promise<Outcome>[] = [];
const halves = args.length === 0;
if (!halves) groups.push(run(args, true, "bun test"));
else {
  const rest = readdirSync(TEST_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && `test/${e.name}` !== BROWSER)
    .map((e) => `test/${e.name}/`);
  groups.push(run(rest, true, "server tests"), run([`${BROWSER}/`], false, "browser tests (test/browser)"));
}
const outcomes = await Promise.all(groups);
for (const o of outcomes) if (o.held) process.stderr.write(o.held);
// CI keeps only the end of a run's output: say again which tests failed, and why, just above the count.
const failures = outcomes.flatMap((o) => o.failures);
if (failures.length > 0) process.stderr.write(`\n──── ${failures.length} failed ────\n${failures.map((f) => f.text).join("\n\n")}\n`);
const sum = (k: "passed" | "failed" | "skipped") => outcomes.reduce((n, o) => n + o[k], 0);
let [passed, failed, skipped] = [sum("passed"), sum("failed"), sum("skipped")];
// A bun test that ended badly without naming a failed test, or without its closing summary (a
// crash, an error outside any test), fails the run whatever a second run would say.
const crashed = outcomes.find((o) => o.code !== 0 && (o.failures.length === 0 || !o.summarized))?.code;

// Beside the other half a test has less of the machine than alone, and a test that waits on real
// processes can run out of its time there (docs/testing.md "Waiting on a busy machine"). Each file
// with a failure runs again, alone: if all of it passes then, its failures are counted as passed
// and named below as flaky; if anything fails again, they stay failed.
// Only when every failure bun counted was named here, with its file: else nothing is run again.
if (halves && failed > 0 && crashed === undefined && failures.length === failed && failures.every((f) => f.file !== "")) {
  const files = [...new Set(failures.map((f) => f.file))];
  const flaky: string[] = [];
  for (const file of files) {
    const again = await run([file], false, `${file}, again, alone`);
    const first = failures.filter((f) => f.file === file).length;
    if (again.code === 0 && again.failed === 0 && again.passed > 0) {
      passed += first;
      failed -= first;
      flaky.push(`${file}: ${first} failed beside the other half, and all ${again.passed} passed alone`);
    } else {
      process.stderr.write(`\n──── ${file} failed again, alone: its ${first} failure(s) stand ────\n${again.failures.map((f) => f.text).join("\n\n")}\n`);
    }
  }
  if (flaky.length > 0) process.stderr.write(`\n──── flaky: failed beside the other half, passed alone ────\n${flaky.join("\n")}\n`);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(crashed !== undefined ? crashed || 1 : failed > 0 ? 1 : 0);
