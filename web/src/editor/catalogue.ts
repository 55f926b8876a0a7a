// Every node type the scenario engine runs, grouped as the older platform's palette groups them,
// with the default data its editor gave a new node (facts of the format, so imported files and new
// nodes look alike), its texts in the reader's language (docs/editor.md "Screen").
// test/editor/catalogue.test.ts keeps this list equal to the engine's.
import { newNodeWords, type NewNodeWords } from "./i18n";

export type GroupId = "triggers" | "messages" | "actions" | "content" | "logic" | "http" | "data" | "users" | "utility" | "legacy";

export interface NodeKind {
  type: string;
  group: GroupId;
  /** short symbol shown on the node and in the palette */
  icon: string;
  /** the data a new node starts with; texts in `words`' language (English when not given) */
  defaults: (words?: NewNodeWords) => Record<string, unknown>;
}

export const GROUPS: GroupId[] = ["triggers", "messages", "logic", "http", "data", "actions", "content", "users", "utility", "legacy"];

const keyboardBits = () => ({ markdown: false, oneTimeKeyboard: false, resizeKeyboard: true });
const moderation = (command: string, extra: Record<string, unknown> = {}) => () => ({
  command,
  targetUserId: "",
  userIdSource: "last_message",
  userVariableName: "",
  ...extra,
});
const media = (field: string, text: string) => (): Record<string, unknown> => ({ messageText: text, [field]: "", mediaCaption: "", keyboardType: "none", buttons: [], ...keyboardBits() });

const EN = newNodeWords("en");

export const NODE_KINDS: NodeKind[] = [
  { type: "command_trigger", group: "triggers", icon: "⚡", defaults: (w = EN) => ({ command: "/start", description: w.startBot, showInMenu: true }) },
  { type: "text_trigger", group: "triggers", icon: "❝", defaults: (w = EN) => ({ textSynonyms: [w.hello], textMatchType: "exact" }) },
  { type: "incoming_message_trigger", group: "triggers", icon: "✉", defaults: () => ({}) },
  { type: "callback_trigger", group: "triggers", icon: "◉", defaults: () => ({ callbackData: "my_callback", matchType: "exact" }) },
  { type: "incoming_callback_trigger", group: "triggers", icon: "↩", defaults: () => ({ autoTransitionTo: "" }) },
  { type: "outgoing_message_trigger", group: "triggers", icon: "↗", defaults: () => ({ autoTransitionTo: "" }) },
  { type: "group_message_trigger", group: "triggers", icon: "☷", defaults: () => ({ groupChatId: "", groupChatIdSource: "manual", groupChatVariableName: "", threadIdVariable: "support_thread_id", resolvedUserIdVariable: "resolved_user_id" }) },
  { type: "reaction_trigger", group: "triggers", icon: "♥", defaults: () => ({ emoji: ["👍"], messageNodes: [], autoTransitionTo: "" }) },
  { type: "member_trigger", group: "triggers", icon: "⇄", defaults: () => ({ memberEvents: ["joined"], autoTransitionTo: "" }) },
  { type: "join_request_trigger", group: "triggers", icon: "✋", defaults: () => ({ autoTransitionTo: "" }) },
  { type: "checkout_trigger", group: "triggers", icon: "☑", defaults: () => ({ autoTransitionTo: "" }) },
  { type: "payment_trigger", group: "triggers", icon: "★", defaults: () => ({ autoTransitionTo: "" }) },
  { type: "webhook_trigger", group: "triggers", icon: "⇲", defaults: () => ({ userField: "user_id", variables: "", variablePrefix: "", answerStatus: 200, answerBody: '{"ok":true}', rateLimitPerMinute: 60, autoTransitionTo: "" }) },
  { type: "schedule_trigger", group: "triggers", icon: "◴", defaults: () => ({ rules: [{ mode: "interval", intervalMinutes: 5 }], timezone: "Europe/Moscow", autoTransitionTo: "", runOnStart: false, enabled: true, maxConcurrent: 1 }) },

  { type: "message", group: "messages", icon: "✉", defaults: (w = EN) => ({ messageText: w.message, markdown: false }) },
  { type: "invoice", group: "messages", icon: "⭐", defaults: (w = EN) => ({ title: w.premium, description: w.premiumMonth, amount: 50, payload: "premium_{user_id}", photoUrl: "" }) },
  { type: "keyboard", group: "messages", icon: "⌨", defaults: () => ({ keyboardType: "inline", buttons: [], ...keyboardBits() }) },
  { type: "input", group: "messages", icon: "✎", defaults: (w = EN) => ({ inputType: "any", inputVariable: "", inputTargetNodeId: "", appendVariable: false, saveToDatabase: false, inputPrompt: w.answer, inputRequired: true }) },
  { type: "media", group: "messages", icon: "▦", defaults: () => ({ attachedMedia: [], enableAutoTransition: false, autoTransitionTo: "" }) },
  { type: "photo", group: "messages", icon: "▣", defaults: media("imageUrl", "") },
  { type: "video", group: "messages", icon: "▶", defaults: media("videoUrl", "") },
  { type: "audio", group: "messages", icon: "♫", defaults: media("audioUrl", "") },
  { type: "document", group: "messages", icon: "▤", defaults: media("documentUrl", "") },
  { type: "sticker", group: "messages", icon: "☺", defaults: (w = EN) => ({ messageText: w.sticker, stickerUrl: "", stickerFileId: "", ...keyboardBits() }) },
  { type: "voice", group: "messages", icon: "♪", defaults: (w = EN) => ({ messageText: w.voice, voiceUrl: "", duration: 0, ...keyboardBits() }) },
  { type: "animation", group: "messages", icon: "◈", defaults: () => ({ messageText: "", animationUrl: "", mediaCaption: "", ...keyboardBits() }) },
  { type: "location", group: "messages", icon: "⊕", defaults: (w = EN) => ({ messageText: w.location, latitude: 55.7558, longitude: 37.6176, title: "", address: "", ...keyboardBits() }) },
  { type: "contact", group: "messages", icon: "☎", defaults: (w = EN) => ({ messageText: w.contact, phoneNumber: "", firstName: "", lastName: "", vcard: "", ...keyboardBits() }) },

  { type: "condition", group: "logic", icon: "◇", defaults: (w = EN) => ({ variable: "", branches: [{ id: "branch_filled", label: w.filled, operator: "filled", value: "" }, { id: "else", label: w.else, operator: "else", value: "" }] }) },
  { type: "set_variable", group: "logic", icon: "=", defaults: () => ({ assignments: [{ id: "assign_1", variable: "", value: "", mode: "text" }], autoTransitionTo: "", enableAutoTransition: false }) },
  { type: "loop", group: "logic", icon: "↻", defaults: () => ({ sourceVariable: "", itemVariable: "item", indexVariable: "index", parallel: false, delaySeconds: 0, maxIterations: 0, autoTransitionTo: "", afterLoopTo: "", enableAutoTransition: true, buttons: [], keyboardType: "none", messageText: "" }) },
  { type: "parallel_split", group: "logic", icon: "⫴", defaults: (w = EN) => ({ parallelBranches: [{ id: "pbranch_1", label: `${w.branch} 1`, target: "" }, { id: "pbranch_2", label: `${w.branch} 2`, target: "" }], maxConcurrent: 5, awaitAll: false, skipIfRunning: true }) },
  { type: "delay", group: "logic", icon: "◷", defaults: () => ({ seconds: "3", unit: "seconds", mode: "blocking", autoTransitionTo: "", enableAutoTransition: false }) },

  {
    type: "http_request",
    group: "http",
    icon: "⇄",
    defaults: () => ({
      httpRequestUrl: "",
      httpRequestMethod: "GET",
      httpRequestHeaders: "",
      httpRequestBody: "",
      httpRequestTimeout: 30,
      httpRequestResponseVariable: "response",
      httpRequestStatusVariable: "",
      httpRequestBodyFormat: "json",
      httpRequestAuthType: "none",
      keyboardType: "none",
      buttons: [],
    }),
  },

  {
    type: "ai_answer",
    group: "http",
    icon: "✦",
    defaults: (w = EN) => ({
      aiBaseUrl: "https://api.openai.com/v1",
      aiModel: "gpt-4o-mini",
      aiApiKeyEnv: "OPENAI_API_KEY",
      aiSystemPrompt: w.aiSystem,
      aiUserMessage: "",
      aiMemoryTurns: 5,
      aiTemperature: 0.7,
      aiMaxTokens: 512,
      aiTimeout: 30,
      aiSaveTo: "ai_answer",
      aiSendAnswer: true,
      aiFormatMode: "none",
      autoTransitionTo: "",
      errorTransitionTo: "",
    }),
  },

  { type: "bot_table", group: "data", icon: "▥", defaults: () => ({ tableName: "", operation: "read", where: [], updates: [], row: {}, key: "", onConflict: "ignore", saveResultTo: "", resultFormat: "first_row", returnColumns: [], orderBy: "", orderDirection: "desc", limit: 0, autoTransitionTo: "", enableAutoTransition: false }) },
  { type: "psql_query", group: "data", icon: "⛁", defaults: () => ({ query: "", saveResultTo: "", resultFormat: "first_row", textTemplate: "", enableAutoTransition: false, autoTransitionTo: "", connectionSource: "builtin", connectionEnvVar: "", connectionString: "", errorTransitionTo: "" }) },
  { type: "convert_file", group: "data", icon: "⇆", defaults: () => ({ convertFileMode: "toFile", convertFileInputVariable: "", convertFileFormat: "csv", convertFileFileName: "export_{date}.csv", convertFileCsvDelimiter: ",", convertFileIncludeHeaderRow: true, convertFileOutputVariable: "", enableAutoTransition: false, autoTransitionTo: "" }) },

  { type: "edit_message", group: "actions", icon: "✏", defaults: () => ({ editMode: "text", editMessageText: "", editFormatMode: "none", editMessageIdSource: "current_message", editChatIdSource: "current_chat", editRemoveKeyboard: false, editButtons: [], editKeyboardType: "inline" }) },
  { type: "answer_callback_query", group: "actions", icon: "!", defaults: () => ({ callbackNotificationText: "", callbackShowAlert: false, callbackCacheTime: 0 }) },
  { type: "broadcast", group: "actions", icon: "»", defaults: () => ({ messageText: "", broadcastTarget: "all" }) },

  { type: "delete_message", group: "content", icon: "✖", defaults: () => ({ messageIdSource: "current_message", messageIdManual: "", chatIdSource: "current_chat", ignoreErrors: true, bulkDelete: false }) },
  { type: "forward_message", group: "content", icon: "↪", defaults: () => ({ sourceMessageIdSource: "current_message", targetChatId: "", targetChatIdSource: "manual", disableNotification: false, hideAuthor: false }) },
  { type: "pin_message", group: "content", icon: "⊤", defaults: () => ({ command: "/pin_message", targetMessageId: "", messageIdSource: "last_message", variableName: "", disableNotification: false }) },
  { type: "create_forum_topic", group: "content", icon: "#", defaults: () => ({ forumChatId: "", forumChatIdSource: "manual", forumChatVariableName: "", topicName: "", topicIconColor: "7322096", saveThreadIdTo: "", skipIfExists: false }) },
  { type: "unpin_message", group: "content", icon: "⊥", defaults: () => ({ command: "/unpin_message", targetMessageId: "", messageIdSource: "last_message", variableName: "" }) },

  { type: "ban_user", group: "users", icon: "⊘", defaults: moderation("/ban_user", { reason: "", untilDate: 0 }) },
  { type: "approve_join_request", group: "users", icon: "✔", defaults: () => ({ chatId: "{join_chat_id}" }) },
  { type: "decline_join_request", group: "users", icon: "✖", defaults: () => ({ chatId: "{join_chat_id}" }) },
  { type: "refuse_checkout", group: "users", icon: "⛔", defaults: (w = EN) => ({ reason: w.soldOut }) },
  { type: "refund_payment", group: "users", icon: "↺", defaults: () => ({ chargeId: "{payment_charge_id}" }) },
  { type: "unban_user", group: "users", icon: "✓", defaults: moderation("/unban_user") },
  { type: "mute_user", group: "users", icon: "∅", defaults: moderation("/mute_user", { duration: 3600, reason: "" }) },
  { type: "unmute_user", group: "users", icon: "♬", defaults: moderation("/unmute_user") },
  { type: "kick_user", group: "users", icon: "⏏", defaults: moderation("/kick_user", { reason: "" }) },
  { type: "promote_user", group: "users", icon: "⬆", defaults: moderation("/promote_user") },
  { type: "demote_user", group: "users", icon: "⬇", defaults: moderation("/demote_user") },
  { type: "admin_rights", group: "users", icon: "♛", defaults: () => ({ command: "/admin_rights", adminUserIdSource: "last_message", adminChatIdSource: "current_chat" }) },

  { type: "comment", group: "utility", icon: "✎", defaults: () => ({ messageText: "", commentColor: "yellow" }) },

  { type: "start", group: "legacy", icon: "▶", defaults: (w = EN) => ({ command: "/start", messageText: w.greeting, keyboardType: "none", buttons: [] }) },
  { type: "command", group: "legacy", icon: "/", defaults: () => ({ command: "/help", description: "", showInMenu: true, messageText: "", keyboardType: "none", buttons: [] }) },
];

const byType = new Map(NODE_KINDS.map((k) => [k.type, k]));
export const kindOf = (type: string): NodeKind | undefined => byType.get(type);
export const iconOf = (type: string) => byType.get(type)?.icon ?? "?";
