// Shared shapes of the fake messenger. Bot API objects stay loosely typed (Record<string, any>):
// the fake builds them by hand and tests read them as JSON, so a full type mirror would only rot.

export interface FakeUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  is_premium?: true;
}

export interface RecordedCall {
  token: string;
  method: string;
  params: Record<string, any>;
  at: number;
  /** message the call produced or targeted (send*, copy, forward, edit*, delete) */
  messageId?: number;
  /** set when the fake answered with an error, e.g. "Bad Request: message text is empty" */
  error?: string;
}

export interface FakeBot {
  token: string;
  id: number;
  username: string;
  firstName: string;
  hasPhoto: boolean;
}

export type Update = { update_id: number } & Record<string, any>;
export type Message = Record<string, any> & { message_id: number; chat: Record<string, any>; date: number };

/** An error answered as `{ok:false,error_code,description}` with the same HTTP status, like Telegram. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }
}

export const badRequest = (what: string) => new ApiError(400, `Bad Request: ${what}`);

export const nowSeconds = () => Math.floor(Date.now() / 1000);
