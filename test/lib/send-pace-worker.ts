// A second thread for test/lib/send-pace.test.ts: takes slots from a SendPace over the buffer it is
// given (as the campaign sender's thread does) and answers the times they were given for; with a
// project file's path, also reserving in its send_pace row through a connection of its own (as the
// sender's thread does through its own ProjectDatabases).
import { Database } from "bun:sqlite";
import { projectFileLedger, SendPace } from "../../src/messenger/send-pace";

declare const self: Worker;

self.onmessage = async (e: MessageEvent<{ buffer: SharedArrayBuffer; tokenId: number; perSecond: number; count: number; pauseMs?: number; file?: string }>) => {
  const { buffer, tokenId, perSecond, count, pauseMs, file } = e.data;
  const own = file === undefined ? undefined : new Database(file);
  own?.exec("PRAGMA busy_timeout = 5000");
  const pace = new SendPace(buffer, own && projectFileLedger(() => own));
  if (pauseMs !== undefined) {
    pace.pause(tokenId, pauseMs);
    own?.close();
    return self.postMessage([]);
  }
  const at = await Promise.all(Array.from({ length: count }, () => pace.slot(tokenId, perSecond)));
  own?.close();
  self.postMessage(at);
};
