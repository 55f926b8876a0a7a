// Bot API parameters arrive as a query string, JSON, urlencoded or multipart body, and Telegram
// treats them all alike. Form values are all strings, so we coerce by parameter name: tests should
// see `chat_id: 42` and a parsed `reply_markup` whichever way the client chose to send them.
import { badRequest } from "./types";

/** A file part of a multipart request. Records show it as `{fileName, size}`. */
export class Upload {
  constructor(
    readonly fileName: string,
    readonly mimeType: string,
    readonly bytes: Uint8Array,
  ) {}
  get size() {
    return this.bytes.length;
  }
}

const JSON_KEYS = new Set([
  "reply_markup", "entities", "caption_entities", "media", "commands", "scope", "reply_parameters",
  "link_preview_options", "allowed_updates", "message_ids", "results", "options", "permissions",
]);
const INT_KEYS = new Set([
  "chat_id", "from_chat_id", "message_id", "message_thread_id", "user_id", "offset", "limit", "timeout",
  "reply_to_message_id", "cache_time", "duration", "width", "height", "length", "max_connections",
  "until_date", "video_start_timestamp",
]);
const FLOAT_KEYS = new Set(["latitude", "longitude", "horizontal_accuracy"]);
const BOOL_KEYS = new Set([
  "disable_notification", "protect_content", "show_alert", "drop_pending_updates", "disable_web_page_preview",
  "allow_sending_without_reply", "has_spoiler", "supports_streaming", "disable_content_type_detection",
  "revoke_messages", "show_caption_above_media", "allow_paid_broadcast", "only_if_banned", "is_anonymous",
]);

function coerce(key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  // setMyProfilePhoto's photo is an InputProfilePhoto object; sendPhoto's is a file id or URL.
  if (JSON_KEYS.has(key) || (key === "photo" && value.startsWith("{"))) {
    try {
      return JSON.parse(value);
    } catch {
      if (key === "reply_markup") throw badRequest("can't parse reply keyboard markup JSON object");
      throw badRequest(`can't parse ${key} JSON object`);
    }
  }
  // "@channelname" chat ids stay strings; only all-digit strings become numbers
  if (INT_KEYS.has(key) && /^-?\d+$/.test(value)) return Number(value);
  if (FLOAT_KEYS.has(key) && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  if (BOOL_KEYS.has(key) && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** Replaces "attach://<part>" references (grammY's way of naming files) with the uploaded file. */
function resolveAttachments(value: unknown, files: Map<string, Upload>, used: Set<string>): unknown {
  if (typeof value === "string" && value.startsWith("attach://")) {
    const name = value.slice("attach://".length);
    const file = files.get(name);
    if (!file) throw badRequest(`file "${name}" must be uploaded`);
    used.add(name);
    return file;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, files, used));
  if (value && typeof value === "object" && !(value instanceof Upload)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttachments(v, files, used)]));
  }
  return value;
}

export async function readParams(req: Request, url: URL): Promise<Record<string, any>> {
  const raw: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const files = new Map<string, Upload>();
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")) {
      let form: FormData;
      try {
        form = await req.formData();
      } catch {
        throw badRequest("can't parse request body");
      }
      for (const [key, value] of form) {
        if (typeof value === "string") raw[key] = value;
        else files.set(key, new Upload(value.name || key, value.type || "application/octet-stream", new Uint8Array(await value.arrayBuffer())));
      }
    } else {
      const text = await req.text();
      if (text.trim() !== "") {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw badRequest("can't parse JSON request body");
        }
        if (body && typeof body === "object" && !Array.isArray(body)) Object.assign(raw, body);
      }
    }
  }
  const params: Record<string, any> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null && value !== undefined) params[key] = coerce(key, value);
  const used = new Set<string>();
  const resolved = resolveAttachments(params, files, used) as Record<string, any>;
  // a file posted directly under the parameter name (curl -F photo=@x.png) is the parameter itself
  for (const [name, file] of files) if (!used.has(name)) resolved[name] = file;
  return resolved;
}

/** The params as tests see them: uploads become `{fileName, size}`. */
export function forRecord(value: any): any {
  if (value instanceof Upload) return { fileName: value.fileName, size: value.size };
  if (Array.isArray(value)) return value.map(forRecord);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forRecord(v)]));
  return value;
}
