// Keyboards are where generated bots most often go wrong (callback_data over 64 bytes, buttons
// without an action), and Telegram refuses the whole message then; the fake does the same.
import { badRequest } from "./types";
import { buttonUrlProblem } from "../../lib/button-url";

const INLINE_ACTIONS = [
  "url", "callback_data", "web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay",
];

export function checkReplyMarkup(markup: unknown): Record<string, any> | undefined {
  if (markup === undefined) return undefined;
  if (!markup || typeof markup !== "object" || Array.isArray(markup)) throw badRequest("can't parse reply keyboard markup JSON object");
  const m = markup as Record<string, any>;
  if ("inline_keyboard" in m) checkRows(m.inline_keyboard, "inline_keyboard", "InlineKeyboardMarkup", checkInlineButton);
  else if ("keyboard" in m) checkRows(m.keyboard, "keyboard", "ReplyKeyboardMarkup", checkReplyButton);
  else if ("remove_keyboard" in m) {
    if (m.remove_keyboard !== true) throw badRequest('field "remove_keyboard" of the ReplyKeyboardRemove must be true');
  } else if ("force_reply" in m) {
    if (m.force_reply !== true) throw badRequest('field "force_reply" of the ForceReply must be true');
  } else throw badRequest("can't parse reply keyboard markup JSON object");
  return m;
}

function checkRows(rows: unknown, field: string, type: string, check: (b: unknown) => void) {
  if (!Array.isArray(rows) || rows.some((r) => !Array.isArray(r))) {
    throw badRequest(`field "${field}" of the ${type} must be an Array of Arrays`);
  }
  for (const row of rows as unknown[][]) for (const b of row) check(b);
  // Telegram refuses keyboards of more than 100 buttons in all.
  if ((rows as unknown[][]).reduce((n, r) => n + r.length, 0) > 100) throw badRequest("BUTTONS_TOO_MUCH");
}

function checkInlineButton(b: unknown) {
  const fail = (why: string) => badRequest(`can't parse inline keyboard button: ${why}`);
  if (!b || typeof b !== "object") throw fail("InlineKeyboardButton must be an Object");
  const button = b as Record<string, any>;
  if (typeof button.text !== "string") throw fail('Field "text" must be of type String');
  const actions = INLINE_ACTIONS.filter((k) => button[k] !== undefined);
  if (actions.length === 0) throw fail("Text buttons are unallowed in the inline keyboard");
  if (button.callback_data !== undefined) {
    const data = String(button.callback_data);
    const bytes = Buffer.byteLength(data);
    if (bytes === 0 || bytes > 64) throw badRequest("BUTTON_DATA_INVALID");
  }
  if (button.url !== undefined) {
    const problem = buttonUrlProblem(button.url);
    if (problem) throw badRequest(`inline keyboard button URL '${button.url}' is invalid: ${problem}`);
  }
}

function checkReplyButton(b: unknown) {
  if (typeof b === "string") return;
  if (!b || typeof b !== "object" || typeof (b as any).text !== "string") {
    throw badRequest("can't parse keyboard button: Field \"text\" must be of type String");
  }
}

/** Telegram echoes only inline keyboards in the Message it returns. */
export function echoedMarkup(markup: Record<string, any> | undefined) {
  return markup && Array.isArray(markup.inline_keyboard) && markup.inline_keyboard.length ? markup : undefined;
}
