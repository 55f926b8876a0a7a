// Document → compiled tables (nodes, commands, text triggers). Document order is kept everywhere:
// it is what the author sees and it keeps the output deterministic.
import type { z } from "zod";
import { commandTriggerDataSchema, messageDataSchema, textTriggerDataSchema, type DocumentNodes, parseNodeData } from "../model";
import { commandName } from "../refs";
import { cut } from "../../lib/shared-render";
import { CompileContext, TABLE_TYPES, text, type RawNode } from "./compile-context";
import { compileConvertFile, compileLoop, compileParallel } from "./compile-control";
import { compileAi } from "./compile-ai";
import { compileBotTable, compilePsqlQuery } from "./compile-data";
import { compileHttp } from "./compile-http";
import { ACTION_TYPES } from "../types-messaging";
import { compileAction, compileKeyboardRow } from "./compile-actions";
import { compileInputNode } from "./compile-input";
import { compileCondition, compileDelay, compileSetVariable } from "./compile-logic";
import { compileMessage } from "./compile-message";
import { compileTrigger, type TriggerTables } from "./compile-triggers";
import type { CommandDef, CompiledScenario, DeepLinkDef, TableEntry, TableNode, TextTriggerDef } from "./table";

/** Telegram accepts only these names in the command menu (setMyCommands). */
const MENU_NAME = /^[a-z0-9_]{1,32}$/;
const ACTIONS = new Set<string>(ACTION_TYPES);
/**
 * The message fields every table node is read for (a legacy command or synonyms), with their
 * message schemas: parsing the whole message schema for every node cost more than compiling it.
 */
const legacyFieldsSchema = messageDataSchema.pick({ command: true, description: true, showInMenu: true, adminOnly: true, synonyms: true }).strip();
type LegacyFields = z.infer<typeof legacyFieldsSchema>;

interface CommandClaim {
  def: CommandDef;
  /** command_trigger claims beat legacy ones (start/command/message with `command`) */
  trigger: boolean;
  node: RawNode;
}

function flatten(doc: DocumentNodes): RawNode[] {
  const out: RawNode[] = [];
  doc.sheets.forEach((sheet, i) => {
    for (const n of sheet.nodes) {
      out.push({
        id: n.id,
        type: n.type,
        data: n.data ?? {},
        sheetId: sheet.id,
        sheetName: sheet.name ?? sheet.id ?? `sheet ${i + 1}`,
      });
    }
  });
  return out;
}

function compileNode(node: RawNode, ctx: CompileContext): TableNode {
  switch (node.type) {
    case "input":
      return compileInputNode(node, ctx);
    case "condition":
      return compileCondition(node, ctx);
    case "set_variable":
      return compileSetVariable(node, ctx);
    case "delay":
      return compileDelay(node, ctx);
    case "http_request":
      return compileHttp(node, ctx);
    case "loop":
      return compileLoop(node, ctx);
    case "parallel_split":
      return compileParallel(node, ctx);
    case "convert_file":
      return compileConvertFile(node, ctx);
    case "bot_table":
      return compileBotTable(node, ctx);
    case "psql_query":
      return compilePsqlQuery(node, ctx);
    case "ai_answer":
      return compileAi(node, ctx);
    default:
      if (ACTIONS.has(node.type)) return compileAction(node, ctx);
      return compileMessage(node, ctx); // start, command, message, photo, video, audio, document
  }
}

function commandDef(name: string, target: string, description: string | undefined, menu: boolean | undefined, adminOnly: boolean | undefined): CommandDef {
  const desc = (description ?? "").trim() || name; // Telegram rejects empty descriptions
  return {
    command: name,
    target,
    // never half of an emoji: Telegram refuses the whole menu for one such description
    description: desc.length > 256 ? cut(desc, 255) + "…" : desc,
    menu: menu && MENU_NAME.test(name) ? true : undefined,
    adminOnly: adminOnly ? true : undefined,
  };
}

/** The command a legacy node answers itself, if any. */
function legacyClaim(node: RawNode, d: LegacyFields): CommandClaim | undefined {
  const raw = text(d.command) ?? text(node.data.commandName) ?? (node.type === "start" ? "/start" : undefined);
  if (!raw || !(node.type === "start" || node.type === "command" || node.type === "message" || ACTIONS.has(node.type))) return undefined;
  const name = commandName(raw);
  if (!name) return undefined;
  return { def: commandDef(name, node.id, d.description, d.showInMenu, d.adminOnly), trigger: false, node };
}

/** One command, one reply: the first command_trigger wins, else the first legacy node. */
function resolveCommands(claims: CommandClaim[], ctx: CompileContext): CommandDef[] {
  const winners = new Map<string, CommandClaim>();
  for (const claim of claims) {
    const name = claim.def.command;
    const current = winners.get(name);
    if (!current || (claim.trigger && !current.trigger)) {
      winners.set(name, claim);
    } else if (claim.trigger && current.trigger) {
      ctx.warn(claim.node, "command.taken", { command: name, triggerNode: current.node.id });
    }
  }
  // Keep document order of the winners.
  return claims.filter((c) => winners.get(c.def.command) === c).map((c) => c.def);
}

/** Telegram's setMyCommands takes at most this many commands: one more and it refuses the whole menu. */
export const MENU_MAX = 100;

/**
 * The menu as Telegram takes it: at most MENU_MAX commands for everyone, and as many in an admin's
 * own menu (everyone's and the admin-only ones); the ones beyond, in document order, stay commands
 * but leave the menu, with one warning.
 */
function capMenu(commands: CommandDef[], ctx: CompileContext): CommandDef[] {
  const shown = commands.filter((c) => c.menu);
  const everyone = shown.filter((c) => !c.adminOnly);
  const admins = shown.filter((c) => c.adminOnly);
  const out = new Set([...everyone.slice(MENU_MAX), ...admins.slice(Math.max(0, MENU_MAX - Math.min(everyone.length, MENU_MAX)))]);
  if (out.size === 0) return commands;
  const first = [...out][0]!;
  ctx.warn(ctx.byId.get(first.via ?? first.target), "command.menuFull", { max: MENU_MAX, count: out.size, command: first.command });
  return commands.map((c) => (out.has(c) ? { ...c, menu: undefined } : c));
}

interface DeepLinkClaim {
  node: RawNode;
  command: string;
  /** the command's row when no trigger without a parameter claims it (target "": nothing runs) */
  def: CommandDef;
  link: DeepLinkDef;
}

/** Telegram's deep-link parameters: up to 64 of A-Z, a-z, 0-9, _ and - (docs/nodes/triggers.md). */
const DEEP_LINK_PARAM = /^[A-Za-z0-9_-]{1,64}$/;

function deepLink(node: RawNode, d: z.infer<typeof commandTriggerDataSchema>, target: string, ctx: CompileContext): DeepLinkDef {
  const value = d.deepLinkParam!.trim();
  if (!DEEP_LINK_PARAM.test(value)) {
    ctx.warn(node, "command.deepLinkInvalid", { param: value });
  }
  const prefix = d.deepLinkMatchMode === "startsWith" || d.deepLinkMatchMode === "prefix";
  const saveAs = d.deepLinkSaveToVar !== false && d.deepLinkVarName?.trim() ? d.deepLinkVarName.trim() : undefined;
  return { match: prefix ? "prefix" : "exact", value, target, saveAs, via: node.id };
}

/** Deep links join their command's row; exact parameters are tried first, then the longest prefix. */
function withDeepLinks(commands: CommandDef[], links: DeepLinkClaim[], ctx: CompileContext): CommandDef[] {
  const seen = new Map<string, DeepLinkClaim>();
  for (const claim of links) {
    const key = claim.command + " " + claim.link.match + " " + claim.link.value;
    const first = seen.get(key);
    if (first) {
      ctx.warn(claim.node, "command.deepLinkTaken", { command: claim.command, param: claim.link.value, triggerNode: first.node.id });
      continue;
    }
    seen.set(key, claim);
    let def = commands.find((c) => c.command === claim.command);
    if (!def) commands.push((def = claim.def));
    (def.links ??= []).push(claim.link);
  }
  for (const def of commands) {
    def.links?.sort((a, b) => (a.match === b.match ? (a.match === "prefix" ? b.value.length - a.value.length : 0) : a.match === "exact" ? -1 : 1));
  }
  return commands;
}

export function compileScenario(doc: DocumentNodes): { compiled: CompiledScenario; warnings: CompileContext["warnings"] } {
  const raw = flatten(doc);
  const ctx = new CompileContext(new Map(raw.map((n) => [n.id, n])));
  const nodes: TableEntry[] = [];
  const claims: CommandClaim[] = [];
  const links: DeepLinkClaim[] = [];
  const textTriggers: TextTriggerDef[] = [];
  const skipped: CompiledScenario["skipped"] = [];
  const triggers: TriggerTables = { callbackTriggers: [], messageTriggers: [], schedules: [] };

  for (const node of raw) {
    if (TABLE_TYPES.has(node.type)) {
      nodes.push({ node: compileNode(node, ctx), sourceType: node.type, sheet: node.sheetName });
      const legacy = parseNodeData(legacyFieldsSchema, node.data);
      const claim = legacyClaim(node, legacy);
      if (claim) claims.push(claim);
      const synonyms = (legacy.synonyms ?? []).filter((s) => s.trim() !== "");
      if (synonyms.length > 0 && node.type !== "input" && node.type !== "condition") {
        textTriggers.push({ match: "exact", texts: synonyms, target: node.id });
      }
    } else if (node.type === "command_trigger") {
      const d = parseNodeData(commandTriggerDataSchema, node.data);
      const name = commandName(d.command ?? "");
      const target = ctx.target(node, d.autoTransitionTo, "autoTransitionTo");
      if (!name) ctx.warn(node, "command.noCommand");
      else if (!target) ctx.warn(node, "command.leadsNowhere", { command: name });
      else if (d.deepLinkParam?.trim()) links.push({ node, command: name, def: commandDef(name, "", d.description, d.showInMenu, d.adminOnly), link: deepLink(node, d, target, ctx) });
      else claims.push({ def: { ...commandDef(name, target, d.description, d.showInMenu, d.adminOnly), via: node.id }, trigger: true, node });
    } else if (node.type === "text_trigger") {
      const d = parseNodeData(textTriggerDataSchema, node.data);
      const texts = (d.textSynonyms ?? []).filter((s) => s.trim() !== "");
      const target = ctx.target(node, d.autoTransitionTo, "autoTransitionTo");
      if (texts.length === 0) ctx.warn(node, "textTrigger.noTexts");
      else if (target) {
        const match = d.textMatchType === "contains" ? "contains" : "exact";
        textTriggers.push({ match, texts, target, adminOnly: d.adminOnly ? true : undefined, via: node.id });
      }
    } else if (compileTrigger(node, ctx, triggers)) {
      // its own table (compile-triggers.ts)
    } else if (node.type !== "keyboard" && node.type !== "comment") {
      skipped.push({ id: node.id, type: node.type });
    }
  }
  // Keyboard nodes reached by a transition (compiling one may reach another).
  const done = new Set<string>();
  for (let more = true; more; ) {
    more = false;
    for (const id of [...ctx.keyboardTargets]) {
      if (done.has(id)) continue;
      done.add(id);
      more = true;
      const node = ctx.byId.get(id)!;
      nodes.push({ node: compileKeyboardRow(node, ctx), sourceType: node.type, sheet: node.sheetName });
    }
  }
  return {
    compiled: { nodes, commands: capMenu(withDeepLinks(resolveCommands(claims, ctx), links, ctx), ctx), textTriggers, ...triggers, skipped },
    warnings: ctx.warnings,
  };
}
