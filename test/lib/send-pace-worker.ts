// A second thread for test/lib/send-pace.test.ts: takes slots from a SendPace over the buffer it is
// given (as the campaign sender's thread does) and answers the times they were given for.
import { SendPace } from "../../src/messenger/send-pace";

declare const self: Worker;

self.onmessage = async (e: MessageEvent<{ buffer: SharedArrayBuffer; tokenId: number; perSecond: number; count: number; pauseMs?: number }>) => {
  const { buffer, tokenId, perSecond, count, pauseMs } = e.data;
  const pace = new SendPace(buffer);
  if (pauseMs !== undefined) {
    pace.pause(tokenId, pauseMs);
    return self.postMessage([]);
  }
  const at = await Promise.all(Array.from({ length: count }, () => pace.slot(tokenId, perSecond)));
  self.postMessage(at);
};
