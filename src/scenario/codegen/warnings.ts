// Every warning the generator gives, in one table (docs/api.md#scenario-warnings, docs/editor.md#warnings):
// its key, its code and its English sentence with {slots}. The message a client reads is
// this sentence filled in, and the same key and slot values go out as `detail: { key, params }` so
// the Studio can say it in the reader's language. A slot named `node`, or ending in `Node`, holds a
// node id (the Studio names the node by its text); one ending in `Type` holds a node type, `field`
// the field a link comes from and `inputKind` a kind of answer (photo, video, audio, document).
import type { IssueCode } from "../validate";

interface WarningRow {
  en: string;
  /** INVALID_DATA when absent */
  code?: IssueCode;
}

/** The fields a transition may come from when it leads to a node that does not run (TARGET_NOT_RUNNABLE). */
export const TARGET_FIELDS = [
  "autoTransitionTo", "afterLoopTo", "loop body (autoTransitionTo)", "broadcastTargetNode", "continueButtonTarget",
  "defaultTargetId", "errorTransitionTo", "inputTargetNodeId", "inputTimeoutTarget", "nextNodeAfterInput",
] as const;
export type TargetField = (typeof TARGET_FIELDS)[number];

const SKIPPED = `leads to "{targetNode}" ({targetType}), which is skipped; the flow stops there.`;
const TRIGGER = `points to trigger "{targetNode}"; the flow stops there.`;
const REFUSED = "Telegram refuses the invoice.";

export const COMPILE_WARNINGS = {
  "target.skipped": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": {field} ${SKIPPED}` },
  "target.buttonSkipped": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": button "{button}" ${SKIPPED}` },
  "target.branchSkipped": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": branch "{branch}" ${SKIPPED}` },
  "target.branchErrorSkipped": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": branch "{branch}" onErrorTarget ${SKIPPED}` },
  "target.trigger": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": {field} ${TRIGGER}` },
  "target.buttonTrigger": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": button "{button}" ${TRIGGER}` },
  "target.branchTrigger": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": branch "{branch}" ${TRIGGER}` },
  "target.branchErrorTrigger": { code: "TARGET_NOT_RUNNABLE", en: `Node "{node}": branch "{branch}" onErrorTarget ${TRIGGER}` },

  "command.taken": { code: "COMMAND_CONFLICT", en: `Node "{node}": command /{command} is already handled by trigger "{triggerNode}"; this trigger is ignored.` },
  "command.deepLinkTaken": { code: "COMMAND_CONFLICT", en: `Node "{node}": /{command} with parameter "{param}" is already handled by trigger "{triggerNode}"; this trigger is ignored.` },
  "command.menuFull": { en: "The command menu holds at most {max} commands: {count} (from /{command} on) are left out of it and still answer when typed." },
  "command.deepLinkInvalid": { en: `Node "{node}": deep-link parameter "{param}" can never arrive: Telegram allows up to 64 of A-Z, a-z, 0-9, _ and -.` },
  "command.noCommand": { en: `Node "{node}": command trigger without a command is ignored.` },
  "command.leadsNowhere": { en: `Node "{node}": command /{command} leads nowhere; it answers nothing.` },
  "textTrigger.noTexts": { en: `Node "{node}": text trigger without texts is ignored.` },
  "callbackTrigger.noData": { en: `Node "{node}": callback trigger without callbackData is ignored.` },
  "groupTrigger.incomplete": { en: `Node "{node}": group_message_trigger needs groupChatId and threadIdVariable; it is ignored.` },
  "reactionTrigger.notEmoji": { en: `Node "{node}": {emoji} is no reaction emoji; the trigger never runs for it.` },
  "reactionTrigger.unknownMessages": { en: `Node "{node}": messageNodes {ids} are not in the scenario; reactions on their messages never arrive.` },
  "memberTrigger.unknownEvents": { en: `Node "{node}": member events {events} are unknown ({known}); they are ignored.` },
  "schedule.badCron": { en: `Node "{node}": cron expression "{cron}" is invalid ({reason}); that rule is ignored.` },
  "schedule.incompleteRule": { en: `Node "{node}": a schedule rule ({mode}) is incomplete; it is ignored.` },
  "schedule.badTimezone": { en: `Node "{node}": unknown time zone "{timezone}"; the schedule is ignored.` },

  "message.empty": { en: `Node "{node}": the message has no text; the messenger rejects empty messages, so it is not sent.` },
  "message.conditionUnsupported": { en: `Node "{node}": conditional message #{index} has unsupported condition "{condition}"; it is skipped.` },
  "message.conditionNoVariable": { en: `Node "{node}": conditional message #{index} names no variable; it is skipped.` },

  "input.badRegex": { en: `Node "{node}": inputValidation "{pattern}" is not a valid regular expression; it is ignored.` },
  "input.mediaNoVariable": { en: `Node "{node}": {inputKind} input is enabled but no variable is named for it.` },
  "input.noVariable": { en: `Node "{node}": input node without inputVariable; answers are not stored.` },
  "input.timeoutTargetOnly": { en: `Node "{node}": inputTimeoutTarget without an inputTimeout (seconds) is never reached.` },
  "input.timeoutCapped": { en: `Node "{node}": inputTimeout is capped at {max} seconds (30 days).` },

  "button.noText": { en: `Node "{node}": a button without text is left out (the messenger rejects it).` },
  "button.unknownStyle": { en: `Node "{node}": button "{button}" has style "{style}"; Telegram knows {known}, so it shows in the app's own colour.` },
  "button.replyOnly": { en: `Node "{node}": button "{button}" ({action}) works only on a reply keyboard; it is left out.` },
  "button.inlineOnly": { en: `Node "{node}": button "{button}" ({action}) works only on an inline keyboard; it is left out.` },
  "button.miniAppNoUrl": { en: `Node "{node}": Mini App button "{button}" has no webAppUrl; it is left out.` },
  "button.copyNoText": { en: `Node "{node}": copy button "{button}" has no copyText; it is left out.` },
  "button.unknownAction": { en: `Node "{node}": buttons with action "{action}" are not run by this version; they are left out.` },
  "keyboard.dynamicNeedsInline": { en: `Node "{node}": dynamic buttons need an inline keyboard; they are left out.` },
  "keyboard.dynamicIncomplete": { en: `Node "{node}": dynamic buttons need sourceVariable and textTemplate; they are left out.` },
  "keyboard.selectionNoVariable": { en: `Node "{node}": selection buttons without multiSelectVariable toggle but store nothing.` },
  "keyboard.notKeyboard": { en: `Node "{node}": keyboardNodeId "{keyboardNode}" is a {keyboardType} node, not a keyboard.` },

  "condition.unknownOperator": { en: `Node "{node}": branch "{branch}" has unknown operator "{operator}"; it never matches.` },
  "condition.badRegex": { en: `Node "{node}": branch "{branch}" has an invalid regular expression "{pattern}"; it never matches.` },
  "condition.noVariable": { en: `Node "{node}": condition without a variable compares an empty value.` },
  "delay.noSeconds": { en: `Node "{node}": delay without a number of seconds waits 0 seconds.` },
  "assign.badRegex": { en: `Node "{node}": regex_extract pattern "{pattern}" is invalid; the default is stored.` },
  "assign.noVariable": { en: `Node "{node}": an assignment without a variable name is skipped.` },
  "assign.unknownMode": { en: `Node "{node}": assignment to "{variable}" has unknown mode "{mode}"; it is skipped.` },
  "assign.regexNoPattern": { en: `Node "{node}": regex_extract into "{variable}" has no pattern; the default is stored.` },
  "assign.lookupIncomplete": { en: `Node "{node}": lookup into "{variable}" needs lookupTable and lookupField; it stores "".` },

  "loop.noSource": { en: `Node "{node}": loop without sourceVariable runs nothing.` },
  "parallel.noBranches": { en: `Node "{node}": parallel_split without branches that lead anywhere does nothing.` },
  "convert.noInput": { en: `Node "{node}": convert_file without convertFileInputVariable writes an empty file.` },
  "convert.noOutput": { en: `Node "{node}": convert_file without convertFileOutputVariable keeps the file nowhere.` },
  "table.unknownOperation": { en: `Node "{node}": bot_table operation "{operation}" is unknown; it reads.` },
  "table.badName": { en: `Node "{node}": bot_table needs a tableName of letters, digits and _; the node fails when it runs.` },
  "sql.connectionStringUnused": { en: `Node "{node}": psql_query connectionString is not used: put the connection string into a secret env variable of the token and name it in connectionEnvVar.` },
  "sql.noConnectionEnv": { en: `Node "{node}": psql_query on an external PostgreSQL needs connectionEnvVar, the name of a secret env variable of the token (A-Z, 0-9, _); the node fails when it runs.` },
  "sql.noQuery": { en: `Node "{node}": psql_query without a query fails when it runs.` },
  "http.noUrl": { en: `Node "{node}": http_request without a URL fails when it runs.` },
  "http.unknownMethod": { en: `Node "{node}": http_request method "{method}" is unknown; GET is used.` },
  "http.badHeaders": { en: `Node "{node}": httpRequestHeaders is not a JSON object; the request fails when it runs.` },
  "http.badQuery": { en: `Node "{node}": httpRequestQueryParams is not a JSON object; the request fails when it runs.` },
  "http.batchIncomplete": { en: `Node "{node}": http_request batch mode needs httpRequestBatchSource and httpRequestBatchResultVariable; it makes one request instead.` },
  "ai.badBaseUrl": { en: `Node "{node}": ai_answer aiBaseUrl is not an http(s) address; the node fails when it runs.` },
  "ai.noModel": { en: `Node "{node}": ai_answer without aiModel fails when it runs.` },
  "ai.keyInScenario": { en: `Node "{node}": ai_answer aiApiKeyEnv must name a secret env variable of the token (A-Z, 0-9, _), not hold the key; it is ignored.` },
  "ai.answerUnused": { en: `Node "{node}": ai_answer neither sends nor saves its answer.` },

  "delete.bulkNoVariable": { en: `Node "{node}": bulkDelete without bulkMessageIdsVariable deletes the triggering message instead.` },
  "action.noMessageId": { en: `Node "{node}": no message id given; the triggering message is used.` },
  "invoice.incomplete": { en: `Node "{node}": an invoice needs title, description and amount; nothing is sent.` },
  "invoice.amountRange": { en: `Node "{node}": amount "{amount}" is out of range: a whole number of Stars from 1 to {max}.` },
  "invoice.payloadTooLong": { en: `Node "{node}": the payload is over {max} bytes; ${REFUSED}` },
  "invoice.titleTooLong": { en: `Node "{node}": the title is over {max} characters; ${REFUSED}` },
  "invoice.descriptionTooLong": { en: `Node "{node}": the description is over {max} characters; ${REFUSED}` },
  "media.noFile": { en: `Node "{node}": {nodeType} without a file; nothing is sent.` },
  "location.incomplete": { en: `Node "{node}": location without latitude and longitude; nothing is sent.` },
  "contact.noPhone": { en: `Node "{node}": contact without phoneNumber; nothing is sent.` },
  "edit.noKeyboard": { en: `Node "{node}": editKeyboardNodeId names no usable keyboard; the keyboard is kept.` },
  "forward.noRecipient": { en: `Node "{node}": forward_message names no recipient; nothing is forwarded.` },
  "topic.noName": { en: `Node "{node}": create_forum_topic without topicName; nothing is created.` },
  "broadcast.noMessage": { en: `Node "{node}": broadcast names no message (broadcastTargetNode or a message with enableBroadcast); nothing is sent.` },
  "sentMessage.replyKeyboard": { en: `Node "{node}": only an inline keyboard can be put on a sent message; this reply keyboard is not shown.` },
} as const satisfies Record<string, WarningRow>;

export type WarningKey = keyof typeof COMPILE_WARNINGS;

/** The {slots} of a sentence, as a union of their names. */
type Slots<S extends string> = S extends `${string}{${infer P}}${infer R}` ? P | Slots<R> : never;
export type SlotsOf<K extends WarningKey> = Slots<(typeof COMPILE_WARNINGS)[K]["en"]>;
export type WarningParams = Record<string, string | number>;

/** The names of a sentence's slots, in order of first use. */
export function slotsOf(sentence: string): string[] {
  return [...new Set([...sentence.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))];
}

/** The English message of a key with its slots filled (values are not read again for slots). */
export function warningMessage(key: WarningKey, params: WarningParams): string {
  return COMPILE_WARNINGS[key].en.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

export const warningCode = (key: WarningKey): IssueCode => (COMPILE_WARNINGS[key] as WarningRow).code ?? "INVALID_DATA";
