// Executes a generated bot in a group: the eight moderation nodes (the legacy form that answers its
// own /command and confirms with its text), pin/unpin of the replied-to message and forum topics,
// each checked through the member status / pins the fake messenger keeps. A moderation command in a
// private chat fails with the messenger's error, logged once, and the bot keeps serving.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { GROUP_ID, moderationScenario as scenario } from "./fixtures-messaging";
import { Chat, removeDir, startBot, type BotProcess } from "./harness";

let fake: FakeMessenger;
let b: BotProcess;
const admin: FakeUser = { id: 4_200_001, first_name: "Ada", language_code: "en" };
const victim: FakeUser = { id: 4_200_002, first_name: "Vic", language_code: "en" };

beforeAll(async () => {
  fake = await startFakeMessenger();
  b = await startBot(fake, scenario, { env: { ADMIN_IDS: String(admin.id) }, generate: { enableLogging: !!process.env.DEBUG_BOT } });
});

afterAll(async () => {
  if (process.env.DEBUG_BOT) console.log(b?.output());
  await b?.stop();
  if (b) removeDir(b.dir);
  await fake?.stop();
});

/** The admin answers the victim's latest group message with a command; resolves with the bot's reply. */
async function replyWith(command: string, chatId = GROUP_ID) {
  const target = fake.sendGroupMessage(b.bot.token, chatId, victim, "hello everyone").message;
  fake.sendGroupMessage(b.bot.token, chatId, admin, {
    text: command,
    entities: [{ type: "bot_command", offset: 0, length: command.length }],
    reply_to_message: target,
  });
  const [reply] = await fake.waitForSent(b.bot.token, chatId, 1, 4000);
  return { reply, target };
}

describe("group moderation", () => {
  test("ban, unban, kick: the member's status changes and the node confirms", async () => {
    expect((await replyWith("/ban")).reply.params.text).toBe("banned");
    expect(fake.member(GROUP_ID, victim.id).status).toBe("kicked");
    expect((await replyWith("/unban")).reply.params.text).toBe("unbanned");
    expect(fake.member(GROUP_ID, victim.id).status).toBe("left");
    expect((await replyWith("/kick")).reply.params.text).toBe("kicked");
    const kick = fake.calls(b.bot.token, "unbanChatMember").at(-1)!;
    expect(kick.params.only_if_banned).toBeUndefined();
  });

  test("mute for muteDuration seconds, then unmute", async () => {
    const before = Math.floor(Date.now() / 1000);
    expect((await replyWith("/mute")).reply.params.text).toBe("muted");
    const muted = fake.member(GROUP_ID, victim.id);
    expect(muted.status).toBe("restricted");
    expect(muted.can_send_messages).toBe(false);
    expect(muted.until_date).toBeGreaterThanOrEqual(before + 3600);
    expect((await replyWith("/unmute")).reply.params.text).toBe("unmuted");
    expect(fake.member(GROUP_ID, victim.id).status).toBe("member");
  });

  test("promote with the node's rights, admin_rights with Bot API names, demote", async () => {
    expect((await replyWith("/promote")).reply.params.text).toBe("promoted");
    expect(fake.member(GROUP_ID, victim.id)).toMatchObject({ status: "administrator", can_delete_messages: true, can_pin_messages: true, can_manage_chat: true });
    expect(fake.member(GROUP_ID, victim.id).can_invite_users).toBeUndefined();
    expect((await replyWith("/rights")).reply.params.text).toBe("rights set");
    expect(fake.member(GROUP_ID, victim.id)).toMatchObject({ status: "administrator", can_invite_users: true, can_manage_topics: true });
    expect((await replyWith("/demote")).reply.params.text).toBe("demoted");
    expect(fake.member(GROUP_ID, victim.id).status).toBe("member");
  });

  test("a user id from a variable (manual source with a template)", async () => {
    const other: FakeUser = { id: 4_200_003, first_name: "Oz" };
    // no variable yet: the action fails with one log line, the bot answers nothing for it
    fake.sendGroupMessage(b.bot.token, GROUP_ID, admin, { text: "/banid", entities: [{ type: "bot_command", offset: 0, length: 6 }] });
    await b.waitForOutput(/node ban-id \(moderate\) failed: user id "" is not a number/);
    expect(fake.member(GROUP_ID, other.id).status).toBe("member");
  });

  test("pin and unpin the replied-to message", async () => {
    const { reply, target } = await replyWith("/pin");
    expect(reply.params.text).toBe("pinned");
    expect(fake.pinned(GROUP_ID)).toEqual([target.message_id]);
    const pin = fake.calls(b.bot.token, "pinChatMessage").at(-1)!;
    expect(pin.params.disable_notification).toBe(true);
    fake.sendGroupMessage(b.bot.token, GROUP_ID, admin, {
      text: "/unpin",
      entities: [{ type: "bot_command", offset: 0, length: 6 }],
      reply_to_message: target,
    });
    await fake.waitForSent(b.bot.token, GROUP_ID, 1, 4000);
    expect(fake.pinned(GROUP_ID)).toEqual([]);
  });

  test("create_forum_topic in a forum stores the thread id; elsewhere the messenger's refusal is logged", async () => {
    const forum = -1009876543210;
    fake.setForum(forum);
    fake.sendGroupMessage(b.bot.token, forum, admin, { text: "/topic", entities: [{ type: "bot_command", offset: 0, length: 6 }] });
    const [done] = await fake.waitForSent(b.bot.token, forum, 1, 4000);
    const created = fake.calls(b.bot.token, "createForumTopic").at(-1)!;
    expect(created.params).toMatchObject({ name: "Orders of Ada", icon_color: 16766590 });
    expect(done.params.text).toMatch(/^topic \d+$/);
    fake.sendGroupMessage(b.bot.token, GROUP_ID, admin, { text: "/topic", entities: [{ type: "bot_command", offset: 0, length: 6 }] });
    await b.waitForOutput(/node a-topic \(topic\) failed: Bad Request: the chat is not a forum/);
    // the flow goes on after a refused action (the reference's ignoreErrors): nothing was stored
    expect((await fake.waitForSent(b.bot.token, GROUP_ID, 1, 4000))[0].params.text).toBe("topic ");
  });

  test("a moderation command in a private chat logs the messenger's error; the bot keeps serving", async () => {
    const chat = new Chat(b, admin);
    fake.sendText(b.bot.token, admin, "/rights");
    await b.waitForOutput(/node rights \(moderate\) failed: reply to a message/);
    await chat.quiet(200);
    expect((await replyWith("/ban")).reply.params.text).toBe("banned");
  });
});
