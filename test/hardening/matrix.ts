// The authorization matrix's rows (docs/api.md): every endpoint, the body a valid call
// sends, and the expected status per kind of caller. Used by the matrix test and the secret scan.
import type { CallOptions } from "../support/app";
import { adminLogin, loginAs } from "../support/app";
import { COLLAB, fill, makeFixture, OWNER, STRANGER, withLivePreview, type Hardening, type Ids } from "./fixture";

export const CALLERS = ["none", "stranger", "collab", "owner", "managerForOwner", "managerForStranger", "admin"] as const;
export type Caller = (typeof CALLERS)[number];
export type Expect = [none: number, stranger: number, collab: number, owner: number, managerForOwner: number, managerForStranger: number, admin: number];

/** One row: an endpoint, the body a valid call sends, and the status per caller. */
export interface Row {
  method: string;
  path: string;
  body?: (ids: Ids) => unknown;
  headers?: Record<string, string>;
  expect: Expect;
}

// Column shorthands. A bot_manager PAT outside /api/bot/* is its holder's own identity (a user who
// is in no project): messenger_id only means something under /api/bot/*. The admin cookie is no
// user credential.
const member = (ok: number): Expect => [401, 403, ok, ok, 403, 403, 401]; // /api/projects/{id}*: owner or collaborator
const botMember = (ok: number): Expect => [401, 403, ok, ok, ok, 403, 401]; // /api/bot/*: actor rules apply
const anyUser = (ok: number): Expect => [401, ok, ok, ok, ok, ok, 401];
// Platform operators (docs/api.md): the fixture's owner is one; every other user is refused.
const operatorOnly = (ok: number): Expect => [401, 403, 403, ok, 403, 403, 401];
const adminOnly = (ok: number): Expect => [401, 401, 401, 401, 401, 401, ok];
const everyone = (ok: number): Expect => [ok, ok, ok, ok, ok, ok, ok];
// The Audience paths (chats, people's tags, export and facets, campaigns, analytics) answer a token of
// someone else's project as if it did not exist (docs/api.md "Access to a token's audience").
const botMemberHidden = (ok: number): Expect => [401, 404, ok, ok, ok, 404, 401];
const previewOwner = (ok: number): Expect => [401, 404, 404, ok, 404, 404, 401]; // a preview is its starter's alone

const scenario = { sheets: [{ id: "s1", name: "S", nodes: [], edges: [] }] };
const MCP_INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "matrix", version: "1" } } };
const MCP_ACCEPT = { accept: "application/json, text/event-stream" };

export const MATRIX: Row[] = [
  // public
  { method: "GET", path: "/api/health", expect: everyone(200) },
  { method: "HEAD", path: "/api/health", expect: everyone(204) },
  { method: "GET", path: "/api/auth/config", expect: everyone(200) },
  { method: "POST", path: "/api/auth/dev-login", body: () => ({ userId: 9999 }), expect: everyone(200) },
  { method: "POST", path: "/api/auth/messenger-login", body: () => ({ id: 1, first_name: "x", auth_date: Math.floor(Date.now() / 1000), hash: "0".repeat(64) }), expect: everyone(403) }, // dev_login mode
  { method: "POST", path: "/api/auth/login-state", expect: everyone(200) }, // begins a widget login in this browser (docs/security.md "Login")
  { method: "POST", path: "/api/auth/logout", expect: everyone(200) },
  { method: "POST", path: "/admin/api/login", expect: everyone(302) },
  { method: "POST", path: "/admin/api/logout", expect: everyone(302) },
  { method: "GET", path: "/admin/api/status", expect: everyone(200) },
  { method: "GET", path: "/uploads/{upload}", expect: everyone(200) },
  { method: "HEAD", path: "/uploads/{upload}", expect: everyone(200) },
  // without the secret header the intake refuses everyone alike (docs/api.md#webhook-intake: a deliberate hardening)
  { method: "POST", path: "/api/webhook/{project}/{token}", body: () => ({ update_id: 1 }), expect: everyone(401) },
  // an inbound webhook is authenticated by its secret only: no session or PAT opens it (docs/hooks.md)
  { method: "POST", path: "/api/hooks/{hook}", body: () => ({ user_id: 1 }), expect: everyone(401) },
  // a hook's URL and secret are the project members' (docs/hooks.md)
  { method: "GET", path: "/api/projects/{project}/hooks", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/hooks/{hookNode}/secret", expect: member(201) },
  // auth (docs/api.md)
  { method: "GET", path: "/api/auth/me", expect: anyUser(200) },
  { method: "GET", path: "/api/auth/pats", expect: anyUser(200) },
  // New PATs need a session: a PAT (the manager callers) cannot mint more of itself.
  { method: "POST", path: "/api/auth/pats", body: () => ({ name: "mine" }), expect: [401, 201, 201, 201, 403, 403, 401] },
  // the owner's PAT: anybody else's delete is a 404 ("not the caller's")
  { method: "DELETE", path: "/api/auth/pats/{pat}", expect: [401, 404, 404, 200, 404, 404, 401] },
  // projects (docs/api.md#projects)
  { method: "GET", path: "/api/projects", expect: anyUser(200) },
  { method: "GET", path: "/api/projects/list", expect: anyUser(200) },
  { method: "POST", path: "/api/projects", body: () => ({ name: "New" }), expect: anyUser(201) },
  { method: "PUT", path: "/api/projects/reorder", body: (ids) => ({ projectIds: [ids.project] }), expect: member(200) },
  // docs/api.md "Trash": the owner's own list; a restore is the owner's, and hidden (404) from everyone else, the collaborator too
  { method: "GET", path: "/api/projects/trash", expect: anyUser(200) },
  { method: "POST", path: "/api/projects/trash/{trashed}/restore", expect: [401, 404, 404, 200, 404, 404, 401] },
  { method: "DELETE", path: "/api/projects/trash/{trashed}", expect: [401, 404, 404, 200, 404, 404, 401] },
  // a collaborator leaves; the owner cannot (409); others are no members
  { method: "POST", path: "/api/projects/{project}/leave", expect: [401, 403, 200, 409, 403, 403, 401] },
  { method: "GET", path: "/api/projects/{project}", expect: [401, 404, 200, 200, 404, 404, 401] }, // 404 for "no access"
  { method: "PUT", path: "/api/projects/{project}", body: () => ({ name: "Renamed" }), expect: member(200) },
  { method: "DELETE", path: "/api/projects/{project}", expect: [401, 403, 403, 200, 403, 403, 401] }, // the owner's decision
  { method: "GET", path: "/api/projects/{project}/collaborators", expect: member(200) },
  { method: "GET", path: "/api/projects/{project}/admin-ids", expect: member(200) },
  { method: "PUT", path: "/api/projects/{project}/admin-ids", body: () => ({ adminIds: "1,2" }), expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/admin-ids/remove", body: () => ({ adminId: "1" }), expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/archive", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/unarchive", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/duplicate", body: () => ({}), expect: member(201) },
  { method: "POST", path: "/api/projects/{project}/export", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/generate", body: () => ({}), expect: member(200) },
  // access is checked before the URL: members learn the scheme is refused, strangers only 403 (nothing is sent)
  { method: "POST", path: "/api/projects/{project}/http-test", body: () => ({ url: "ftp://example.invalid/" }), expect: member(400) },
  // the egress policy: a member's request to an internal address is refused (400), nothing is sent
  { method: "POST", path: "/api/projects/{project}/http-test", body: () => ({ url: "http://2130706433:1/admin/api/status" }), expect: member(400) },
  { method: "GET", path: "/api/projects/{project}/launches/all", expect: member(200) },
  { method: "GET", path: "/api/projects/{project}/logs/all", expect: member(200) },
  { method: "GET", path: "/api/projects/{project}/versions", expect: member(200) },
  { method: "GET", path: "/api/projects/{project}/versions/{version}", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/versions/{version}/restore", expect: member(200) },
  // the older platform's lifecycle spelling, called by bot-manager clients: /api/bot actor rules
  { method: "POST", path: "/api/projects/{project}/bot/start", body: () => ({}), expect: botMember(200) },
  { method: "POST", path: "/api/projects/{project}/bot/stop", body: () => ({}), expect: botMember(200) },
  { method: "POST", path: "/api/projects/{project}/bot/restart", body: () => ({}), expect: botMember(200) },
  // media (docs/api.md): project access
  { method: "POST", path: "/api/projects/{project}/media", expect: member(201) },
  { method: "GET", path: "/api/projects/{project}/media", expect: member(200) },
  { method: "DELETE", path: "/api/projects/{project}/media/{media}", expect: member(200) },
  // scenario tables (docs/tables.md): project access
  { method: "GET", path: "/api/projects/{project}/tables", expect: member(200) },
  { method: "GET", path: "/api/projects/{project}/tables/{table}/rows", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/tables/{table}/rows", body: () => ({ name: "added" }), expect: member(201) },
  { method: "PATCH", path: "/api/projects/{project}/tables/{table}/rows/{tableRow}", body: () => ({ name: "changed" }), expect: member(200) },
  { method: "DELETE", path: "/api/projects/{project}/tables/{table}/rows/{tableRow}", expect: member(200) },
  { method: "GET", path: "/api/projects/{project}/tables/{table}/export", expect: member(200) },
  { method: "POST", path: "/api/projects/{project}/tables/{table}/import", body: () => [{ name: "imported" }], expect: member(200) },
  // live events: credentials first, then "this is a WebSocket" (400)
  { method: "GET", path: "/api/events", expect: anyUser(400) },
  // bot API: projects and collaborators
  { method: "GET", path: "/api/bot/projects", expect: anyUser(200) },
  { method: "POST", path: "/api/bot/projects", body: () => ({ name: "Via bot API" }), expect: anyUser(200) },
  { method: "POST", path: "/api/bot/projects/import", body: () => scenario, expect: anyUser(200) },
  { method: "GET", path: "/api/bot/projects/{project}", expect: botMember(200) },
  { method: "PATCH", path: "/api/bot/projects/{project}", body: () => ({ name: "Renamed" }), expect: botMember(200) },
  { method: "DELETE", path: "/api/bot/projects/{project}", expect: botMember(200) }, // "owner or collaborator"
  { method: "PUT", path: "/api/bot/projects/{project}/data", body: () => scenario, expect: botMember(200) },
  { method: "GET", path: "/api/bot/projects/{project}/export", expect: botMember(200) },
  { method: "GET", path: "/api/bot/projects/{project}/collaborators", expect: botMember(200) },
  { method: "POST", path: "/api/bot/projects/{project}/collaborators", body: () => ({ user_id: 4242 }), expect: botMember(200) },
  { method: "DELETE", path: "/api/bot/projects/{project}/collaborators/{collab}", expect: botMember(200) },
  // bot API: tokens, lifecycle, env variables, bot users
  { method: "GET", path: "/api/bot/projects/{project}/tokens", expect: botMember(200) },
  { method: "POST", path: "/api/bot/projects/{project}/tokens", body: (ids) => ({ token: ids.botToken }), expect: botMember(200) }, // a duplicate returns the existing one
  { method: "PATCH", path: "/api/bot/tokens/{token}", body: () => ({ name: "T" }), expect: botMember(200) },
  { method: "DELETE", path: "/api/bot/tokens/{token}", expect: botMember(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/photo", expect: botMember(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/stats", expect: botMember(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/stats/daily", expect: botMember(200) },
  { method: "PUT", path: "/api/bot/tokens/{token}/profile", body: () => ({ shortDescription: "A bot" }), expect: botMember(200) },
  { method: "DELETE", path: "/api/bot/tokens/{token}/profile/photo", expect: botMember(200) },
  // a PNG where the messenger takes only a JPEG: members reach the check, others never do
  { method: "PUT", path: "/api/bot/tokens/{token}/profile/photo", expect: botMember(400) },
  { method: "GET", path: "/api/bot/tokens/{token}/status", expect: botMember(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/start", expect: botMember(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/stop", expect: botMember(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/restart", expect: botMember(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/env", expect: botMember(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/env", body: () => ({ key: "OTHER", value: "x" }), expect: botMember(201) },
  { method: "PATCH", path: "/api/bot/env/{env}", body: () => ({ value: "y" }), expect: botMember(200) },
  { method: "DELETE", path: "/api/bot/env/{env}", expect: botMember(200) },
  // reveal "requires ownership of the variable": the project owner, not a collaborator
  { method: "GET", path: "/api/bot/env/{env}/reveal", expect: [401, 403, 403, 200, 200, 403, 401] },
  // unmasking a secret is owner-only like reveal (issue 12): the fixture's API_KEY is secret
  { method: "PATCH", path: "/api/bot/env/{env}", body: () => ({ isSecret: 0 }), expect: [401, 403, 403, 200, 200, 403, 401] },
  { method: "GET", path: "/api/bot/tokens/{token}/users", expect: botMember(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/users/{botUser}", expect: botMember(200) },
  // people and dialogs (docs/dialogs.md): the actor rules of /api/bot/*
  { method: "GET", path: "/api/bot/tokens/{token}/users/facets", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/users/export", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/users/{botUser}/payments", expect: botMemberHidden(200) },
  { method: "PUT", path: "/api/bot/tokens/{token}/users/{botUser}/tags", body: () => ({ tags: ["vip"] }), expect: botMemberHidden(200) },
  { method: "DELETE", path: "/api/bot/tokens/{token}/users/{botUser}", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/chats", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/chats/{chat}/messages", expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/chats/{chat}/messages", body: () => ({ text: "hi" }), expect: botMemberHidden(201) },
  { method: "PATCH", path: "/api/bot/tokens/{token}/chats/{chat}/messages/{chatMessage}", body: () => ({ text: "edited" }), expect: botMemberHidden(200) },
  { method: "DELETE", path: "/api/bot/tokens/{token}/chats/{chat}/messages/{chatMessage}", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/chats/{chat}/messages/{chatMediaMessage}/media", expect: botMemberHidden(200) },
  { method: "PUT", path: "/api/bot/tokens/{token}/chats/{chat}/takeover", body: () => ({ on: true }), expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/chats/{chat}/read", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/analytics", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/analytics/nodes", expect: botMemberHidden(200) },
  // campaigns (docs/campaigns.md): the fixture's campaign is a draft for the bot user, so the
  // controls that need one being sent (pause, resume) or done (delete-sent) answer members 409
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns", expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns", body: () => ({ name: "More", message: { text: "hi" } }), expect: botMemberHidden(201) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/audience-size", body: () => ({ filter: "all" }), expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns/{campaign}", expect: botMemberHidden(200) },
  { method: "PATCH", path: "/api/bot/tokens/{token}/campaigns/{campaign}", body: () => ({ name: "Renamed" }), expect: botMemberHidden(200) },
  { method: "DELETE", path: "/api/bot/tokens/{token}/campaigns/{campaign}", expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/test", body: (ids) => ({ userIds: [ids.botUser] }), expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/start", expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/pause", expect: botMemberHidden(409) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/resume", expect: botMemberHidden(409) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/cancel", expect: botMemberHidden(200) },
  { method: "POST", path: "/api/bot/tokens/{token}/campaigns/{campaign}/delete-sent", expect: botMemberHidden(409) },
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns/{campaign}/recipients", expect: botMemberHidden(200) },
  { method: "GET", path: "/api/bot/tokens/{token}/campaigns/{campaign}/recipients/export", expect: botMemberHidden(200) },
  // storage configs: listing for any signed-in user; changes for platform operators only
  // (issue 12: a deliberate hardening beyond the older platform, documented in docs/api.md#storage-configs)
  { method: "GET", path: "/api/storage-configs", expect: anyUser(200) },
  { method: "POST", path: "/api/storage-configs", body: (ids) => ({ name: "Other store", backend: "local", config: { rootPath: `${ids.dir}/authz-store` } }), expect: operatorOnly(201) },
  { method: "PATCH", path: "/api/storage-configs/{storage}", body: () => ({ name: "Renamed" }), expect: operatorOnly(200) },
  { method: "DELETE", path: "/api/storage-configs/{storage}", expect: operatorOnly(200) },
  { method: "POST", path: "/api/storage-configs/{storage}/test", expect: operatorOnly(200) },
  // templates: a private template is invisible (404) to all but its owner; a public one is
  // readable and usable by all, and changed only by its owner (403)
  { method: "GET", path: "/api/templates", expect: anyUser(200) },
  { method: "POST", path: "/api/templates", body: () => ({ name: "Mine", data: scenario }), expect: anyUser(201) },
  { method: "GET", path: "/api/templates/{template}", expect: [401, 404, 404, 200, 404, 404, 401] },
  { method: "PUT", path: "/api/templates/{template}", body: () => ({ name: "Changed" }), expect: [401, 404, 404, 200, 404, 404, 401] },
  { method: "DELETE", path: "/api/templates/{template}", expect: [401, 404, 404, 200, 404, 404, 401] },
  { method: "POST", path: "/api/templates/{template}/use", body: () => ({}), expect: [401, 404, 404, 201, 404, 404, 401] },
  { method: "POST", path: "/api/templates/{template}/rate", body: () => ({ rating: 4 }), expect: [401, 404, 404, 200, 404, 404, 401] },
  // "try it": a preview of the template, no project; a private template only for its owner
  { method: "POST", path: "/api/templates/{template}/preview", expect: [401, 404, 404, 201, 404, 404, 401] },
  { method: "GET", path: "/api/templates/{publicTemplate}", expect: anyUser(200) },
  { method: "PUT", path: "/api/templates/{publicTemplate}", body: () => ({ name: "Changed" }), expect: [401, 403, 403, 200, 403, 403, 401] },
  { method: "DELETE", path: "/api/templates/{publicTemplate}", expect: [401, 403, 403, 200, 403, 403, 401] },
  { method: "POST", path: "/api/templates/{publicTemplate}/use", body: () => ({}), expect: anyUser(201) },
  { method: "POST", path: "/api/templates/{publicTemplate}/rate", body: () => ({ rating: 4 }), expect: anyUser(200) },
  // admin area: only the admin cookie; user sessions and PATs do not work there
  { method: "GET", path: "/admin/api/app-settings", expect: adminOnly(200) },
  { method: "PUT", path: "/admin/api/app-settings", body: () => ({ auth: { loginMode: "dev_login" } }), expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/pats", expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/pats", body: () => ({ name: "ops", userId: OWNER, scopes: [] }), expect: adminOnly(201) },
  { method: "DELETE", path: "/admin/api/pats/{adminPat}", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/users", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/users/{user}", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/version", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/update-check", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/storage-configs", expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/storage-configs", body: (ids) => ({ name: "Admin store", backend: "local", config: { rootPath: `${ids.dir}/authz-admin` } }), expect: adminOnly(201) },
  { method: "PATCH", path: "/admin/api/storage-configs/{storage}", body: () => ({ name: "Renamed" }), expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/storage-configs/{storage}/test", expect: adminOnly(200) },
  { method: "DELETE", path: "/admin/api/storage-configs/{storage}", expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/bot-folders/cleanup", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/templates", expect: adminOnly(200) },
  { method: "PATCH", path: "/admin/api/templates/{publicTemplate}/featured", body: () => ({ featured: 1 }), expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/templates/refresh", expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/templates/recreate", expect: adminOnly(200) },
  { method: "GET", path: "/admin/api/backups", expect: adminOnly(200) },
  { method: "POST", path: "/admin/api/backups", expect: adminOnly(201) },
  { method: "GET", path: "/admin/api/backups/{backup}", expect: adminOnly(200) },
  // preview sessions: starting one needs project access (404 for no access, like GET /api/projects/{id})
  { method: "POST", path: "/api/projects/{project}/preview", body: () => ({}), expect: [401, 404, 201, 201, 404, 404, 401] },
  { method: "GET", path: "/api/preview/{preview}", expect: previewOwner(200) },
  { method: "GET", path: "/api/preview/{preview}/transcript", expect: previewOwner(200) },
  { method: "POST", path: "/api/preview/{preview}/actions", body: () => ({ type: "text", text: "/start" }), expect: previewOwner(200) },
  { method: "POST", path: "/api/preview/{preview}/hooks/{hookNode}", body: () => ({ order: "1" }), expect: previewOwner(200) },
  { method: "PUT", path: "/api/preview/{preview}/actor", body: () => ({ user: "user", chat: "private" }), expect: previewOwner(200) },
  { method: "PUT", path: "/api/preview/{preview}/document", body: () => ({ document: { sheets: [{ id: "s", name: "S", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { messageText: "edited" } }], edges: [] }] } }), expect: previewOwner(200) },
  { method: "GET", path: "/api/preview/{preview}/variables", expect: previewOwner(200) },
  { method: "PUT", path: "/api/preview/{preview}/variables", body: () => ({ variables: { answer: "42" } }), expect: previewOwner(200) },
  { method: "GET", path: "/api/preview/{preview}/log", expect: previewOwner(200) },
  { method: "GET", path: "/api/preview/{preview}/files/{previewFile}", expect: previewOwner(200) },
  { method: "DELETE", path: "/api/preview/{preview}", expect: previewOwner(200) },
  // MCP (docs/mcp.md): a bearer PAT only — session cookies and the admin cookie are refused; a
  // bot_manager PAT acts for the messenger_id it names. Without a session id only POST initialize works.
  { method: "POST", path: "/mcp", body: () => MCP_INITIALIZE, headers: MCP_ACCEPT, expect: [401, 401, 401, 401, 200, 200, 401] },
  { method: "GET", path: "/mcp", headers: MCP_ACCEPT, expect: [401, 401, 401, 401, 400, 400, 401] },
  { method: "DELETE", path: "/mcp", headers: MCP_ACCEPT, expect: [401, 401, 401, 401, 400, 400, 401] },
];

/** Logout ends the session it is given: every caller logs out a session of its own. */
export async function freshSessions(h: Hardening) {
  h.owner = await loginAs(h.t, OWNER);
  h.collab = await loginAs(h.t, COLLAB);
  h.stranger = await loginAs(h.t, STRANGER);
}

function credentials(h: Hardening, caller: Caller, path: string): { opts: CallOptions; path: string } {
  const withActor = (id: number) => `${path}${path.includes("?") ? "&" : "?"}messenger_id=${id}`;
  switch (caller) {
    case "none":
      return { opts: {}, path };
    case "stranger":
      return { opts: { cookie: h.stranger }, path };
    case "collab":
      return { opts: { cookie: h.collab }, path };
    case "owner":
      return { opts: { cookie: h.owner }, path };
    case "managerForOwner":
      return { opts: { bearer: h.managerPat }, path: withActor(OWNER) };
    case "managerForStranger":
      return { opts: { bearer: h.managerPat }, path: withActor(STRANGER) };
    case "admin":
      return { opts: { cookie: h.admin }, path };
  }
}

export const CODE: Record<number, string> = { 400: "VALIDATION_FAILED", 403: "FORBIDDEN", 404: "NOT_FOUND" };

/** One call of a matrix row as `caller` on the fixture `ids`. */
export async function callAs(h: Hardening, row: Row, caller: Caller, ids: Ids) {
  const { opts, path } = credentials(h, caller, fill(row.path, ids));
  if ((row.path.endsWith("/media") && row.method === "POST") || (row.path.endsWith("/profile/photo") && row.method === "PUT")) {
    const fd = new FormData();
    fd.append("file", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])], "a.png", { type: "image/png" }));
    return { path, r: await h.call(row.method, path, { ...opts, body: fd }) };
  }
  if (row.path === "/api/auth/logout") await freshSessions(h);
  if (row.path === "/admin/api/login") return { path, r: await h.call(row.method, path, { ...opts, body: new URLSearchParams({ key: "wrong" }) }) };
  return { path, r: await h.call(row.method, path, { ...opts, ...(row.body ? { json: row.body(ids) } : {}), ...(row.headers ? { headers: row.headers } : {}) }) };
}

/** Runs a row for the given callers; a success on a changing call gets its own fixture. */
export async function runRow(h: Hardening, row: Row, callers: readonly Caller[], shared: Ids) {
  const mutating = row.method !== "GET" && row.method !== "HEAD";
  const results: { caller: Caller; path: string; expected: number; r: Awaited<ReturnType<typeof callAs>>["r"] }[] = [];
  for (const caller of callers) {
    const expected = row.expect[CALLERS.indexOf(caller)];
    const base = mutating && expected < 400 ? await makeFixture(h) : shared;
    const ids = row.path.includes("{preview}") ? await withLivePreview(h, base) : base;
    const { path, r } = await callAs(h, row, caller, ids);
    results.push({ caller, path, expected, r });
  }
  if (row.path === "/api/auth/logout") await freshSessions(h);
  // the admin's logout ends every admin session issued until then (docs/security.md "Admin area")
  if (row.path === "/admin/api/logout") h.admin = await adminLogin(h.t);
  return results;
}
