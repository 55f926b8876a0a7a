// The only code through which the platform itself speaks the Bot API (docs/architecture.md#layers). Every call
// is bounded in time, failures are typed, and the token never appears in an error or log line.
import { MessengerError } from "../errors";

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

export class MessengerClient {
  private readonly apiRoot: string;
  private readonly timeoutMs: number;

  constructor(opts: MessengerClientOptions) {
    this.apiRoot = opts.apiRoot.replace(/\/+$/, "");
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  async call<T>(token: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
    if (!TOKEN_PATTERN.test(token)) throw new MessengerError("unauthorized", "The bot token has an invalid format");
    let res: Response;
    try {
      res = await fetch(`${this.apiRoot}/bot${token}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const timedOut = (e as Error)?.name === "TimeoutError";
      throw new MessengerError("unreachable", timedOut ? `The messenger platform did not answer ${method} in time` : `The messenger platform is unreachable (${method})`);
    }
    let body: any;
    try {
      body = await res.json();
    } catch {
      throw new MessengerError("unreachable", `The messenger platform answered ${method} with a non-JSON body (HTTP ${res.status})`, res.status);
    }
    if (body?.ok === true) return body.result as T;
    // The platform may echo the request URL (`bot<token>/...`) in its description.
    const description = typeof body?.description === "string" ? body.description.split(token).join("***") : `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 404) throw new MessengerError("unauthorized", `The messenger platform rejected the bot token: ${description}`, res.status);
    throw new MessengerError("rejected", `${method} failed: ${description}`, res.status);
  }

  async getMe(token: string): Promise<MessengerBot> {
    const me = await this.call<{ id: number; username?: string; first_name: string }>(token, "getMe");
    return { id: me.id, username: me.username ?? "", firstName: me.first_name };
  }

  setWebhook(token: string, url: string, secretToken: string) {
    return this.call<boolean>(token, "setWebhook", { url, secret_token: secretToken, allowed_updates: [] });
  }

  deleteWebhook(token: string) {
    return this.call<boolean>(token, "deleteWebhook", { drop_pending_updates: false });
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
    const f = await this.call<{ file_path?: string }>(token, "getFile", { file_id: fileId });
    if (!f.file_path) throw new MessengerError("rejected", "getFile returned no file_path");
    let res: Response;
    try {
      res = await fetch(`${this.apiRoot}/file/bot${token}/${f.file_path}`, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch {
      throw new MessengerError("unreachable", "The messenger platform is unreachable (file download)");
    }
    if (!res.ok) throw new MessengerError("rejected", `file download failed: HTTP ${res.status}`, res.status);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw new MessengerError("rejected", "file too large");
    return { bytes, filePath: f.file_path };
  }
}
