// The campaign's text as one recipient will read it: {name} placeholders filled from that user's
// variables, then the built-in names the bot knows (docs/campaigns.md, "Message"); a missing value
// is empty, as in the bot. Values are escaped for the text's format, as the bot does.
import type { Format } from "../dialogs/MessageParts";

export interface PreviewUser {
  userId: string;
  firstName?: string | null;
  lastName?: string | null;
  userName?: string | null;
  variables?: Record<string, unknown> | null;
}

// The bot's own placeholder syntax (src/scenario/codegen/runtime/values.ts, PLACEHOLDER).
const PLACEHOLDER = /\{([\p{L}\p{N}_][\p{L}\p{N}_.\-]*)\}/gu;

function builtin(u: PreviewUser, name: string): unknown {
  switch (name) {
    case "user_id": return u.userId;
    case "first_name": return u.firstName ?? "";
    case "last_name": return u.lastName ?? "";
    case "username": return u.userName ?? "";
    case "user_name": return u.firstName || u.userName || "";
    default: return undefined;
  }
}

const textOf = (v: unknown): string => (v === undefined || v === null ? "" : typeof v === "string" ? v : Array.isArray(v) ? v.map(textOf).join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v));

function escape(format: Format, text: string): string {
  if (format === "html") return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (format === "markdown") return text.replace(/([_*[\]`])/g, "\\$1");
  return text;
}

export function renderFor(user: PreviewUser | null, text: string, format: Format): string {
  if (!user) return text;
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const own = user.variables && Object.hasOwn(user.variables, name) ? user.variables[name] : builtin(user, name);
    return escape(format, textOf(own));
  });
}
