// The Dialogs routes (docs/dialogs.md, docs/api.md "Dialogs"). Actor rules of
// /api/bot/* apply: session, PAT, or a bot_manager PAT with messenger_id; project members only.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { jsonAnswer } from "../../http/openapi-answer";
import { parseEnumQuery, parseIntQuery, parsePositiveId, parseTokenId } from "../../http/params";
import {
  chatPageSchema,
  CHAT_FILTERS,
  CHAT_KINDS,
  CHATS_PER_PAGE_DEFAULT,
  CHATS_PER_PAGE_MAX,
  editSchema,
  messagesPageSchema,
  messageViewSchema,
  readAnswerSchema,
  successSchema,
  takeoverAnswerSchema,
  MESSAGES_LIMIT_DEFAULT,
  MESSAGES_LIMIT_MAX,
  sendSchema,
  takeoverSchema,
} from "./model";
import { chatIdParam, DialogsService } from "./service";

/** Types a browser may show in place; anything else (HTML, SVG, scripts) is a download, sandboxed. */
const INLINE_TYPE = /^(image\/(png|jpeg|gif|webp)|video\/(mp4|webm|quicktime)|audio\/(mpeg|ogg|mp4|x-m4a|wav))$/;

/** A file from a bot user is hostile: shown in place only when a browser cannot run it (docs/security.md). */
function mediaHeaders(contentType: string): Record<string, string> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const inline = INLINE_TYPE.test(type);
  return {
    "content-type": inline ? type : "application/octet-stream",
    "content-disposition": inline ? "inline" : "attachment",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": "private, max-age=3600",
  };
}

const text = z.string().optional();
const chatsQuery = z.looseObject({
  search: text.describe("title, first name, last name, full name \"first last\" or \"last first\", @username (substring, any letter case) or the exact chat or user id"),
  kind: text.describe(CHAT_KINDS.join(" | ")),
  filter: text.describe(CHAT_FILTERS.join(" | ") + " (default all)"),
  page: text.describe("from 1"),
  perPage: text.describe(`default ${CHATS_PER_PAGE_DEFAULT}, clamped to ${CHATS_PER_PAGE_MAX}`),
});
const messagesQuery = z.looseObject({
  before: text.describe("a message id: the page before it (older messages)"),
  limit: text.describe(`default ${MESSAGES_LIMIT_DEFAULT}, at most ${MESSAGES_LIMIT_MAX}`),
});

/** `detail` with a summary and the JSON answer (201 for a creation). */
const doc = (summary: string, schema: z.ZodType, status: 200 | 201 = 200) => {
  const answer = jsonAnswer(schema, status === 201 ? "Created" : "OK").responses[200];
  return { summary, responses: { [status]: answer } };
};


export const dialogsRoutes = (ctx: AppContext) => {
  const service = new DialogsService(ctx);
  const ids = (p: { tokenId?: string; chatId?: string }) => ({ tokenId: parseTokenId(p.tokenId), chatId: chatIdParam(p.chatId) });
  return new Elysia({ prefix: "/api/bot/tokens/:tokenId/chats" })
    .use(authPlugin(ctx))
    .get(
      "",
      ({ actor, params, query }) => {
        const tokenId = parseTokenId(params.tokenId);
        const page = parseIntQuery(query.page, "page", { default: 1, min: 1, max: 1_000_000 });
        const perPage = parseIntQuery(query.perPage, "perPage", { default: CHATS_PER_PAGE_DEFAULT, min: 1, max: CHATS_PER_PAGE_MAX, clamp: true });
        const filter = {
          search: typeof query.search === "string" ? query.search.slice(0, 100) : "",
          kind: parseEnumQuery(query.kind, CHAT_KINDS, "kind"),
          filter: parseEnumQuery(query.filter, CHAT_FILTERS, "filter") ?? "all",
        };
        return service.chats(tokenId, actor.userId, filter, page, perPage);
      },
      { botActor: true, query: chatsQuery, detail: doc("Chats of a token's bot, most recent first (docs/dialogs.md)", chatPageSchema) },
    )
    .get(
      "/:chatId/messages",
      ({ actor, params, query }) => {
        const { tokenId, chatId } = ids(params);
        const before = query.before === undefined || query.before === "" ? undefined : parsePositiveId(query.before, "before");
        const limit = parseIntQuery(query.limit, "limit", { default: MESSAGES_LIMIT_DEFAULT, min: 1, max: MESSAGES_LIMIT_MAX });
        return service.messages(tokenId, actor.userId, chatId, before, limit);
      },
      { botActor: true, query: messagesQuery, detail: doc("Messages of a chat, oldest first within the page; `before` pages back", messagesPageSchema) },
    )
    .post(
      "/:chatId/messages",
      async ({ actor, params, body, set }) => {
        const { tokenId, chatId } = ids(params);
        const message = await service.send(tokenId, actor.userId, chatId, body);
        set.status = 201;
        return message;
      },
      { botActor: true, body: sendSchema, detail: doc("Send as the bot (the bot need not run); 409 BOT_BLOCKED when the user blocked the bot", messageViewSchema, 201) },
    )
    .patch(
      "/:chatId/messages/:messageId",
      ({ actor, params, body }) => {
        const { tokenId, chatId } = ids(params);
        return service.edit(tokenId, actor.userId, chatId, parsePositiveId(params.messageId, "messageId"), body.text);
      },
      { botActor: true, body: editSchema, detail: doc("Edit a message the bot sent (text or caption): the message with editedAt", messageViewSchema) },
    )
    .get(
      "/:chatId/messages/:messageId/media",
      async ({ actor, params }) => {
        const { tokenId, chatId } = ids(params);
        const file = await service.media(tokenId, actor.userId, chatId, parsePositiveId(params.messageId, "messageId"));
        return new Response(file.body, { headers: mediaHeaders(file.contentType) });
      },
      { botActor: true, detail: { summary: "The file of a recorded message (photo, video, document…), fetched through the token; 404 when it has none, 413 over 20 MB" } },
    )
    .delete(
      "/:chatId/messages/:messageId",
      ({ actor, params }) => {
        const { tokenId, chatId } = ids(params);
        return service.remove(tokenId, actor.userId, chatId, parsePositiveId(params.messageId, "messageId"));
      },
      { botActor: true, detail: doc("Delete a message in the chat; its record shows deletedAt", successSchema) },
    )
    .put(
      "/:chatId/takeover",
      ({ actor, params, body }) => {
        const { tokenId, chatId } = ids(params);
        return service.takeover(tokenId, actor.userId, chatId, body.on, body.resumeAt);
      },
      { botActor: true, body: takeoverSchema, detail: doc("Operator takeover on/off; off with resumeAt runs that node for the user", takeoverAnswerSchema) },
    )
    .post(
      "/:chatId/read",
      ({ actor, params }) => {
        const { tokenId, chatId } = ids(params);
        return service.read(tokenId, actor.userId, chatId);
      },
      { botActor: true, detail: doc("Mark a chat read", readAnswerSchema) },
    );
};
