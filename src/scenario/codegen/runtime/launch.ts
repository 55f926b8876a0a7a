// Runtime source, part 7: content reload (shared by standalone programs and runner-hosted bots),
// then start (polling or webhook) and graceful stop of a standalone program (runners start bots
// with runtime/hosted.ts instead). (Part of every generated bot; see types.ts.)
import { webhookCallback } from "grammy";
import { writeSync as writeFdSync } from "node:fs";
import { format as formatLine } from "node:util";
import { closeNow } from "./connection";
import { closeScenarioDb, openScenarioDb } from "./data";
import { chatQueues } from "./flow";
import { closePgPools } from "./pg";
import { COMMANDS, NODES, OPTIONS } from "./program-data";
import { flushRecords, pruneTimer } from "./record";
import { commandsReady, tellBotLine } from "./platform-commands";
import { bot } from "./router";
import { ADMIN_IDS, LAUNCH_MODE, PORT, WEBHOOK_SECRET, db, env, parseJson } from "./storage";
import type { CommandDef, KeyboardDef } from "./tables";
import { allowedUpdates, startSchedules, stopSchedules } from "./triggers";
import { returnUnstarted, startWaits, stopWaits } from "./waits";
import { startBackfill, stopBackfill } from "./analytics-backfill";
import { createOutbox } from "./outbox";
import { maskedArgs } from "./http";

// ─── contentCache: node texts follow the project without a restart ─────────────

export type RawData = Record<string, unknown>;
export const isRecord = (v: unknown): v is RawData => typeof v === "object" && v !== null && !Array.isArray(v);

/** Nodes of a stored project document (sheets, flat form, json_data, or a template record). */
export function nodesOf(doc: unknown): { id: string; data: RawData }[] {
  let d = typeof doc === "string" ? parseJson<unknown>(doc, null) : doc;
  for (let i = 0; i < 3 && isRecord(d) && !Array.isArray(d.sheets) && !Array.isArray(d.nodes); i++) {
    const inner = d.json_data ?? d.data;
    d = typeof inner === "string" ? parseJson<unknown>(inner, null) : inner;
  }
  if (!isRecord(d)) return [];
  const lists = Array.isArray(d.sheets) ? d.sheets.map((s) => (isRecord(s) ? s.nodes : undefined)) : [d.nodes];
  const out: { id: string; data: RawData }[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const n of list) if (isRecord(n) && typeof n.id === "string") out.push({ id: n.id, data: isRecord(n.data) ? n.data : {} });
  }
  return out;
}

/** Replaces message texts, captions, conditional texts and button labels by those in the project. */
export function reloadTexts(json: string) {
  const nodes = nodesOf(json);
  if (nodes.length === 0) return;
  const data = new Map(nodes.map((n) => [n.id, n.data] as const));
  const labels = new Map<string, string>(); // "<node id> <button id>" → text
  const variantTexts = new Map<string, string>(); // "<node id> <conditional id>" → text
  for (const n of nodes) {
    const addLabels = (prefix: string, list: unknown) => {
      if (!Array.isArray(list)) return;
      for (const b of list) if (isRecord(b) && typeof b.id === "string" && typeof b.text === "string") labels.set(prefix + " " + b.id, b.text);
    };
    addLabels(n.id, n.data.buttons);
    const conditionals = Array.isArray(n.data.conditionalMessages) ? n.data.conditionalMessages : [];
    for (const cm of conditionals) {
      if (!isRecord(cm) || typeof cm.id !== "string") continue;
      if (typeof cm.messageText === "string") variantTexts.set(n.id + " " + cm.id, cm.messageText);
      addLabels(n.id + " " + cm.id, cm.buttons);
    }
  }
  let changed = 0;
  const relabel = (prefix: string, kb: KeyboardDef | undefined) => {
    for (const b of kb?.buttons ?? []) {
      const label = labels.get((kb!.from ?? prefix) + " " + b.id);
      if (label !== undefined && label.trim() !== "" && label !== b.text) {
        b.text = label;
        changed++;
      }
    }
  };
  for (const node of NODES) {
    if (node.t !== "message") continue;
    const d = data.get(node.id);
    if (d && typeof d.messageText === "string" && d.messageText !== node.text) {
      node.text = d.messageText;
      changed++;
    }
    const caption = d && typeof d.mediaCaption === "string" && d.mediaCaption.trim() !== "" ? d.mediaCaption : undefined;
    if (d && caption !== node.caption) {
      node.caption = caption;
      changed++;
    }
    relabel(node.id, node.keyboard);
    for (const v of node.variants ?? []) {
      const text = variantTexts.get(node.id + " " + v.id);
      const next = text !== undefined && text.trim() !== "" ? text : undefined;
      if (text !== undefined && next !== v.text) {
        v.text = next;
        changed++;
      }
      relabel(node.id + " " + v.id, v.keyboard);
    }
  }
  if (changed > 0) console.log("contentCache: " + changed + " texts reloaded from the project");
}

export let contentTimer: ReturnType<typeof setInterval> | undefined;

/** Polls the project's content mirror (written by the platform on every save) every 2 s and reloads texts when it changes. */
export function watchContent() {
  if (!OPTIONS.contentCache) return;
  if (!db) {
    console.log("contentCache needs DATABASE_PATH; texts stay as generated");
    return;
  }
  const database = db;
  let stamp: string | undefined;
  const check = () => {
    try {
      const row = database.query<{ updated_at: string }, [number]>("SELECT updated_at FROM project_content WHERE id = ?").get(1);
      if (!row || row.updated_at === stamp) return;
      stamp = row.updated_at;
      const project = database.query<{ data: string }, [number]>("SELECT data FROM project_content WHERE id = ?").get(1);
      if (project) reloadTexts(project.data);
    } catch (err) {
      console.error("contentCache: cannot read the project:", err);
    }
  };
  check();
  contentTimer = setInterval(check, 2000);
}

/**
 * The command menu. Admin-only commands are shown to ADMIN_IDS only: everyone gets the public
 * menu, each admin's private chat gets the public menu plus the admin commands.
 */
export async function registerMenu() {
  const entry = (c: CommandDef) => ({ command: c.command, description: c.description });
  const shown = COMMANDS.filter((c) => c.menu);
  const everyone = shown.filter((c) => !c.adminOnly).map(entry);
  const admins = shown.filter((c) => c.adminOnly).map(entry);
  try {
    if (everyone.length > 0) await bot.api.setMyCommands(everyone);
    if (admins.length === 0) return;
    for (const id of ADMIN_IDS) {
      if (!/^\d+$/.test(id)) continue;
      await bot.api.setMyCommands([...everyone, ...admins], { scope: { type: "chat", chat_id: Number(id) } });
    }
  } catch (err) {
    console.error("setMyCommands failed:", err);
  }
}

// ─── An idle bot's memory ──────────────────────────────────────────────────────

/** How often the bot's connections give back their page cache (docs/performance.md). */
export const SHRINK_MS = 30_000;
/** The first time, a little after the start: the start-up's reads and the first prune are done. */
export const FIRST_SHRINK_MS = 2_000;
export let shrinkTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * A runner hosts hundreds of bots and most are idle: what a start or an hour of chats read stays in
 * each connection's page cache (up to CONNECTION_CACHE_KIB a file) until given back. A busy bot
 * reads its hot pages again from the OS's cache, a few microseconds each. (Finalizing the bot's
 * prepared statements here as well cost some 2 ms a bot: 1,000 bots started together stalled
 * their runner for 2 s; docs/performance.md.)
 */
export function shrinkMemory() {
  for (const d of [db, openScenarioDb()]) {
    try {
      d?.exec("PRAGMA shrink_memory");
    } catch {
      // closed meanwhile: nothing to give back
    }
  }
}

export function startShrinking() {
  const again = () => {
    shrinkMemory();
    shrinkTimer = setTimeout(again, SHRINK_MS);
    shrinkTimer.unref?.();
  };
  shrinkTimer = setTimeout(again, FIRST_SHRINK_MS);
  shrinkTimer.unref?.();
}

// ─── Start and stop ────────────────────────────────────────────────────────────

export let server: ReturnType<typeof Bun.serve> | undefined;
export let stopping = false;

/** Ends what the bot runs on its own: the waits' clock, content polling, schedules, the webhook port, polling. */
export async function release() {
  stopWaits();
  stopBackfill();
  if (contentTimer) clearInterval(contentTimer);
  if (shrinkTimer) clearTimeout(shrinkTimer);
  stopSchedules();
  try {
    if (server) server.stop(true);
    if (bot.isRunning()) await bot.stop();
    // Updates already taken finish first (bounded), so what they sent is in the last batch.
    await Promise.race([Promise.all([...chatQueues.values()]), Bun.sleep(2000)]);
    returnUnstarted();
    if (pruneTimer) clearInterval(pruneTimer);
    flushRecords(true);
    closeScenarioDb();
    if (db) closeNow(db);
    closePgPools();
  } catch (err) {
    console.error("while stopping:", err);
  }
}

/** Checks the token, then takes updates: long polling, or the webhook port the platform forwards to. */
export async function launch() {
  try {
    await bot.init();
  } catch (err) {
    console.error("cannot start: the messenger did not accept the token:", err);
    process.exit(1);
  }
  // Stopped while the token was checked: nothing more may begin (in a runner the bot's
  // schedules and polling would outlive it).
  if (stopping) return;
  commandsReady();
  await registerMenu();
  if (stopping) return;
  watchContent();
  startSchedules();
  startWaits();
  startBackfill();
  startShrinking();
  if (LAUNCH_MODE === "webhook") {
    if (!PORT) {
      console.error("LAUNCH_MODE=webhook needs PORT");
      process.exit(1);
    }
    // The platform registers the webhook once this port listens; the bot never calls setWebhook.
    const onUpdate = webhookCallback(bot, "std/http", { secretToken: WEBHOOK_SECRET });
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: PORT,
      fetch: (req) =>
        req.method === "POST" && new URL(req.url).pathname === "/webhook"
          ? onUpdate(req)
          : new Response("Not Found", { status: 404 }),
    });
    console.log("bot started @" + bot.botInfo.username);
    console.log("listening on " + server.port);
  } else {
    bot
      .start({ allowed_updates: allowedUpdates(), onStart: (me) => console.log("bot started @" + me.username) })
      .catch((err) => {
        if (stopping) return;
        console.error("polling stopped:", err);
        void shutdown("polling failed", 1);
      });
  }
}

// ─── The program on its own ────────────────────────────────────────────────────

export async function shutdown(reason: string, code = 0) {
  if (stopping) return;
  stopping = true;
  console.log("stopping: " + reason);
  setTimeout(() => process.exit(code), 3000).unref(); // never hang on the way out
  await release();
  process.exit(code);
}

/** Supervised by the platform: its pipe on stdin carries its commands (JSON lines) and closes when it dies, and so does the bot. */
export async function exitWhenStdinCloses() {
  const reader = Bun.stdin.stream().getReader();
  const decoder = new TextDecoder();
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (pending + decoder.decode(value, { stream: true })).split("\n");
      pending = (lines.pop() ?? "").slice(-65536);
      for (const line of lines) tellBotLine(line);
    }
  } catch {
    // a broken pipe means the same
  }
  await shutdown("stdin closed");
}

/**
 * Supervised (a preview bot, a bot in a process of its own), every line this program prints is read
 * by the platform, and each write woke the platform's event loop once: printed lines leave in
 * batches (outbox.ts), and whatever waits is written on the way out, a crash included. Writes stay
 * synchronous, as console's are.
 */
export function printInBatches() {
  const outboxOf = (fd: 1 | 2) =>
    createOutbox(
      (text) => {
        try {
          writeFdSync(fd, text);
        } catch {
          // the platform's end of the pipe is gone: nobody reads these lines
        }
      },
      (fn, ms) => setTimeout(fn, ms).unref(),
    );
  const out = outboxOf(1);
  const err = outboxOf(2);
  // These replace the masking printers of http.ts, so they mask the same way.
  console.log = console.info = (...args: unknown[]) => out.send(formatLine(...maskedArgs(args)), true);
  console.warn = console.error = (...args: unknown[]) => err.send(formatLine(...maskedArgs(args)), true);
  process.on("exit", () => {
    out.flush();
    err.flush();
  });
}

export async function main() {
  const supervised = env.BOTLOOM_SUPERVISED === "1";
  if (supervised) printInBatches();
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  if (supervised) void exitWhenStdinCloses();
  await launch();
}

await main();
