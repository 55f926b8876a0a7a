// The preview thread (host.ts says why): every preview's emulator, with the Bot API server its bot
// talks to, and the bot's folder and process live here, off the server's event loop. It answers
// the requests of host-protocol.ts, each in the product's error shape. Also an entry point of the
// compiled executable (scripts/build.ts).
import { workerData } from "node:worker_threads";
import { AppError, notFound } from "../../errors";
import { enterBackground } from "../../lib/priority";
import type { HostConfig, HostMessage, HostNotice, HostReply, HostRequest } from "./host-protocol";
import { PreviewSession } from "./session";

declare const self: Worker;

// Niced, on the background cores, like the preview bots it starts: when the cores are busy the
// event loop, which answers every request, gets them first.
enterBackground();

const config = (workerData as { config: HostConfig }).config;
const notify = (n: HostNotice) => self.postMessage(n);
const sessions = new Map<string, PreviewSession>();

function session(id: string): PreviewSession {
  const s = sessions.get(id);
  if (!s) throw notFound("Preview not found");
  return s;
}

async function answer(r: HostRequest): Promise<unknown> {
  switch (r.op) {
    case "open":
      sessions.set(r.id, new PreviewSession(r.id, r.projectId, r.bot, { config, limits: r.limits, emulatorLimits: r.emulator, platformUrl: r.platformUrl, onProcess: (pid, running) => notify({ process: { id: r.id, pid, running } }) }));
      return null;
    case "start":
      await session(r.id).start(r.code);
      return null;
    case "replace":
      await session(r.id).replaceProgram(r.code);
      return null;
    case "view":
      return session(r.id).view(r.seat);
    case "transcript":
      return session(r.id).transcript(r.chatId, r);
    case "act":
      return session(r.id).act(r.seat, r.action);
    case "variables":
      return session(r.id).variables(r.chatId);
    case "setVariables":
      return session(r.id).setVariables(r.chatId, r.vars);
    case "hook":
      return session(r.id).hook(r.chatId, r.nodeId, r.vars);
    case "log":
      return [...session(r.id).log];
    case "file":
      return session(r.id).emulator.fileById(r.fileId) ?? null;
    case "resources":
      return sessions.get(r.id)?.resources ?? null;
    case "internals": {
      const e = session(r.id).emulator;
      return { memberStatus: e.dir.member(r.member.chatId, r.member.userId).status ?? null, webhookError: e.state.updates.webhook?.lastErrorMessage ?? null };
    }
    case "stop": {
      const s = sessions.get(r.id);
      sessions.delete(r.id);
      await s?.stop();
      return null;
    }
  }
}

self.onmessage = async (e: MessageEvent<HostMessage>) => {
  const { call, request } = e.data;
  let reply: HostReply;
  try {
    reply = { call, value: await answer(request) };
  } catch (err) {
    reply = err instanceof AppError
      ? { call, refused: { status: err.status, code: err.code, message: err.message, extra: err.extra } }
      : { call, failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  self.postMessage(reply);
};
