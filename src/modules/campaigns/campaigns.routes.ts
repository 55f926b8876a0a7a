// The campaign routes (docs/campaigns.md, docs/api.md "Campaigns"). Actor rules of /api/bot/*
// apply: session, PAT, or a bot_manager PAT with messenger_id; project members only.
import { Elysia } from "elysia";
import { z } from "zod";
import type { AppContext } from "../../context";
import { authPlugin } from "../../http/auth";
import { jsonAnswer } from "../../http/openapi-answer";
import { parseEnumQuery, parseIntQuery, parsePositiveId, parseTokenId, PER_PAGE_DEFAULT, PER_PAGE_MAX } from "../../http/params";
import {
  audienceSchema,
  audienceSizeSchema,
  campaignPageSchema,
  campaignViewSchema,
  createSchema,
  patchSchema,
  recipientPageSchema,
  RECIPIENT_FILTERS,
  successSchema,
  testAnswerSchema,
  testSchema,
} from "./model";
import { CampaignsService } from "./service";

const text = z.string().optional();
const pageQuery = {
  page: text.describe("from 1"),
  perPage: text.describe(`default ${PER_PAGE_DEFAULT}, clamped to ${PER_PAGE_MAX}`),
};
const listQuery = z.looseObject(pageQuery);
const recipientsQuery = z.looseObject({ status: text.describe(RECIPIENT_FILTERS.join(" | ") + " (pending includes a send in flight)"), ...pageQuery });

const doc = (summary: string, schema: z.ZodType, status: 200 | 201 = 200) => {
  const answer = jsonAnswer(schema, status === 201 ? "Created" : "OK").responses[200];
  return { summary, responses: { [status]: answer } };
};

function paging(query: { page?: string; perPage?: string }) {
  return {
    page: parseIntQuery(query.page, "page", { default: 1, min: 1, max: 1_000_000 }),
    perPage: parseIntQuery(query.perPage, "perPage", { default: PER_PAGE_DEFAULT, min: 1, max: PER_PAGE_MAX, clamp: true }),
  };
}

export const campaignRoutes = (ctx: AppContext) => {
  const service = new CampaignsService(ctx);
  const ids = (p: { tokenId?: string; id?: string }) => ({ tokenId: parseTokenId(p.tokenId), id: parsePositiveId(p.id, "campaign id") });
  const control = (verb: "start" | "pause" | "resume" | "cancel", summary: string) =>
    [
      `/:id/${verb}`,
      ({ actor, params }: { actor: { userId: number }; params: { tokenId?: string; id?: string } }) => {
        const { tokenId, id } = ids(params);
        return service[verb](tokenId, actor.userId, id);
      },
      { botActor: true, detail: doc(summary, campaignViewSchema) },
    ] as const;
  return new Elysia({ prefix: "/api/bot/tokens/:tokenId/campaigns" })
    .use(authPlugin(ctx))
    .get(
      "",
      ({ actor, params, query }) => {
        const { page, perPage } = paging(query);
        return service.list(parseTokenId(params.tokenId), actor.userId, page, perPage);
      },
      { botActor: true, query: listQuery, detail: doc("A token's campaigns, newest first (docs/campaigns.md)", campaignPageSchema) },
    )
    .post(
      "",
      async ({ actor, params, body, set }) => {
        const c = await service.create(parseTokenId(params.tokenId), actor.userId, body);
        set.status = 201;
        return c;
      },
      { botActor: true, body: createSchema, detail: doc("Create a campaign: draft, or scheduled with scheduledAt (a future instant)", campaignViewSchema, 201) },
    )
    .post(
      "/audience-size",
      ({ actor, params, body }) => service.audienceSize(parseTokenId(params.tokenId), actor.userId, body),
      { botActor: true, body: audienceSchema, detail: doc("How many users an audience names now (blocked users left out)", audienceSizeSchema) },
    )
    .get(
      "/:id",
      ({ actor, params }) => {
        const { tokenId, id } = ids(params);
        return service.get(tokenId, actor.userId, id);
      },
      { botActor: true, detail: doc("A campaign with its counts", campaignViewSchema) },
    )
    .patch(
      "/:id",
      ({ actor, params, body }) => {
        const { tokenId, id } = ids(params);
        return service.update(tokenId, actor.userId, id, body);
      },
      { botActor: true, body: patchSchema, detail: doc("Change a draft or scheduled campaign (409 otherwise); scheduledAt null makes it a draft", campaignViewSchema) },
    )
    .delete(
      "/:id",
      ({ actor, params }) => {
        const { tokenId, id } = ids(params);
        return service.remove(tokenId, actor.userId, id);
      },
      { botActor: true, detail: doc("Delete a campaign and its recipients (409 while sending)", successSchema) },
    )
    .post(
      "/:id/test",
      ({ actor, params, body }) => {
        const { tokenId, id } = ids(params);
        return service.test(tokenId, actor.userId, id, body.userIds);
      },
      { botActor: true, body: testSchema, detail: doc("Send the message to at most 10 users; not recipients, not counted", testAnswerSchema) },
    )
    .post(...control("start", "Take the audience snapshot and start sending (409 unless draft or scheduled; 400 for an empty audience)"))
    .post(...control("pause", "Pause a campaign being sent (no new send starts)"))
    .post(...control("resume", "Resume a paused campaign"))
    .post(...control("cancel", "Cancel a campaign; its pending recipients are not sent to"))
    .post(
      "/:id/delete-sent",
      ({ actor, params }) => {
        const { tokenId, id } = ids(params);
        return service.deleteSent(tokenId, actor.userId, id);
      },
      { botActor: true, detail: doc("Delete the campaign's sent messages in every chat (as far as the messenger allows; 409 while sending)", campaignViewSchema) },
    )
    .get(
      "/:id/recipients",
      ({ actor, params, query }) => {
        const { tokenId, id } = ids(params);
        const { page, perPage } = paging(query);
        return service.recipients(tokenId, actor.userId, id, parseEnumQuery(query.status, RECIPIENT_FILTERS, "status"), page, perPage);
      },
      { botActor: true, query: recipientsQuery, detail: doc("A campaign's recipients in order, with status, error and sentAt", recipientPageSchema) },
    )
    .get(
      "/:id/recipients/export",
      async ({ actor, params, query, set }) => {
        const { tokenId, id } = ids(params);
        const csv = await service.recipientsCsv(tokenId, actor.userId, id, parseEnumQuery(query.status, RECIPIENT_FILTERS, "status"));
        set.headers["content-type"] = "text/csv; charset=utf-8";
        set.headers["content-disposition"] = `attachment; filename="campaign-${id}-recipients.csv"`;
        return csv;
      },
      { botActor: true, query: z.looseObject({ status: recipientsQuery.shape.status }), detail: { summary: "The recipients as CSV: userId, firstName, username, status, error, sentAt (status filters as the list does)" } },
    );
};
