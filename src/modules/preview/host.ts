// Previews run in a thread of their own (host-worker.ts). Each preview is a Bot API server its bot
// polls and calls some twenty times a cycle, a folder with a 0.75 MB program written, a process
// started and stopped: on the event loop that work, and the collections of the garbage it left,
// were most of what a user's previews added to every other request's wait (issue 29,
// docs/performance.md "Previews in a thread of their own"). Here the event loop only posts a
// request and receives a small answer; the program comes as bytes over a SharedArrayBuffer, so
// handing it over copies nothing. One thread for every preview of the server, started with the
// first and ended after a quiet minute.
import { AppError, type ErrorCode } from "../../errors";
import { backgroundThread } from "../../lib/priority";
import { serverThread, type ServerThread } from "../../lib/server-thread";
import type { HostAnswers, HostConfig, HostMessage, HostNotice, HostReply, HostRequest } from "./host-protocol";

const IDLE_MS = 60_000;

export class PreviewHost {
  private thread: ServerThread<HostMessage> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;
  private nextCall = 1;
  private readonly pending = new Map<number, PromiseWithResolvers<unknown>>();
  /** sessions opened in the thread and not stopped: none for a minute ends it */
  private readonly open = new Set<string>();
  /** each session's latest bot process: should the thread die, the event loop ends them */
  private readonly processes = new Map<string, number>();

  /** `onDeath`: the thread died and took these sessions with it */
  constructor(
    private readonly config: HostConfig,
    private readonly onDeath: (sessions: string[]) => void,
  ) {}

  /** Sends `request` to the thread; its answer, or the product's error it refused with. */
  call<R extends HostRequest>(request: R): Promise<HostAnswers[R["op"]]> {
    if (request.op === "open") this.open.add(request.id);
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const thread = (this.thread ??= this.startThread());
    const call = this.nextCall++;
    const answer = Promise.withResolvers<unknown>();
    this.pending.set(call, answer);
    thread.post({ call, request });
    return (answer.promise as Promise<HostAnswers[R["op"]]>).finally(() => {
      if (request.op === "stop") {
        this.open.delete(request.id);
        this.processes.delete(request.id);
      }
      this.quiet();
    });
  }

  /** With no session and nothing asked, the thread ends after a quiet minute. */
  private quiet() {
    if (this.open.size > 0 || this.pending.size > 0 || this.idle || !this.thread) return;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.open.size > 0 || this.pending.size > 0 || !this.thread) return;
      const t = this.thread;
      this.thread = null;
      void t.end();
    }, IDLE_MS);
    this.idle.unref?.();
  }

  private onMessage(m: HostReply | HostNotice) {
    if ("process" in m) {
      const { id, pid, running } = m.process;
      if (running && this.open.has(id)) this.processes.set(id, pid);
      else if (!running && this.processes.get(id) === pid) this.processes.delete(id);
      return;
    }
    const r = m;
    const p = this.pending.get(r.call);
    if (!p) return;
    this.pending.delete(r.call);
    if ("value" in r) p.resolve(r.value);
    else if ("refused" in r) p.reject(new AppError(r.refused.status, r.refused.code as ErrorCode, r.refused.message, r.refused.extra));
    else p.reject(new Error(r.failed));
  }

  /**
   * The thread died (it should not): what waited fails and its sessions are gone. Their processes
   * are killed here: their pipes belong to the server process, not to the thread, so a bot would
   * otherwise run on with nobody to talk to.
   */
  private died(why: string) {
    this.thread = null;
    for (const pid of this.processes.values()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // ended already
      }
    }
    this.processes.clear();
    const gone = [...this.open];
    this.open.clear();
    const failed = new AppError(503, "INTERNAL", "The preview stopped unexpectedly: start it again", { reason: why });
    for (const p of this.pending.values()) p.reject(failed);
    this.pending.clear();
    this.onDeath(gone);
  }

  private startThread() {
    return serverThread<HostMessage, HostReply | HostNotice>("previewHost", backgroundThread({ config: this.config }), (m) => this.onMessage(m), (why) => this.died(why));
  }
}
