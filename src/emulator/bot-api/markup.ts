// Keyboards are where generated bots most often go wrong (callback_data over 64 bytes, buttons
// without an action), and Telegram refuses the whole message then; the fake does the same.
import { badRequest } from "./types";
import { BUTTON_STYLES, buttonUrlProblem, isMiniAppUrl } from "../../lib/button-url";

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
  if (button.copy_text !== undefined) {
    const copied = button.copy_text?.text;
    if (typeof copied !== "string") throw fail('Field "text" of CopyTextButton must be of type String');
    if (copied.length === 0 || copied.length > 256) throw badRequest("COPY_TEXT_INVALID");
  }
  checkCommon(button, "inline keyboard button");
}

function checkReplyButton(b: unknown) {
  if (typeof b === "string") return;
  if (!b || typeof b !== "object" || typeof (b as any).text !== "string") {
    throw badRequest("can't parse keyboard button: Field \"text\" must be of type String");
  }
  const button = b as Record<string, any>;
  const kinds = REPLY_KINDS.filter((k) => button[k] !== undefined && button[k] !== false);
  if (kinds.length > 1) throw badRequest(`can't parse keyboard button: ${kinds.join(" and ")} are mutually exclusive`);
  const poll = button.request_poll;
  if (poll !== undefined && (typeof poll !== "object" || (poll.type !== undefined && poll.type !== "quiz" && poll.type !== "regular"))) {
    throw badRequest("can't parse keyboard button: wrong request_poll type");
  }
  const managed = button.request_managed_bot;
  if (managed !== undefined && (typeof managed !== "object" || !Number.isInteger(managed.request_id))) {
    throw badRequest('can\'t parse keyboard button: Field "request_id" of KeyboardButtonRequestManagedBot must be of type Integer');
  }
  checkCommon(button, "keyboard button");
}

/** What a reply button does besides sending its text; at most one per button. */
const REPLY_KINDS = ["request_contact", "request_location", "request_poll", "request_users", "request_chat", "request_managed_bot", "web_app"];

/** Fields both kinds of button share: a Mini App's https URL and the colour. */
function checkCommon(button: Record<string, any>, what: string) {
  if (button.web_app !== undefined) {
    const url = button.web_app?.url;
    if (!isMiniAppUrl(url)) {
      throw badRequest(`${what} Web App URL '${String(url)}' is invalid: Only HTTPS links are allowed`);
    }
  }
  if (button.style !== undefined && !(BUTTON_STYLES as readonly unknown[]).includes(button.style)) {
    throw badRequest(`can't parse ${what}: unsupported button style "${String(button.style)}"`);
  }
}

/** Whether a checked keyboard has a Mini App button. */
export function hasMiniApp(markup: Record<string, any>): boolean {
  const rows: unknown[][] = markup.inline_keyboard ?? markup.keyboard ?? [];
  return rows.some((row) => row.some((b) => !!b && typeof b === "object" && (b as Record<string, unknown>).web_app !== undefined));
}

/** Telegram echoes only inline keyboards in the Message it returns. */
export function echoedMarkup(markup: Record<string, any> | undefined) {
  return markup && Array.isArray(markup.inline_keyboard) && markup.inline_keyboard.length ? markup : undefined;
}
