// The only code through which the platform itself speaks the Bot API (docs/architecture.md#layers). Every call
// is bounded in time, failures are typed, and the token never appears in an error or log line.
import { MessengerError } from "../errors";

/** A download over its size cap (the message of that MessengerError). */
export const FILE_TOO_LARGE = "file too large";

export interface MessengerBot {
  id: number;
  username: string;
  firstName: string;
}

export interface MessengerClientOptions {
  apiRoot: string;
  timeoutMs?: number;
}

/** A plausible Bot API token: `<digits>:<35ish url-safe chars>`. Checked before any network call. */
export const TOKEN_PATTERN = /^\d{3,20}:[A-Za-z0-9_-]{20,100}$/;

const lang = (code?: string) => (code ? { language_code: code } : {});

/** A file sent with a call: a multipart part named `field`. */
export interface FilePart {
  field: string;
  name: string;
  type: string;
  bytes: Uint8Array;
}

export class MessengerClient {
  private readonly apiRoot: string;
  private readonly timeoutMs: number;

  constructor(opts: MessengerClientOptions) {
    this.apiRoot = opts.apiRoot.replace(/\/+$/, "");
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** The Bot API host, for messages (never a path: a path may carry a token). */
  private host(): string {
    try {
      return new URL(this.apiRoot).host;
    } catch {
      return "the messenger platform";
    }
  }

  /** `file`: one upload, or several (an album's, each named by an `attach://<field>` in the params). */
  async call<T>(token: string, method: string, params: Record<string, unknown> = {}, file?: FilePart | FilePart[]): Promise<T> {
    if (!TOKEN_PATTERN.test(token)) throw new MessengerError("unauthorized", "The bot token has an invalid format");
    let res: Response;
    let body: BodyInit = JSON.stringify(params);
    const headers: Record<string, string> = { "content-type": "application/json" };
    const files = file === undefined ? [] : Array.isArray(file) ? file : [file];
    if (files.length > 0) {
      // An upload: multipart, each other parameter a field (objects as JSON, as the Bot API reads them).
      const form = new FormData();
      for (const [k, v] of Object.entries(params)) if (v !== undefined) form.append(k, typeof v === "string" ? v : JSON.stringify(v));
      for (const f of files) form.append(f.field, new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type }), f.name);
      body = form;
      delete headers["content-type"];
    }
    try {
      res = await fetch(`${this.apiRoot}/bot${token}/${method}`, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const timedOut = (e as Error)?.name === "TimeoutError";
      // what a person can do about it: the network, or the address (docs/configuration.md)
      const hint = `check that this server can reach ${this.host()}, or set MESSENGER_API_ROOT to the Bot API server to use`;
      throw new MessengerError("unreachable", timedOut ? `The messenger platform did not answer in time (${method}): ${hint}` : `The messenger platform could not be reached (${method}): ${hint}`);
    }
    let answer: any;
    try {
      answer = await res.json();
    } catch {
      throw new MessengerError("unreachable", `The messenger platform answered ${method} with a non-JSON body (HTTP ${res.status})`, res.status);
    }
    if (answer?.ok === true) return answer.result as T;
    // The platform may echo the request URL (`bot<token>/...`) in its description.
    const description = typeof answer?.description === "string" ? answer.description.split(token).join("***") : `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 404) throw new MessengerError("unauthorized", `The messenger platform rejected the bot token: ${description}`, res.status);
    const retryAfter = typeof answer?.parameters?.retry_after === "number" ? answer.parameters.retry_after : undefined;
    throw new MessengerError("rejected", `${method} failed: ${description}`, res.status, retryAfter);
  }

  async getMe(token: string): Promise<MessengerBot> {
    const me = await this.call<{ id: number; username?: string; first_name: string }>(token, "getMe");
    return { id: me.id, username: me.username ?? "", firstName: me.first_name };
  }

  /** `allowedUpdates` undefined: Telegram's default kinds ([] says so; an absent field would keep the last list). */
  setWebhook(token: string, url: string, secretToken: string, allowedUpdates?: string[]) {
    return this.call<boolean>(token, "setWebhook", { url, secret_token: secretToken, allowed_updates: allowedUpdates ?? [] });
  }

  deleteWebhook(token: string) {
    return this.call<boolean>(token, "deleteWebhook", { drop_pending_updates: false });
  }

  /** The bot's profile texts (Telegram's limits: name 64, description 512, short description 120); "" removes a language's own. */
  setMyName(token: string, name: string, languageCode?: string) {
    return this.call<boolean>(token, "setMyName", { name, ...lang(languageCode) });
  }

  setMyDescription(token: string, description: string, languageCode?: string) {
    return this.call<boolean>(token, "setMyDescription", { description, ...lang(languageCode) });
  }

  setMyShortDescription(token: string, shortDescription: string, languageCode?: string) {
    return this.call<boolean>(token, "setMyShortDescription", { short_description: shortDescription, ...lang(languageCode) });
  }

  /** The bot's photo: a new JPEG each time (Telegram takes no file id for it). */
  async setMyProfilePhoto(token: string, jpeg: Blob) {
    const bytes = new Uint8Array(await jpeg.arrayBuffer());
    return this.call<boolean>(token, "setMyProfilePhoto", { photo: { type: "static", photo: "attach://picture" } }, { field: "picture", name: "photo.jpg", type: "image/jpeg", bytes });
  }

  removeMyProfilePhoto(token: string) {
    return this.call<boolean>(token, "removeMyProfilePhoto");
  }

  /** The menu; an empty list removes it (deleteMyCommands, as Telegram refuses an empty setMyCommands). */
  setMyCommands(token: string, commands: { command: string; description: string }[], languageCode?: string) {
    return commands.length > 0
      ? this.call<boolean>(token, "setMyCommands", { commands, ...lang(languageCode) })
      : this.call<boolean>(token, "deleteMyCommands", lang(languageCode));
  }

  /** The file id of the largest size of a user's (or bot's) newest avatar, or null. */
  async newestPhotoFileId(token: string, userId: number): Promise<{ fileId: string | null; totalCount: number }> {
    const r = await this.call<{ total_count: number; photos: { file_id: string; width: number }[][] }>(token, "getUserProfilePhotos", { user_id: userId, limit: 1 });
    const sizes = r.photos?.[0] ?? [];
    const largest = sizes.reduce<{ file_id: string; width: number } | null>((a, b) => (!a || b.width > a.width ? b : a), null);
    return { fileId: largest?.file_id ?? null, totalCount: r.total_count ?? 0 };
  }

  /** Downloads a file by id. Bounded in time and size (avatars are small). */
  async downloadFile(token: string, fileId: string, maxBytes = 10 * 1024 * 1024): Promise<{ bytes: Uint8Array; filePath: string }> {
    const f = await this.openFile(token, fileId, maxBytes, this.timeoutMs);
    try {
      return { bytes: new Uint8Array(await new Response(f.body).arrayBuffer()), filePath: f.filePath };
    } catch (e) {
      if (e instanceof Error && e.message === FILE_TOO_LARGE) throw new MessengerError("rejected", FILE_TOO_LARGE);
      throw new MessengerError("unreachable", "The messenger platform is unreachable (file download)");
    }
  }

  /**
   * A file by id as a stream with the content type the messenger gives it (the Dialogs' media):
   * refused before the download when getFile or the answer says it is over `maxBytes`, and cut
   * (the stream errs) should more bytes come. The token stays in this request, never in an answer.
   */
  async openFile(token: string, fileId: string, maxBytes: number, timeoutMs = 60_000): Promise<{ body: ReadableStream<Uint8Array>; filePath: string; contentType: string }> {
    const f = await this.call<{ file_path?: string; file_size?: number }>(token, "getFile", { file_id: fileId });
    if (typeof f.file_size === "number" && f.file_size > maxBytes) throw new MessengerError("rejected", FILE_TOO_LARGE);
    if (!f.file_path) throw new MessengerError("rejected", "getFile returned no file_path");
    let res: Response;
    try {
      res = await fetch(`${this.apiRoot}/file/bot${token}/${f.file_path}`, { signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw new MessengerError("unreachable", "The messenger platform is unreachable (file download)");
    }
    if (!res.ok || !res.body) throw new MessengerError("rejected", `file download failed: HTTP ${res.status}`, res.status);
    if (Number(res.headers.get("content-length")) > maxBytes) {
      await res.body.cancel();
      throw new MessengerError("rejected", FILE_TOO_LARGE);
    }
    let seen = 0;
    const capped = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        seen += chunk.byteLength;
        if (seen > maxBytes) out.error(new Error(FILE_TOO_LARGE));
        else out.enqueue(chunk);
      },
    });
    return { body: res.body.pipeThrough(capped), filePath: f.file_path, contentType: res.headers.get("content-type") ?? "application/octet-stream" };
  }
}
