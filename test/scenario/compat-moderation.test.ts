// The real cleanup-chat and vprogulke-admin-panel files (../shared/compat, read in place) run their
// purpose in a group: cleanup-chat deletes the replied-to message, the last N messages (silently
// with "тихо") and purges from a reply; vprogulke's legacy moderation commands ban and mute.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { HAS_COMPAT, readCompat, removeDir, startBot, type BotProcess } from "./harness";

const suite = HAS_COMPAT ? describe : describe.skip;
const admin: FakeUser = { id: 4_500_001, first_name: "Ada" };
const member: FakeUser = { id: 4_500_002, first_name: "Mo" };

let fake: FakeMessenger;
const bots: BotProcess[] = [];

beforeAll(async () => {
  if (HAS_COMPAT) fake = await startFakeMessenger();
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) for (const b of bots) console.log(b.output());
  for (const b of bots) {
    await b.stop();
    removeDir(b.dir);
  }
  await fake?.stop();
});

/** A group message; a command gets its bot_command entity; `reply` makes it an answer to that message. */
function post(b: BotProcess, group: number, from: FakeUser, text: string, reply?: Record<string, unknown>) {
  const command = /^\/\w+/.exec(text);
  const fields: Record<string, unknown> = { text };
  if (command) fields.entities = [{ type: "bot_command", offset: 0, length: command[0].length }];
  if (reply) fields.reply_to_message = reply;
  return fake.sendGroupMessage(b.bot.token, group, from, fields).message;
}

suite("cleanup-chat (current)", () => {
  const GROUP = -1007770001;
  let b: BotProcess;
  beforeAll(async () => {
    const record = readCompat("current", "cleanup-chat");
    b = await startBot(fake, record, { generate: { projectName: record.name, userDatabaseEnabled: true } });
    bots.push(b);
  });

  test("-смс as a reply deletes that message and the command", async () => {
    const spam = post(b, GROUP, member, "buy now");
    const cmd = post(b, GROUP, admin, "-смс", spam);
    const [first, second] = await fake.waitForSent(b.bot.token, GROUP, 2, 4000);
    expect([first.method, first.params.message_id]).toEqual(["deleteMessage", spam.message_id]);
    expect([second.method, second.params.message_id]).toEqual(["deleteMessage", cmd.message_id]);
  });

  test("-смс 3 deletes the command and the 3 messages before it, then reports; with тихо it stays silent", async () => {
    for (const t of ["a", "b", "c"]) post(b, GROUP, member, t);
    const cmd = post(b, GROUP, admin, "-смс 3");
    const [del, report] = await fake.waitForSent(b.bot.token, GROUP, 2, 4000);
    expect(del.method).toBe("deleteMessages");
    expect(del.params.message_ids).toEqual([cmd.message_id, cmd.message_id - 1, cmd.message_id - 2, cmd.message_id - 3]);
    expect(report.params.text).toBe("🗑️ Удалено 3 сообщений");
    post(b, GROUP, admin, "-смс 2 тихо");
    const [silent] = await fake.waitForSent(b.bot.token, GROUP, 1, 4000);
    expect(silent.method).toBe("deleteMessages");
    await Bun.sleep(300);
    expect(fake.sent(b.bot.token, GROUP).filter((c) => c.method === "sendMessage").length).toBe(1);
  });

  test("!пург as a reply deletes everything from the marked message on", async () => {
    const from = post(b, GROUP, member, "start of the mess");
    post(b, GROUP, member, "more");
    const cmd = post(b, GROUP, admin, "!пург", from);
    const [del, done] = await fake.waitForSent(b.bot.token, GROUP, 2, 4000);
    expect(del.params.message_ids).toEqual(Array.from({ length: cmd.message_id - from.message_id + 1 }, (_, i) => from.message_id + i));
    expect(done.params.text).toBe("🗑️ Пург выполнен");
  });
});

suite("vprogulke-admin-panel (current): moderation commands", () => {
  const GROUP = -1001007770002; // a supergroup: mute (restrictChatMember) works only there
  let b: BotProcess;
  beforeAll(async () => {
    const record = readCompat("current", "vprogulke-admin-panel");
    b = await startBot(fake, record, { generate: { projectName: record.name, userDatabaseEnabled: true, enableLogging: !!process.env.DEBUG_BOT }, env: { ADMIN_IDS: String(admin.id) } });
    bots.push(b);
  });

  test("/ban_user and /mute_user answering a member's message act and confirm", async () => {
    const msg = post(b, GROUP, member, "hello");
    post(b, GROUP, admin, "/ban_user", msg);
    const [banned] = await fake.waitForSent(b.bot.token, GROUP, 1, 4000);
    expect(banned.params.text).toBe("🚫 Пользователь заблокирован в группе!");
    expect(fake.member(GROUP, member.id).status).toBe("kicked");
    post(b, GROUP, admin, "/mute_user", msg);
    const [muted] = await fake.waitForSent(b.bot.token, GROUP, 1, 4000);
    expect(muted.params.text).toBe("🔇 Пользователь ограничен в правах!");
    expect(fake.member(GROUP, member.id).status).toBe("restricted");
  });
});
