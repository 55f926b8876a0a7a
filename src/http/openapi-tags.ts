// The API reference groups its operations by module: each route group is mounted in app.ts under
// one tag, so a new route inherits its group's tag and no route names one by hand. The order here
// is the order of the groups in /api/docs.
import { Elysia, type AnyElysia } from "elysia";

export const API_TAGS = [
  { name: "Health", description: "Whether the server is up and ready" },
  { name: "Auth", description: "Logging in, the current user and personal access tokens" },
  { name: "Projects", description: "Projects, their scenario, versions, trash, generation and logs" },
  { name: "Bots", description: "Bot tokens: start, stop, profile, status and statistics" },
  { name: "Bot manager", description: "The bot-manager API for scripts: projects, collaborators and tokens" },
  { name: "Environment", description: "A bot's environment variables (values never shown unless revealed)" },
  { name: "Dialogs", description: "A bot's chats: messages, replies as the bot, takeover" },
  { name: "Users", description: "A bot's users: list, tags, export, delete" },
  { name: "Campaigns", description: "Mass sends to a bot's users" },
  { name: "Analytics", description: "A bot's traffic and the scenario's node counts" },
  { name: "Tables", description: "A project's scenario tables: rows, import and export" },
  { name: "Media", description: "A project's media files and their storage" },
  { name: "Hooks", description: "Inbound webhooks that run a scenario's flow, and the messenger's webhook intake" },
  { name: "Templates", description: "Scenario templates" },
  { name: "Preview", description: "The emulator: a scenario run in the Studio without the messenger" },
  { name: "Events", description: "The Studio's live event stream" },
  { name: "MCP", description: "The Model Context Protocol endpoint for AI assistants" },
  { name: "Admin", description: "The admin area's API for scripts: backups" },
] as const;

export type ApiTag = (typeof API_TAGS)[number]["name"];

/** The routes of `group`, each documented under `tag`. */
export const tagged = <T extends AnyElysia>(tag: ApiTag, group: T) => new Elysia({ tags: [tag] }).use(group);
