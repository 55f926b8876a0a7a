// The server's records as the app reads them. They are not written here: openapi-types.ts is
// generated at build time (scripts/build-web.ts) from the server's OpenAPI document
// (web/src/api/openapi.json, recorded by scripts/openapi-spec.ts), so a record that changes on the
// server changes here, and the type checker shows every place the app must follow.
import type { paths } from "./openapi-types";

/**
 * The JSON a path answers with 200, as the OpenAPI document describes it. A path without one gives
 * an object no field of which exists, so every use of the record fails to type-check (`never`
 * would have passed silently).
 */
export type Answer<P extends keyof paths, M extends keyof paths[P] = "get" & keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": infer T } } };
}
  ? T
  : { "no JSON 200 answer in the OpenAPI document": P };

/** The JSON body a path takes, as the OpenAPI document describes it. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody: { content: { "application/json": infer T } } }
  ? T
  : { "no JSON body in the OpenAPI document": P };

export type User = Answer<"/api/auth/me">["user"];
export type AuthConfig = Answer<"/api/auth/config">;
export type ProjectListItem = Answer<"/api/projects/list">[number];
export type TokenItem = Answer<"/api/bot/projects/{id}/tokens">["items"][number];
export type BotStatus = Answer<"/api/bot/tokens/{tokenId}/status">;
export type BotUserPage = Answer<"/api/bot/tokens/{tokenId}/users">;
export type BotUserDetail = Answer<"/api/bot/tokens/{tokenId}/users/{userId}">;
export type MediaItem = Answer<"/api/projects/{id}/media">[number];
/** A warning of generate's answer: validation's and the generator's own (docs/api.md#scenario-warnings). */
export type GeneratedWarning = Answer<"/api/projects/{id}/generate", "post">["warnings"][number];
/** Inbound webhooks of a project's scenario (docs/hooks.md) and a new secret, shown once (a 201). */
export type HookItem = Answer<"/api/projects/{id}/hooks">["items"][number];
export type HookSecret = paths["/api/projects/{id}/hooks/{nodeId}/secret"]["post"]["responses"][201]["content"]["application/json"];
/** The caller's own deleted projects (docs/api.md#trash). */
export type TrashList = Answer<"/api/projects/trash">;
export type TrashItem = TrashList["items"][number];
/** A template as lists show it, and with its scenario when opened (`GET /api/templates/{id}`). */
export type TemplateItem = Answer<"/api/templates">["items"][number] & { data?: ScenarioDoc };

// The scenario document is the server's to check (docs/scenario.md); its OpenAPI schema is an open
// object, so these are the few fields the app reads from it.
export interface ScenarioNode {
  id: string;
  type: string;
  data?: Record<string, unknown>;
}

export interface ScenarioDoc {
  sheets?: { id: string; name: string; nodes?: ScenarioNode[] }[];
}
export type BotAnalytics = Answer<"/api/bot/tokens/{tokenId}/analytics">;
export type NodeAnalytics = Answer<"/api/bot/tokens/{tokenId}/analytics/nodes">;
