// The campaign sender's one worker thread (send-worker.ts), seen from the server: started with the
// first campaign to send, kept while any is sent, ended after a quiet minute (it holds a heap and
// connections of its own). One thread for every campaign of the server rather than a pool's job per
// campaign: a campaign's loop lives for minutes or hours and needs a line back (events, its token),
// which a pool's one answer per job does not give (docs/campaigns.md#the-sender).
import { serverThread, type ServerThread } from "../../lib/server-thread";
import type { FromThread, ToThread } from "./send-protocol";

const IDLE_MS = 60_000;

export class SendThread {
  private worker: ServerThread<ToThread> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly init: Extract<ToThread, { kind: "init" }>,
    private readonly onMessage: (m: FromThread) => void,
    /** the thread died: whatever it was sending stopped mid-window */
    private readonly onDeath: (why: string) => void,
  ) {}

  /** A run starts the thread when it is not running; anything else for a thread that is not running has no one to reach. */
  post(m: ToThread) {
    if (!this.worker && m.kind === "run") this.worker = this.spawn();
    this.worker?.post(m);
  }

  /** While campaigns are sent the thread keeps the process alive; idle, it ends after a while. */
  busy(yes: boolean) {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (!this.worker) return;
    if (yes) return this.worker.ref();
    this.worker.unref();
    this.idle = setTimeout(() => this.end(), IDLE_MS);
    this.idle.unref();
  }

  get started(): boolean {
    return this.worker !== null;
  }

  end() {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const w = this.worker;
    this.worker = null;
    void w?.end();
  }

  private spawn(): ServerThread<ToThread> {
    // Not a background thread (no backgroundThread()): the sender keeps the server's priority and
    // cores, a campaign's pace is the owner's promise (niced, it gained nothing: docs/performance.md).
    const t = serverThread<ToThread, FromThread>("campaignSender", undefined, this.onMessage, (why) => {
      if (this.worker !== t) return;
      this.end();
      this.onDeath(why);
    });
    t.post(this.init);
    return t;
  }
}
