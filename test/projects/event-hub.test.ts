// The live-event hub (src/modules/events/hub.ts): a bot's every message emits an event, so finding
// its recipients (the project's team, two queries) must cost nothing while no socket is open.
import { expect, test } from "bun:test";
import { SocketHub } from "../../src/modules/events/hub";

test("recipients given as a function are looked up only while some socket is open", () => {
  const hub = new SocketHub();
  let lookups = 0;
  const team = () => {
    lookups++;
    return [1, 2];
  };
  hub.send(team, { event: "chat-message" });
  expect(lookups).toBe(0);

  const got: string[] = [];
  const socket = { send: (m: string) => got.push(m), close: () => undefined };
  hub.add(2, socket);
  hub.send(team, { event: "chat-message", chatId: "7" });
  expect(lookups).toBe(1);
  expect(got.map((m) => JSON.parse(m))).toEqual([{ event: "chat-message", chatId: "7" }]);

  hub.remove(2, socket);
  hub.send(team, { event: "chat-message" });
  expect(lookups).toBe(1);
  // a plain list still works, open socket or not
  hub.add(1, socket);
  hub.send([1, 1, 3], { event: "campaign" });
  expect(got).toHaveLength(2);
});

test("a socket whose credential no longer holds is closed at its next event and gets nothing", () => {
  const hub = new SocketHub();
  const got: string[] = [];
  const closed: number[] = [];
  let valid = true;
  hub.add(1, { send: (m: string) => got.push(m), close: (code?: number) => closed.push(code ?? 0) }, () => valid);
  hub.send([1], { event: "campaign" });
  expect(got).toHaveLength(1);
  valid = false;
  hub.send([1], { event: "campaign" });
  hub.send([1], { event: "campaign" });
  expect(got).toHaveLength(1);
  expect(closed).toEqual([4401]);
});
