// Runtime source: the one list of Bot API calls that put a message in a chat. The chat's last bot
// message (actions.ts), the mass pace (broadcast.ts), the outgoing-message trigger (triggers.ts) and
// the message store with its blocked users and messages out (record.ts) all ask it, so "the bot
// sent a message" means the same to each (docs/runtime.md "Messages the bot sends").
// (Part of every generated bot; see types.ts.)

// ─── Messages the bot sends ────────────────────────────────────────────────────

/**
 * What a message-sending call answers: "message" a Message, "album" an array of Messages, "ids" only
 * the new messages' ids (MessageId: a copy, or several copied or forwarded at once), so the bot
 * learns neither their chat nor their content from the answer.
 */
export type SendAnswer = "message" | "album" | "ids";

/**
 * Every Bot API method that puts messages in a chat, with its answer and the parameter holding the
 * text its user sees (a caption for media, an invoice's title, a poll's question; none for a
 * sticker, a location or a forward, whose text is the forwarded message's). Not sends: a chat
 * action ("typing…"), edits, deletions, answers to presses and queries.
 */
export const MESSAGE_SENDS: Readonly<Record<string, { answer: SendAnswer; text?: string }>> = {
  sendMessage: { answer: "message", text: "text" },
  sendPhoto: { answer: "message", text: "caption" },
  sendVideo: { answer: "message", text: "caption" },
  sendAnimation: { answer: "message", text: "caption" },
  sendAudio: { answer: "message", text: "caption" },
  sendDocument: { answer: "message", text: "caption" },
  sendVoice: { answer: "message", text: "caption" },
  sendPaidMedia: { answer: "message", text: "caption" },
  sendVideoNote: { answer: "message" },
  sendSticker: { answer: "message" },
  sendLocation: { answer: "message" },
  sendVenue: { answer: "message" },
  sendContact: { answer: "message" },
  sendDice: { answer: "message" },
  sendPoll: { answer: "message", text: "question" },
  sendInvoice: { answer: "message", text: "title" },
  sendGame: { answer: "message" },
  forwardMessage: { answer: "message" },
  sendMediaGroup: { answer: "album" },
  copyMessage: { answer: "ids", text: "caption" },
  copyMessages: { answer: "ids" },
  forwardMessages: { answer: "ids" },
};

/** A call that puts messages in a chat (MESSAGE_SENDS). The messenger's 30 a second counts these. */
export function isMessageSend(method: string): boolean {
  return Object.hasOwn(MESSAGE_SENDS, method);
}

/** The messages a send's answer names, each at least its id: one, an album's, or the ids of copies. */
export function sentMessages(result: unknown): { message_id: number }[] {
  const list = Array.isArray(result) ? result : [result];
  return list.filter((r): r is { message_id: number } => !!r && typeof r === "object" && typeof (r as { message_id?: unknown }).message_id === "number");
}

/** The text a send asked for (its MESSAGE_SENDS parameter), if it carried one. */
export function askedText(method: string, payload: Record<string, unknown>): string | undefined {
  const field = MESSAGE_SENDS[method]?.text;
  const value = field === undefined ? undefined : payload[field];
  return typeof value === "string" ? value : undefined;
}
