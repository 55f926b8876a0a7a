// The campaign sender's worker thread (sender.ts starts it, send-loop.ts runs in it): every campaign
// being sent by this server is sent from here, with this thread's own connections to the project
// files, its own messenger client and the server's send pace (shared memory), so rendering, the
// messenger's round trips, the pace's timers, the commits and their WAL checkpoints stay off the
// event loop that answers requests (docs/campaigns.md#the-sender). Also an entry point of the
// compiled executable (scripts/build.ts).
import { ProjectDatabases } from "../../db/project-db";
import { MessengerClient } from "../../messenger/client";
import { projectFileLedger, SendPace } from "../../messenger/send-pace";
import { markBlocked } from "../dialogs/queries";
import { CampaignLoops } from "./send-loop";
import type { SendToken } from "./send-one";
import type { FromThread, ToThread } from "./send-protocol";

declare const self: Worker;

/** How stale the server's reading of a token may get before the thread asks again. */
const TOKEN_FRESH_MS = 200;

// Not niced, unlike the generator's and the Tables reads' workers: this thread's work is short
// steps between waits on the messenger, and niced on a busy machine it lost a large part of its
// sends per second (docs/performance.md#campaigns) while the event loop gained little.

const tell = (m: FromThread) => self.postMessage(m);
const tokens = new Map<number, { row: SendToken | null; at: number; asking: boolean }>();
let loops: CampaignLoops | null = null;
let files: ProjectDatabases | null = null;

function tokenOf(tokenId: number): SendToken | null {
  const t = tokens.get(tokenId);
  if (!t) return null;
  if (!t.asking && performance.now() - t.at > TOKEN_FRESH_MS) {
    t.asking = true;
    tell({ kind: "token?", tokenId });
  }
  return t.row;
}

function init(m: Extract<ToThread, { kind: "init" }>) {
  const messenger = new MessengerClient({ apiRoot: m.messengerApiRoot });
  const projectFiles = new ProjectDatabases(m.dataDir, (projectId, dropped) =>
    tell({ kind: "log", level: "warn", text: `Project ${projectId}: its file held a schema Botloom did not write; dropped ${dropped.map((e) => `${e.type} ${JSON.stringify(e.name)}`).join(", ")}` }),
  );
  // the server's budget (shared memory) and the bot's (the project file's send_pace row, through
  // this thread's own connection): a campaign sent here keeps the token's one pace with both
  const pace = new SendPace(
    m.pace,
    projectFileLedger((tokenId) => {
      const t = tokens.get(tokenId)?.row;
      return t ? projectFiles.existing(t.projectId)?.$client : undefined;
    }),
  );
  files = projectFiles;
  loops = new CampaignLoops({
    send: {
      messenger,
      pace,
      blocked: (token, userId) => {
        const db = projectFiles.existing(token.projectId);
        if (db) markBlocked(db, token.id, userId, new Date().toISOString());
      },
    },
    db: (projectId) => projectFiles.existing(projectId),
    token: tokenOf,
    emit: (e) => tell({ kind: "event", ...e }),
    recorded: (projectId, tokenId, chats) => tell({ kind: "recorded", projectId, tokenId, chats }),
    ended: (projectId, campaignId) => tell({ kind: "ended", projectId, campaignId }),
    log: (level, text) => tell({ kind: "log", level, text }),
  });
}

self.onmessage = (e: MessageEvent<ToThread>) => {
  const m = e.data;
  if (m.kind === "init") return init(m);
  if (m.kind === "run") {
    tokens.set(m.token.id, { row: m.token, at: performance.now(), asking: false });
    return loops?.run(m.projectId, m.campaignId, m.prepared);
  }
  if (m.kind === "halt") return loops?.halt(m.projectId, m.campaignId);
  if (m.kind === "token") return void tokens.set(m.tokenId, { row: m.token, at: performance.now(), asking: false });
  if (m.kind === "forget") return files?.close(m.projectId);
};
