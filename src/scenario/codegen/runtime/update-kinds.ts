// Which update kinds a bot asks the messenger for: polling passes the list to getUpdates
// (triggers.ts), the platform passes the same list to setWebhook for webhook-mode bots
// (src/lib/shared-runtime.ts runs this text too), so both modes receive the same updates
// (docs/runtime.md "Update kinds"). Pure: no imports, no globals.

// ─── Update kinds ──────────────────────────────────────────────────────────────

/** Telegram's update kinds when a bot names none; reactions and chat_member must be asked for. */
export const DEFAULT_UPDATES = [
  "message", "edited_message", "channel_post", "edited_channel_post", "business_connection", "business_message",
  "edited_business_message", "deleted_business_messages", "inline_query", "chosen_inline_result", "callback_query",
  "shipping_query", "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member",
  "chat_join_request", "chat_boost", "removed_chat_boost",
] as const;

/** The kinds a scenario's triggers need: undefined (Telegram's default) unless one needs an opt-in kind. */
export function updatesAskedFor(triggers: readonly { on: string }[]): string[] | undefined {
  const extra = new Set<string>();
  for (const t of triggers) {
    if (t.on === "reaction") extra.add("message_reaction");
    if (t.on === "member") extra.add("chat_member");
  }
  return extra.size > 0 ? [...DEFAULT_UPDATES, ...extra] : undefined;
}
