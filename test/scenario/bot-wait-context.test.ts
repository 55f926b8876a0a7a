// A flow that runs without an update of its own — a delay's continuation after a restart, an
// inbound webhook's flow — sees its chat as an update there would: a condition on the chat's type
// (is_private) takes the same branch as it does while the process still holds the update, and a
// delete_message of the "current" message deletes the message that started the flow, and a ban of
// "the user replied to" names that user, and an edit of the pressed message edits that message.
// A real program on the fake messenger, killed with SIGKILL inside the delay.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { until } from "../support/process";
import { Chat, doc, node, pendingWaits, removeDir, startBot, tmpDir, type BotProcess } from "./harness";

const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });
const scenario = doc(
  cmd("where", "noted"),
  node("noted", "message", { messageText: "noted", enableAutoTransition: true, autoTransitionTo: "pause" }),
  node("pause", "delay", { delaySeconds: 2, autoTransitionTo: "kind" }),
  node("kind", "condition", { branches: [{ id: "p", operator: "is_private", value: "", target: "in-private" }, { id: "g", operator: "is_group", value: "", target: "in-group" }, { id: "e", operator: "else", value: "", target: "unknown" }] }),
  node("in-private", "message", { messageText: "private chat" }),
  node("in-group", "message", { messageText: "group chat" }),
  node("unknown", "message", { messageText: "unknown chat" }),
  node("wh", "webhook_trigger", { autoTransitionTo: "kind" }),
  // "your message goes in 2 s": the delete names the message that started the flow
  cmd("tidy", "tidy-note"),
  node("tidy-note", "message", { messageText: "goes soon", enableAutoTransition: true, autoTransitionTo: "tidy-pause" }),
  node("tidy-pause", "delay", { delaySeconds: 2, autoTransitionTo: "tidy-del" }),
  node("tidy-del", "delete_message", { messageIdSource: "current_message" }),
  // a moderator replies "/ban" to a member's message in a group: the ban names the member replied to
  cmd("ban", "ban-note"),
  node("ban-note", "message", { messageText: "banning soon", enableAutoTransition: true, autoTransitionTo: "ban-pause" }),
  node("ban-pause", "delay", { delaySeconds: 2, autoTransitionTo: "ban-do" }),
  node("ban-do", "ban_user", { userIdSource: "reply_user" }),
  // a pressed button's flow waits, then edits the message whose button was pressed (not the bot's latest)
  cmd("menu", "menu-msg"),
  node("menu-msg", "message", { messageText: "menu", keyboardType: "inline", buttons: [{ id: "b-go", text: "Go", action: "goto", target: "edit-note" }] }),
  node("edit-note", "message", { messageText: "editing soon", enableAutoTransition: true, autoTransitionTo: "edit-pause" }),
  node("edit-pause", "delay", { delaySeconds: 2, autoTransitionTo: "edit-do" }),
  node("edit-do", "edit_message", { editMessageText: "menu, done" }),
);

let fake: FakeMessenger;
const bots: BotProcess[] = [];
let dir: string;

beforeAll(async () => {
  fake = await startFakeMessenger();
  dir = tmpDir("wait-context-");
});

afterAll(async () => {
  for (const b of bots) await b.stop();
  await fake.stop();
  removeDir(dir);
});

const texts = (token: string, chat: number) => fake.sent(token, chat).map((c) => c.params.text);

test("a delay's continuation after a SIGKILL sees a private chat as private, as it does without the kill", async () => {
  const dbPath = join(dir, "project.db");
  const env = { DATABASE_PATH: dbPath, BOTLOOM_SUPERVISED: "1" };
  const first = await startBot(fake, scenario, { dir, env, stdin: "pipe" });
  bots.push(first);
  // without a restart: the continuation has the update it began with
  const ann = new Chat(first, { first_name: "Ann" });
  fake.sendText(first.bot.token, ann.user, "/where");
  await fake.waitForSent(first.bot.token, ann.user.id, 2, 15_000);
  expect(texts(first.bot.token, ann.user.id)).toEqual(["noted", "private chat"]);

  const bob = { id: 9_300_002, first_name: "Bob" };
  fake.sendText(first.bot.token, bob, "/where");
  await fake.waitForSent(first.bot.token, bob.id, 1, 15_000);
  const dan = { id: 9_300_004, first_name: "Dan" };
  const tidy = fake.sendText(first.bot.token, dan, "/tidy");
  await fake.waitForSent(first.bot.token, dan.id, 1, 15_000);
  const group = -1_009_300_000;
  const [mod, member] = [{ id: 9_300_005, first_name: "Mod" }, { id: 9_300_006, first_name: "Mel" }];
  const said = fake.sendGroupMessage(first.bot.token, group, member, "spam");
  fake.sendGroupMessage(first.bot.token, group, mod, { text: "/ban", entities: [{ type: "bot_command", offset: 0, length: 4 }], reply_to_message: said.message });
  await fake.waitForSent(first.bot.token, group, 1, 15_000);
  const eve = new Chat(first, { first_name: "Eve" });
  await eve.say("/menu");
  const menuId = fake.sent(first.bot.token, eve.user.id)[0]!.messageId;
  await eve.tap("Go");
  await until(() => pendingWaits(dbPath) === 4, "the waits stored");
  await fake.waitForConfirmed(first.bot.token);
  first.proc.kill("SIGKILL");
  await first.proc.exited;

  const second = await startBot(fake, scenario, { dir, env, bot: first.bot, stdin: "pipe" });
  bots.push(second);
  await fake.waitForSent(first.bot.token, bob.id, 1, 15_000);
  expect(texts(first.bot.token, bob.id)).toEqual(["noted", "private chat"]);
  const [del] = await fake.waitForSent(first.bot.token, dan.id, 1, 15_000);
  expect(del!.method).toBe("deleteMessage");
  expect(del!.params.message_id).toBe(tidy.message!.message_id);
  const ban = await fake.waitForCall(first.bot.token, (c) => c.method === "banChatMember", 15_000);
  expect([ban.params.chat_id, ban.params.user_id].map(Number)).toEqual([group, member.id]);
  const edit = await fake.waitForCall(first.bot.token, (c) => c.method === "editMessageText" && Number(c.params.chat_id) === eve.user.id, 15_000);
  expect([edit.params.message_id, edit.params.text]).toEqual([menuId, "menu, done"]);
}, 60_000);

test("an inbound webhook's flow in a user's chat sees a private chat (a positive id is one)", async () => {
  const b = await startBot(fake, scenario, { env: { BOTLOOM_SUPERVISED: "1" }, stdin: "pipe" });
  bots.push(b);
  const stdin = b.proc.stdin as import("bun").FileSink;
  for (const chat of [9_300_003, -1_001_234_567]) stdin.write(JSON.stringify({ op: "hook", chatId: String(chat), nodeId: "wh", vars: {} }) + "\n");
  stdin.flush();
  await fake.waitForSent(b.bot.token, 9_300_003, 1, 15_000);
  await fake.waitForSent(b.bot.token, -1_001_234_567, 1, 15_000);
  expect(texts(b.bot.token, 9_300_003)).toEqual(["private chat"]);
  // a negative id may be a group or a channel: no type is made up
  expect(texts(b.bot.token, -1_001_234_567)).toEqual(["unknown chat"]);
}, 30_000);
