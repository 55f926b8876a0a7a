// Dialogs and people tools (docs/dialogs.md): the same services as /api/bot/tokens/{id}/chats and
// /users, with the same access checks (the token's project, owner or collaborator).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { PEOPLE_FILTERS, PEOPLE_SORTS } from "../../modules/bot-users/model";
import { PeopleService } from "../../modules/bot-users/people";
import { CHAT_FILTERS, CHAT_KINDS, CHATS_PER_PAGE_MAX, editSchema, MESSAGES_LIMIT_MAX, sendSchema, takeoverSchema } from "../../modules/dialogs/model";
import { chatIdParam, DialogsService } from "../../modules/dialogs/service";
import { defineTool, type ToolContext } from "../tool";

const tokenId = z.number().int().positive().describe("The bot token's id (list_tokens)");
const chatId = z.string().regex(/^-?\d{1,20}$/).describe("The chat id, as a string (list_chats)");
const userId = z.string().regex(/^\d{1,20}$/).describe("The messenger user id, as a string");

export function dialogTools(server: McpServer, tc: ToolContext) {
  const dialogs = new DialogsService(tc.ctx);
  const people = new PeopleService(tc.ctx);

  defineTool(server, tc, "list_chats", {
    title: "List a bot's chats",
    description: "The chats of a token's bot, most recent first: who, last message, unread count, takeover and blocked flags.",
    input: {
      tokenId,
      search: z.string().max(100).optional().describe("title, first or last name, full name \"first last\" or \"last first\", @username (substring) or exact id"),
      kind: z.enum(CHAT_KINDS).optional(),
      filter: z.enum(CHAT_FILTERS).optional(),
      page: z.number().int().min(1).optional(),
      perPage: z.number().int().min(1).max(CHATS_PER_PAGE_MAX).optional(),
    },
    readOnly: true,
  }, (a) => dialogs.chats(a.tokenId, tc.userId, { search: a.search ?? "", kind: a.kind, filter: a.filter ?? "all" }, a.page ?? 1, a.perPage ?? 50) as unknown as Record<string, unknown>);

  defineTool(server, tc, "read_chat", {
    title: "Read a chat",
    description: "Messages of a chat (both sides, button presses, which node sent each bot message), oldest first; `before` pages back.",
    input: { tokenId, chatId, before: z.number().int().positive().optional(), limit: z.number().int().min(1).max(MESSAGES_LIMIT_MAX).optional() },
    readOnly: true,
  }, (a) => dialogs.messages(a.tokenId, tc.userId, chatIdParam(a.chatId), a.before, a.limit ?? 50) as unknown as Record<string, unknown>);

  defineTool(server, tc, "send_as_bot", {
    title: "Send as the bot",
    description: "Sends a message to a chat as the bot (the bot need not run): text, format, a project media id, inline buttons with a URL or a go-to-node. Fails with BOT_BLOCKED when the user blocked the bot.",
    input: { tokenId, chatId, ...sendSchema.shape },
  }, async (a) => {
    const { tokenId: t, chatId: c, ...body } = a;
    return (await dialogs.send(t, tc.userId, chatIdParam(c), sendSchema.parse(body))) as unknown as Record<string, unknown>;
  });

  defineTool(server, tc, "edit_bot_message", {
    title: "Edit a bot message",
    description: "Changes the text (or caption) of a message the bot sent; `messageId` is the id read_chat gives.",
    input: { tokenId, chatId, messageId: z.number().int().positive(), ...editSchema.shape },
  }, async (a) => (await dialogs.edit(a.tokenId, tc.userId, chatIdParam(a.chatId), a.messageId, a.text)) as unknown as Record<string, unknown>);

  defineTool(server, tc, "set_takeover", {
    title: "Take over a chat",
    description: "on: the scenario stops answering this chat (messages are still recorded) so a person can answer. off: the scenario answers again; resumeAt runs that node for the user.",
    input: { tokenId, chatId, ...takeoverSchema.shape },
  }, (a) => dialogs.takeover(a.tokenId, tc.userId, chatIdParam(a.chatId), a.on, a.resumeAt));

  defineTool(server, tc, "find_bot_users", {
    title: "Find bot users",
    description: "The token's users filtered (active/inactive/blocked, language, tag, deep-link source) and sorted, a page at a time.",
    input: {
      tokenId,
      search: z.string().max(100).optional(),
      filter: z.enum(PEOPLE_FILTERS).optional(),
      language: z.string().max(64).optional(),
      tag: z.string().max(64).optional(),
      source: z.string().max(64).optional(),
      sort: z.enum(PEOPLE_SORTS).optional(),
      limit: z.number().int().min(1).max(50).optional(),
      offset: z.number().int().min(0).optional(),
    },
    readOnly: true,
  }, (a) => people.list(a.tokenId, tc.userId, { search: a.search ?? "", filter: a.filter, language: a.language, tag: a.tag, source: a.source, sort: a.sort }, a.limit ?? 10, a.offset ?? 0) as unknown as Record<string, unknown>);

  defineTool(server, tc, "bot_user_facets", {
    title: "Tags, languages and sources of bot users",
    description: "The tags, languages and deep-link sources the token's users carry, each with how many users who did not block the bot carry it, most first (at most 100 of each): what a campaign's audience can name.",
    input: { tokenId },
    readOnly: true,
  }, (a) => people.facets(a.tokenId, tc.userId) as unknown as Record<string, unknown>);

  defineTool(server, tc, "tag_bot_user", {
    title: "Tag a bot user",
    description: "Replaces a user's tags (each 1..32 characters, at most 20).",
    input: { tokenId, userId, tags: z.array(z.string().trim().min(1).max(32)).max(20) },
  }, (a) => people.tags(a.tokenId, tc.userId, a.userId, a.tags));
}
