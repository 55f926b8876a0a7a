// The fake messenger's group administration, pins, forum topics, venues and blocked users refuse
// what Telegram refuses, so bots tested against it meet the same errors as in production.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeMessenger, type FakeBot, type FakeMessenger, type FakeUser } from "./fake-messenger";

let fake: FakeMessenger;
let bot: FakeBot;
const SUPERGROUP = -1001112223334;
const BASIC_GROUP = -4445556;
const ann: FakeUser = { id: 777, first_name: "Ann" };

beforeAll(async () => {
  fake = await startFakeMessenger();
  bot = fake.addBot({ username: "moderation_bot" });
});

afterAll(async () => {
  await fake.stop();
});

async function call(method: string, params: Record<string, unknown> = {}) {
  const res = await fetch(`${fake.url}/bot${bot.token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("members", () => {
  test("ban, unban only if banned, restrict (supergroups only), promote and demote change the status getChatMember reports", async () => {
    expect((await call("banChatMember", { chat_id: SUPERGROUP, user_id: ann.id, until_date: 2_000_000_000 })).body.result).toBe(true);
    expect((await call("getChatMember", { chat_id: SUPERGROUP, user_id: ann.id })).body.result).toMatchObject({ status: "kicked", until_date: 2_000_000_000 });
    await call("unbanChatMember", { chat_id: SUPERGROUP, user_id: ann.id, only_if_banned: true });
    expect(fake.member(SUPERGROUP, ann.id).status).toBe("left");
    await call("unbanChatMember", { chat_id: SUPERGROUP, user_id: ann.id, only_if_banned: true }); // not banned: no change
    expect(fake.member(SUPERGROUP, ann.id).status).toBe("left");
    await call("restrictChatMember", { chat_id: SUPERGROUP, user_id: ann.id, permissions: { can_send_messages: false } });
    expect(fake.member(SUPERGROUP, ann.id)).toMatchObject({ status: "restricted", can_send_messages: false });
    const basic = await call("restrictChatMember", { chat_id: BASIC_GROUP, user_id: ann.id, permissions: {} });
    expect(basic.body.description).toBe("Bad Request: method is available only for supergroups");
    await call("promoteChatMember", { chat_id: SUPERGROUP, user_id: ann.id, can_pin_messages: true });
    expect(fake.member(SUPERGROUP, ann.id)).toMatchObject({ status: "administrator", can_pin_messages: true });
    await call("promoteChatMember", { chat_id: SUPERGROUP, user_id: ann.id, can_pin_messages: false });
    expect(fake.member(SUPERGROUP, ann.id).status).toBe("member");
  });

  test("refusals: private chats, bad user ids, the bot itself, bad until_date, missing permissions", async () => {
    const refused = async (method: string, params: Record<string, unknown>) => (await call(method, params)).body.description;
    expect(await refused("banChatMember", { chat_id: ann.id, user_id: 5 })).toBe("Bad Request: chat member status can't be changed in private chats");
    expect(await refused("banChatMember", { chat_id: SUPERGROUP, user_id: "x" })).toBe("Bad Request: invalid user_id specified");
    expect(await refused("banChatMember", { chat_id: SUPERGROUP, user_id: bot.id })).toBe("Bad Request: can't restrict self");
    expect(await refused("banChatMember", { chat_id: SUPERGROUP, user_id: 5, until_date: -1 })).toBe("Bad Request: invalid until_date specified");
    expect(await refused("restrictChatMember", { chat_id: SUPERGROUP, user_id: 5 })).toBe("Bad Request: can't parse chat permissions JSON object");
  });
});

describe("pins, topics, venues, blocked users", () => {
  test("pin needs a known message; unpin needs a pinned one; unpinAll clears", async () => {
    const sent = await call("sendMessage", { chat_id: SUPERGROUP, text: "rules" });
    const id = sent.body.result.message_id;
    expect((await call("pinChatMessage", { chat_id: SUPERGROUP, message_id: 999 })).body.description).toBe("Bad Request: message to pin not found");
    await call("pinChatMessage", { chat_id: SUPERGROUP, message_id: id });
    expect(fake.pinned(SUPERGROUP)).toEqual([id]);
    await call("unpinChatMessage", { chat_id: SUPERGROUP });
    expect(fake.pinned(SUPERGROUP)).toEqual([]);
    expect((await call("unpinChatMessage", { chat_id: SUPERGROUP })).body.description).toBe("Bad Request: there is no pinned message");
    await call("pinChatMessage", { chat_id: SUPERGROUP, message_id: id });
    await call("unpinAllChatMessages", { chat_id: SUPERGROUP });
    expect(fake.pinned(SUPERGROUP)).toEqual([]);
  });

  test("createForumTopic only in forums, with a name and a known icon colour", async () => {
    expect((await call("createForumTopic", { chat_id: SUPERGROUP, name: "x" })).body.description).toBe("Bad Request: the chat is not a forum");
    fake.setForum(SUPERGROUP);
    expect((await call("createForumTopic", { chat_id: SUPERGROUP, name: " " })).body.description).toBe("Bad Request: TOPIC_TITLE_EMPTY");
    expect((await call("createForumTopic", { chat_id: SUPERGROUP, name: "x", icon_color: 1 })).body.description).toBe("Bad Request: TOPIC_ICON_COLOR_INVALID");
    const topic = await call("createForumTopic", { chat_id: SUPERGROUP, name: "Orders" });
    expect(topic.body.result).toMatchObject({ name: "Orders", icon_color: 7322096 });
    expect(Number.isInteger(topic.body.result.message_thread_id)).toBe(true);
  });

  test("sendVenue needs title and address; a user who blocked the bot gets nothing (403)", async () => {
    expect((await call("sendVenue", { chat_id: ann.id, latitude: 1, longitude: 2, title: "A" })).body.description).toBe("Bad Request: venue title and address must be non-empty");
    const venue = await call("sendVenue", { chat_id: ann.id, latitude: 1, longitude: 2, title: "A", address: "B" });
    expect(venue.body.result.venue).toMatchObject({ title: "A", address: "B", location: { latitude: 1, longitude: 2 } });
    fake.setBlocked(ann.id, true);
    const blocked = await call("sendMessage", { chat_id: ann.id, text: "hi" });
    expect(blocked.status).toBe(403);
    expect(blocked.body.description).toBe("Forbidden: bot was blocked by the user");
    fake.setBlocked(ann.id, false);
    expect((await call("sendMessage", { chat_id: ann.id, text: "hi" })).status).toBe(200);
  });

  test("a keyboard of more than 100 buttons is refused as a whole (BUTTONS_TOO_MUCH)", async () => {
    const row = (n: number) => Array.from({ length: n }, (_, i) => ({ text: String(i), callback_data: "d" + i }));
    const ok = await call("sendMessage", { chat_id: ann.id, text: "k", reply_markup: { inline_keyboard: Array.from({ length: 20 }, () => row(5)) } });
    expect(ok.status).toBe(200);
    const tooMany = await call("sendMessage", { chat_id: ann.id, text: "k", reply_markup: { inline_keyboard: [...Array.from({ length: 20 }, () => row(5)), row(1)] } });
    expect(tooMany.body.description).toBe("Bad Request: BUTTONS_TOO_MUCH");
  });
});
