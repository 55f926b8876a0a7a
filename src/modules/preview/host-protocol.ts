// The messages between the preview service on the event loop (host.ts) and the thread that hosts
// every preview's emulator and bot (host-worker.ts): why that thread exists is in host.ts.
import type { FakeUser } from "../../emulator/bot-api/types";
import type { TranscriptEntry } from "../../emulator/transcript";
import type { PreviewLimits } from "../../bots/preview-process";
import type { EmulatorLimits } from "../../emulator/session";
import type { HookValue } from "../../scenario/hook-request";
import type { PreviewAction, PreviewTranscript } from "./model";

/** What the hosted sessions need of the server's configuration (the thread reads no environment). */
export interface HostConfig {
  botsDir: string;
  uploadsDir: string;
  egressAllow: string;
  childEnv: Record<string, string>;
}

/** The preview bot as its users see it (the thread makes its token). */
export interface PreviewBotIdentity {
  id: number;
  username: string;
  firstName: string;
}

/** Whom an action or a read is for: the preview user the session's starter acts as, and the chat. */
export interface Seat {
  person: FakeUser;
  chatId: number;
}

/** One request to the thread, by what it does; each answers `HostAnswers[op]`. */
export type HostRequest =
  /** a session with its emulator, not started yet (the event loop is generating its program) */
  | { op: "open"; id: string; projectId: number; bot: PreviewBotIdentity; limits: PreviewLimits; emulator?: EmulatorLimits; platformUrl: string | null }
  /** the program (UTF-8, usually over a SharedArrayBuffer: handed over, not copied) starts */
  | { op: "start"; id: string; code: Uint8Array }
  /** a new program in the same chats (an edited document) */
  | { op: "replace"; id: string; code: Uint8Array }
  | { op: "view"; id: string; seat: Seat }
  | { op: "transcript"; id: string; chatId: number; after?: number; waitMs: number; all: boolean; changes: boolean }
  | { op: "act"; id: string; seat: Seat; action: PreviewAction }
  | { op: "variables"; id: string; chatId: number }
  | { op: "setVariables"; id: string; chatId: number; vars: Record<string, unknown> }
  | { op: "hook"; id: string; chatId: number; nodeId: string; vars: Record<string, HookValue> }
  | { op: "log"; id: string }
  | { op: "file"; id: string; fileId: string }
  | { op: "resources"; id: string }
  /** for tests: what the emulator keeps that no route shows (a group member's status, the webhook's last error) */
  | { op: "internals"; id: string; member: { chatId: number; userId: number } }
  | { op: "stop"; id: string };

export type HostOp = HostRequest["op"];

export interface HostedView {
  status: "starting" | "running" | "error" | "stopped";
  error: string | null;
  commands: { command: string; description: string }[];
}

export interface HostAnswers {
  open: null;
  start: null;
  replace: null;
  view: HostedView;
  transcript: PreviewTranscript;
  act: { entry: TranscriptEntry | null; version: number };
  variables: Record<string, unknown>;
  setVariables: Record<string, unknown>;
  /** false: no bot runs to take it */
  hook: boolean;
  log: { level: string; line: string }[];
  file: { bytes: Uint8Array; mime_type: string } | null;
  resources: { pid: number | null; port: number | null; dir: string | null; database: string | null } | null;
  internals: { memberStatus: string | null; webhookError: string | null };
  stop: null;
}

/** An error of the product's shape (src/errors.ts AppError), as it crosses the thread. */
export interface HostRefusal {
  status: number;
  code: string;
  message: string;
  extra: Record<string, unknown>;
}

export type HostMessage = { call: number; request: HostRequest };
export type HostReply = { call: number; value: unknown } | { call: number; refused: HostRefusal } | { call: number; failed: string };

/** Unasked: a session's bot process started or ended (the event loop ends a running one should the thread die). */
export type HostNotice = { process: { id: string; pid: number; running: boolean } };
