// Helpers of the preview tests: a project made from a compat file and a chat driver over the API.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "bun:test";
import type { TestApp } from "../support/app";
import { EmulatorSession } from "../../src/emulator/session";

export const COMPAT_DIR = join(import.meta.dir, "../../../shared/compat/current");
export const KOTIK = join(COMPAT_DIR, "kotik-simple-anketa.json");

/** The compat file's scenario, or null (with the reason printed) when the file is absent. */
export function kotikDocument(): unknown | null {
  if (!existsSync(KOTIK)) {
    console.warn(`skipped: ${KOTIK} is absent (the compat files live beside the repository, in ../shared/compat/)`);
    return null;
  }
  return JSON.parse(readFileSync(KOTIK, "utf8")).data;
}

export interface Entry {
  seq: number;
  kind: string;
  from: "bot" | "user";
  text?: string;
  node?: string;
  messageId?: number;
  replyMarkup?: any;
  deleted: boolean;
  edits: number;
}

export class PreviewDriver {
  version = 0;
  seen = 0;
  constructor(
    private readonly t: TestApp,
    private readonly cookie: string,
    readonly id: string,
  ) {}

  async act(action: Record<string, unknown>) {
    const r = await this.t.call("POST", `/api/preview/${this.id}/actions`, { cookie: this.cookie, json: action });
    if (r.status !== 200) throw new Error(`action ${JSON.stringify(action)}: ${r.status} ${r.text}`);
    return r.body;
  }

  /** Bot entries after the last ones returned, waiting until `until` holds for them (bounded). */
  async botSays(until: (texts: string[]) => boolean, timeoutMs = 10_000): Promise<Entry[]> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.t.call("GET", `/api/preview/${this.id}/transcript?after=${this.version}&wait=1000`, { cookie: this.cookie });
      if (r.status !== 200) throw new Error(`transcript: ${r.status} ${r.text}`);
      this.version = r.body.version;
      const fresh: Entry[] = r.body.entries.filter((e: Entry) => e.seq > this.seen && e.from === "bot");
      if (until(fresh.map((e) => e.text ?? ""))) {
        this.seen = Math.max(this.seen, ...r.body.entries.map((e: Entry) => e.seq));
        return fresh;
      }
      if (Date.now() > end) throw new Error(`the bot did not answer as expected; new bot messages: ${JSON.stringify(fresh.map((e) => e.text))}; status ${r.body.status} ${r.body.error ?? ""}`);
    }
  }

  /** The transcript's entry of message `messageId` once `holds` is true of it (long-polled, bounded). */
  async entryWhen(messageId: number, holds: (e: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const end = Date.now() + timeoutMs;
    for (let after = 0; ; ) {
      const r = await this.t.call("GET", `/api/preview/${this.id}/transcript?after=${after}&wait=1000`, { cookie: this.cookie });
      if (r.status !== 200) throw new Error(`transcript: ${r.status} ${r.text}`);
      after = r.body.version;
      const entry = r.body.entries.find((e: Entry) => e.messageId === messageId && e.kind === "message");
      if (entry && holds(entry)) return entry;
      if (Date.now() > end) throw new Error(`message ${messageId} never came to hold; it is ${JSON.stringify(entry)}`);
    }
  }

  async transcript() {
    return (await this.t.call("GET", `/api/preview/${this.id}/transcript`, { cookie: this.cookie })).body;
  }
}

type EmulatorBot = ConstructorParameters<typeof EmulatorSession>[0];
type EmulatorLimits = ConstructorParameters<typeof EmulatorSession>[1];

/**
 * Emulator sessions of `bot` a test file starts, each stopped after its test: call it once at the
 * top of the file, then the answer once per session (with bounds other than the small defaults).
 */
export function emulatorsOf(bot: EmulatorBot): (limits?: Partial<EmulatorLimits>) => EmulatorSession {
  let open: EmulatorSession[] = [];
  afterEach(async () => {
    await Promise.all(open.map((e) => e.stop()));
    open = [];
  });
  return (limits) => {
    const e = new EmulatorSession(bot, { maxEntries: 400, maxBodyBytes: 1 << 20, maxFileBytes: 1 << 20, ...limits });
    e.start();
    open.push(e);
    return e;
  };
}
