// Runtime source: durable waits. A delay node's continuation (and an input's timeout) is a row of
// bot_waits in the bot's file (DATABASE_PATH), so it fires after a restart: late ones at once, each exactly once. Without
// DATABASE_PATH (an exported program run on its own) the waits stay in memory.
// docs/nodes/messaging.md ("Waiting") states the rules. (Part of every generated bot; see types.ts.)
import { INDEX, NODE_SCOPE, go, inChat, log } from "./flow";
import { NODES } from "./program-data";
import { stopping } from "./launch";
import { lazyStatements } from "./connection";
import { TOKEN_ID, db, loadState, parseJson, saveState } from "./storage";
import { chatTypeOf, messageOf, systemTurn } from "./triggers";
import type { Sender, Turn } from "./types";

// ─── Durable waits ─────────────────────────────────────────────────────────────

export interface WaitRow {
  id: number;
  chat_id: string;
  node: string;
  due_at: number;
  turn: string;
}

/** What a continuation keeps of the update that reached the delay. */
export interface SavedTurn {
  from?: Sender;
  event?: Record<string, string>;
  depth?: number;
  /** the delay node the wait continues from (analytics count the transition when it runs) */
  via?: string;
  /** the chat's type, which a rebuilt update has not got (a condition's is_private) */
  chat?: string;
  /** the update's message ids and the replied-to author (delete_message's "current", a ban of "the user replied to", after a restart) */
  msg?: Turn["msg"];
}

/**
 * Waits due together run at most this many at a time, and the event loop reads the updates of
 * everyone else between two batches: 10,000 reminders due in the same second do not silence the bot.
 */
export const WAIT_BATCH = 64;

export const waitSql = db && lazyStatements({
  add: () => db!.prepare<{ id: number }, [number, string, string, number, string]>(
    "INSERT INTO bot_waits (token_id, chat_id, node, due_at, turn) VALUES (?, ?, ?, ?, ?) RETURNING id",
  ),
  // One statement takes the rows it returns: a second process on the same file never gets them too.
  // +? here and below: planned once, not at every bind (docs/database.md "Parameters planned once")
  claim: () => db!.prepare<WaitRow, [number, number, number]>(
    "DELETE FROM bot_waits WHERE id IN (SELECT id FROM bot_waits WHERE token_id = +? AND due_at <= +? ORDER BY due_at, id LIMIT +?) " +
      "RETURNING id, chat_id, node, due_at, turn",
  ),
  next: () => db!.prepare<{ due_at: number | null }, [number]>("SELECT MIN(due_at) AS due_at FROM bot_waits WHERE token_id = +?"),
  putBack: () => db!.prepare<unknown, [number, number, string, string, number, string]>(
    "INSERT OR IGNORE INTO bot_waits (id, token_id, chat_id, node, due_at, turn) VALUES (?, ?, ?, ?, ?, ?)",
  ),
  ofChat: () => db!.prepare<unknown, [number, string]>("DELETE FROM bot_waits WHERE token_id = ? AND chat_id = ?"),
  byId: () => db!.prepare<unknown, [number]>("DELETE FROM bot_waits WHERE id = ?"),
});

/** Drops the chat's pending waits (its user was deleted on the platform). */
export function dropWaitsOf(chatId: string) {
  waitSql?.ofChat.run(TOKEN_ID, chatId);
  questionWaits.delete(chatId);
  for (const [id, turn] of liveTurns) if (String(turn.chatId) === chatId) liveTurns.delete(id);
  for (const [id, w] of claimedWaits) if (w.chat_id === chatId) claimedWaits.delete(id);
  for (let i = memoryWaits.length - 1; i >= 0; i--) if (memoryWaits[i].chat_id === chatId) memoryWaits.splice(i, 1);
}

/**
 * Waits kept in memory, ordered by due time: all of them without a database, else those the file
 * refused (full, locked): they still fire while this process lives. Their ids are negative, apart
 * from the file's.
 */
export const memoryWaits: WaitRow[] = [];
export let memoryWaitId = 0;
/** The turn a wait began in, while this process still holds it (its update's context). */
export const liveTurns = new Map<number, Turn>();
export let waitTimer: ReturnType<typeof setTimeout> | undefined;
export let armedFor = Infinity;
export let firingWaits = false;
export let waitsRunning = false;

/**
 * Waits taken out of the file whose continuation has not started yet: queued behind a long turn of
 * their chat. A stop puts them back (returnUnstarted) instead of losing them with the process.
 */
export const claimedWaits = new Map<number, WaitRow>();

/**
 * The wait of each chat's newest question timeout, while this process runs: a chat waits for one
 * answer at a time, so an answer or a new question makes the older timeout moot, and it goes at
 * once instead of being kept (with its update) until it falls due.
 */
export const questionWaits = new Map<string, number>();

/** Takes a pending wait out: its row, its update held in memory, or its place in the memory list. */
export function cancelWait(waitId: number) {
  liveTurns.delete(waitId);
  if (waitId < 0) {
    const at = memoryWaits.findIndex((w) => w.id === waitId);
    if (at >= 0) memoryWaits.splice(at, 1);
    return;
  }
  try {
    waitSql?.byId.run(waitId);
  } catch (err) {
    // left in the file, it does nothing when it falls due (expireQuestion finds no such asking)
    console.error("waits: could not drop wait " + waitId + ":", err);
  }
}

/** The chat's question was answered (or another one asked): its timeout is moot. */
export function cancelQuestionTimeout(chatId: number) {
  const id = questionWaits.get(String(chatId));
  if (id === undefined) return;
  questionWaits.delete(String(chatId));
  cancelWait(id);
}

/** Stores a wait for node "id" in "seconds" and arms the clock when it is the earliest; answers its id. */
export function addWait(turn: Turn, id: string, seconds: number): number {
  const due = Date.now() + Math.max(0, Math.round(seconds * 1000));
  const saved = JSON.stringify({ from: turn.from, event: turn.event, depth: turn.depth, via: NODE_SCOPE.getStore() || undefined, chat: chatTypeOf(turn), msg: messageOf(turn) } satisfies SavedTurn);
  const chat = String(turn.chatId);
  let waitId: number | undefined;
  if (waitSql) {
    try {
      waitId = waitSql.add.get(TOKEN_ID, chat, id, due, saved)!.id;
    } catch (err) {
      console.error("chat " + turn.chatId + ": could not store the wait for node " + id + " (it is kept in memory until a restart):", err);
    }
  }
  if (waitId === undefined) {
    waitId = --memoryWaitId;
    let at = memoryWaits.length;
    while (at > 0 && memoryWaits[at - 1].due_at > due) at--;
    memoryWaits.splice(at, 0, { id: waitId, chat_id: chat, node: id, due_at: due, turn: saved });
  }
  liveTurns.set(waitId, turn);
  armWaits(due);
  return waitId;
}

/**
 * Takes up to "limit" waits due by "now" out of the store. A wait is removed when its continuation
 * starts: a crash in the middle of one does not run it twice (nor finish it).
 */
export function claimDue(now: number, limit: number): WaitRow[] {
  const rows = waitSql ? waitSql.claim.all(TOKEN_ID, now, limit) : [];
  let n = 0;
  while (n < memoryWaits.length && rows.length + n < limit && memoryWaits[n].due_at <= now) n++;
  return n > 0 ? rows.concat(memoryWaits.splice(0, n)) : rows;
}

export function nextWait(): number | undefined {
  const stored = waitSql?.next.get(TOKEN_ID)?.due_at ?? undefined;
  const held = memoryWaits[0]?.due_at;
  return stored === undefined ? held : held === undefined ? stored : Math.min(stored, held);
}

/** One timer for all waits, set for the earliest (setTimeout holds at most 2^31-1 ms: it wakes and re-arms). */
export function armWaits(due: number) {
  if (!waitsRunning || firingWaits || due >= armedFor) return;
  if (waitTimer) clearTimeout(waitTimer);
  armedFor = due;
  waitTimer = setTimeout(() => void fireWaits(), Math.min(Math.max(0, due - Date.now()), 2147483647));
}

export async function fireWaits() {
  waitTimer = undefined;
  armedFor = Infinity;
  firingWaits = true;
  let fired = 0;
  const inFlight = new Set<Promise<void>>();
  try {
    while (waitsRunning && !stopping) {
      // a continuation that waits long (an http_request, a loop's pauses) holds one place, not the rest
      if (inFlight.size >= WAIT_BATCH) {
        await Promise.race(inFlight);
        continue;
      }
      const batch = claimDue(Date.now(), WAIT_BATCH - inFlight.size);
      if (batch.length === 0) break;
      fired += batch.length;
      for (const w of batch) {
        claimedWaits.set(w.id, w);
        const run = resumeWait(w).finally(() => inFlight.delete(run));
        inFlight.add(run);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (err) {
    console.error("waits: cannot read the pending waits:", err);
  } finally {
    firingWaits = false;
  }
  if (fired > 1) console.log("waits: " + fired + " continued");
  try {
    const next = nextWait();
    if (next !== undefined) armWaits(next);
  } catch (err) {
    console.error("waits: cannot read the pending waits:", err);
  }
}

/**
 * The wait of an input's timeout continues at no node: its row names the question and when it was
 * asked, "<INPUT_TIMEOUT><input node id> <since>" (no node id starts with that character).
 */
export const INPUT_TIMEOUT = "\u23f1";

/** An input node with inputTimeout just asked: the question expires in "seconds" unless answered (or asked again). */
export function addInputTimeout(turn: Turn, nodeId: string, seconds: number) {
  const since = Date.now();
  turn.state.waiting = { ...turn.state.waiting!, since };
  cancelQuestionTimeout(turn.chatId);
  questionWaits.set(String(turn.chatId), addWait(turn, INPUT_TIMEOUT + nodeId + " " + since, seconds));
}

/** A question's timeout fell due: when the chat still waits for that very asking, it stops waiting and goes to the timeout's target. */
export async function expireQuestion(turn: Turn, mark: string) {
  const cut = mark.lastIndexOf(" ");
  const nodeId = mark.slice(INPUT_TIMEOUT.length, cut);
  const since = Number(mark.slice(cut + 1));
  const waiting = turn.state.waiting;
  // answered, or asked again since (a newer wait of its own): nothing to do
  if (!waiting || waiting.node !== nodeId || waiting.since !== since) return;
  turn.state.waiting = undefined;
  const index = INDEX.get(nodeId);
  const node = index === undefined ? undefined : NODES[index];
  const target = node && node.t === "input" ? node.timeout?.target : undefined;
  log(turn, "input " + nodeId + ": no answer in time" + (target ? "; on to " + target : ""));
  if (target) await go(turn, target, nodeId);
}

/** Continues the flow of a wait in its chat's queue: with its own update while this process has it, else rebuilt. */
export function resumeWait(w: WaitRow): Promise<void> {
  const live = liveTurns.get(w.id);
  liveTurns.delete(w.id);
  if (questionWaits.get(w.chat_id) === w.id) questionWaits.delete(w.chat_id);
  const chatId = Number(w.chat_id);
  return inChat(chatId, async () => {
    // put back by a stop while it queued: the next start runs it, not this process
    if (!claimedWaits.delete(w.id)) return;
    let base = live;
    if (!base) {
      const saved = parseJson<SavedTurn>(w.turn, {});
      base = { ...systemTurn(chatId, saved.from, saved.chat), event: saved.event ?? {}, depth: saved.depth, msg: saved.msg };
    }
    const resumed: Turn = { ...base, state: loadState(chatId), steps: 0 };
    if (w.node.startsWith(INPUT_TIMEOUT)) await expireQuestion(resumed, w.node);
    else await go(resumed, w.node, parseJson<SavedTurn>(w.turn, {}).via);
    saveState(resumed);
  });
}

/** Starts the clock once the bot can send: waits that fell due while it was down fire at once. */
export function startWaits() {
  waitsRunning = true;
  try {
    const next = nextWait();
    if (next !== undefined) armWaits(next);
  } catch (err) {
    console.error("waits: cannot read the pending waits:", err);
  }
}

/**
 * Puts the claimed waits that never started back into the file, as they were: the bot is stopping
 * and their chat's turn did not come (docs/nodes/messaging.md "Waits survive restarts"). Waits
 * kept in memory only (negative ids) have no file to go back to.
 */
export function returnUnstarted() {
  if (claimedWaits.size === 0) return;
  let back = 0;
  for (const w of claimedWaits.values()) {
    if (w.id < 0 || !waitSql) continue;
    try {
      waitSql.putBack.run(w.id, TOKEN_ID, w.chat_id, w.node, w.due_at, w.turn);
      back++;
    } catch (err) {
      console.error("waits: could not keep wait " + w.id + " for the next start:", err);
    }
  }
  claimedWaits.clear();
  if (back > 0) console.log("waits: " + back + " not started yet, kept for the next start");
}

/** Stops the clock; stored waits stay for the next start. */
export function stopWaits() {
  waitsRunning = false;
  if (waitTimer) clearTimeout(waitTimer);
  waitTimer = undefined;
  armedFor = Infinity;
}
