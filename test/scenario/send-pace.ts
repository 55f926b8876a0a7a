// What the tests of a bot's mass sends (broadcasts, schedules "for every user") hold them to:
// the pace and its allowance as docs/nodes/messaging.md#broadcast states them.
import type { RecordedCall } from "../support/fake-messenger";

/** runtime/broadcast.ts BROADCAST_PER_SECOND: the bot's mass sends per second */
export const PER_SECOND = 25;
/** runtime/broadcast.ts BROADCAST_IN_FLIGHT: users' sends (turns) in flight at most */
export const IN_FLIGHT = 5;
/** What the messenger allows a bot in any one second before it answers 429. */
export const MESSENGER_LIMIT = 30;
/**
 * Slots are at least 42 ms apart (25 a second and 2 ms of slack), so at most 24 fall in any one
 * second; what reaches the messenger in it is those and the sends still in flight when it began.
 */
export const MOST_IN_A_SECOND = Math.ceil(1000 / (1000 / PER_SECOND + 2)) + IN_FLIGHT;

/** The largest number of calls inside any one-second window (by the fake's recorded times). */
export function busiestSecond(calls: RecordedCall[]): number {
  const times = calls.map((c) => c.at).sort((x, y) => x - y);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Calls per second on average, from the first to the last. */
export function averagePerSecond(calls: RecordedCall[]): number {
  const times = calls.map((c) => c.at).sort((x, y) => x - y);
  return ((times.length - 1) * 1000) / (times.at(-1)! - times[0]!);
}
