// What a Bot API method handler gets: the calling bot's state, the shared world, the parameters.
import type { BotState, Directory, InvoiceRef } from "./chats";
import type { FileStore } from "./files";

export interface CallContext {
  state: BotState;
  dir: Directory;
  files: FileStore;
  params: Record<string, any>;
  /** aborts when the client disconnects (a long poll given up by bot.stop()) */
  signal: AbortSignal;
  /** set by handlers so the recorded call names the message it produced or touched */
  messageId?: number;
  /** set by answerPreCheckoutQuery when its "ok" paid an invoice message: that message */
  paidInvoice?: InvoiceRef;
}

export type Handler = (c: CallContext) => unknown;

/** Some answers carry a top-level description next to the result ("Webhook was set"). */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}
