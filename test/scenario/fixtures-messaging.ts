// Scenarios of the messaging, trigger and moderation node families (docs/nodes/*.md).
import { doc, node } from "./harness";

/** An id long enough that "project_<id>" exceeds the 64-byte callback limit. */
export const LONG_ID = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789";

const projects = JSON.stringify({
  items: [
    { id: 1, name: "Alpha" },
    { id: 2, name: "Beta" },
    { id: 3, name: "Gamma" },
    { id: LONG_ID, name: "Long" },
  ],
});

/** Dynamic buttons, callback data, callback triggers, multi-select (bot-callbacks.test.ts). */
export const callbackScenario = doc(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "load" }),
  node("load", "set_variable", { assignments: [{ variable: "projects", value: projects, mode: "set" }], autoTransitionTo: "list" }),
  node("list", "message", { messageText: "Your projects", keyboardType: "inline", keyboardNodeId: "kb-list" }),
  node("kb-list", "keyboard", {
    keyboardType: "inline",
    buttons: [
      { id: "b-top", text: "Top", action: "goto", target: "new" },
      { id: "b-new", text: "➕ New", action: "goto", target: "new" },
      { id: "b-help", text: "Help", action: "goto", target: "new", customCallbackData: "help" },
      { id: "b-mine", text: "Mine", action: "goto", target: "own", customCallbackData: "mine_{user_id}" },
    ],
    enableDynamicButtons: true,
    dynamicButtons: { sourceVariable: "projects", arrayPath: "items", textTemplate: "📁 {name}", callbackTemplate: "project_{id}", columns: 2 },
    keyboardLayout: {
      rows: [{ buttonIds: ["b-top"] }, { buttonIds: ["__dynamic__"] }, { buttonIds: ["b-new"] }, { buttonIds: ["b-help", "b-mine"] }],
      columns: 2,
      autoLayout: false,
    },
  }),
  node("new", "message", { messageText: "New project" }),
  node("own", "message", { messageText: "Own button: {callback_data}" }),
  node("on-project", "incoming_callback_trigger", {
    callbackPattern: "project_",
    callbackMatchType: "startsWith",
    callbackDataSaveAs: "project_id",
    callbackDataStripPrefix: "project_",
    autoTransitionTo: "card",
  }),
  node("card", "message", { messageText: "Project {project_id} ({callback_data}, {button_text})" }),
  node("on-help", "callback_trigger", { callbackData: "help", matchType: "exact", autoTransitionTo: "help" }),
  node("help", "message", { messageText: "Help via trigger ({callback_data})" }),
  node("cmd-shop", "command_trigger", { command: "/shop", autoTransitionTo: "shop" }),
  node("shop", "message", {
    messageText: "Shop",
    keyboardType: "inline",
    buttons: [
      { id: "b-tea", text: "Buy 3 tea", action: "goto", customCallbackData: "order_tea_3" },
      { id: "b-other", text: "Other", action: "goto", customCallbackData: "misc_1" },
    ],
  }),
  node("on-order", "callback_trigger", {
    callbackData: "order_",
    matchType: "startswith",
    callbackParseTemplate: "order_{item}_{qty}",
    callbackSaveVariables: [
      { templateVar: "item", saveAs: "item" },
      { templateVar: "qty", saveAs: "qty" },
    ],
    autoTransitionTo: "order",
  }),
  node("order", "message", { messageText: "Order {item} × {qty} ({callback_data})" }),
  node("on-any", "incoming_callback_trigger", { callbackPattern: "", autoTransitionTo: "caught" }),
  node("caught", "message", { messageText: "Caught: {callback_data}" }),
  node("cmd-colors", "command_trigger", { command: "/colors", autoTransitionTo: "colors" }),
  node("colors", "message", {
    messageText: "Pick colours",
    keyboardType: "inline",
    buttons: [
      { id: "c-red", text: "Red", action: "selection" },
      { id: "c-green", text: "Green", action: "selection" },
      { id: "c-blue", text: "Blue", action: "selection" },
    ],
    keyboardLayout: { rows: [{ buttonIds: ["c-red", "c-green"] }, { buttonIds: ["c-blue"] }], columns: 2, autoLayout: false },
    multiSelectVariable: "colors",
    continueButtonText: "Done",
    continueButtonTarget: "colors-done",
  }),
  node("colors-done", "message", { messageText: "Colors: {colors}" }),
  node("cmd-sizes", "command_trigger", { command: "/sizes", autoTransitionTo: "sizes" }),
  node("sizes", "message", {
    messageText: "Pick sizes",
    keyboardType: "reply",
    buttons: [
      { id: "s", text: "S", action: "selection" },
      { id: "m", text: "M", action: "selection" },
    ],
    multiSelectVariable: "sizes",
    continueButtonText: "Done",
    continueButtonTarget: "sizes-done",
  }),
  node("sizes-done", "message", { messageText: "Sizes: {sizes}", removeKeyboard: true }),
  // A keyboard node reached by a transition puts its keyboard on the message just sent.
  node("cmd-page", "command_trigger", { command: "/page", autoTransitionTo: "page-vars" }),
  node("page-vars", "set_variable", { assignments: [{ variable: "page", value: '{"next":2}' }], autoTransitionTo: "page" }),
  node("page", "message", { messageText: "Page 1", autoTransitionTo: "has-next" }),
  node("has-next", "condition", {
    variable: "page.next",
    branches: [
      { id: "y", operator: "filled", value: "", target: "kb-nav" },
      { id: "n", operator: "else", value: "", target: "kb-none" },
    ],
  }),
  node("kb-nav", "keyboard", { keyboardType: "inline", buttons: [{ id: "nx", text: "Next", action: "goto", target: "new", customCallbackData: "pg_{page.next}" }] }),
  node("kb-none", "keyboard", { keyboardType: "inline", buttons: [] }),
  node("on-page", "incoming_callback_trigger", { callbackPattern: "pg_", callbackDataSaveAs: "p", callbackDataStripPrefix: "pg_", autoTransitionTo: "page-n" }),
  node("page-n", "message", { messageText: "page {p}" }),
  // Hostile lists: too many items for one keyboard, and a "list" that is not one.
  node("cmd-many", "command_trigger", { command: "/many", autoTransitionTo: "many-set" }),
  node("many-set", "set_variable", {
    assignments: [
      { variable: "many", value: JSON.stringify(Array.from({ length: 150 }, (_, i) => ({ n: i }))) },
      { variable: "notlist", value: "oops" },
    ],
    autoTransitionTo: "many",
  }),
  node("many", "message", {
    messageText: "Many",
    keyboardType: "inline",
    buttons: [{ id: "m-top", text: "Top", action: "goto", target: "new" }],
    enableDynamicButtons: true,
    dynamicButtons: { sourceVariable: "many", textTemplate: "#{n}", callbackTemplate: "n_{n}", columns: 5 },
    autoTransitionTo: "few",
  }),
  node("few", "message", {
    messageText: "Few",
    keyboardType: "inline",
    buttons: [{ id: "f-top", text: "Top", action: "goto", target: "new" }],
    enableDynamicButtons: true,
    dynamicButtons: { sourceVariable: "notlist", textTemplate: "{value}", callbackTemplate: "v_{value}" },
  }),
);



const cmd = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });
const say = (id: string, text: string) => node(id, "message", { messageText: text });

/** Messaging action nodes (bot-actions.test.ts). */
export const actionsScenario = doc(
  cmd("sticker", "a-sticker"),
  node("a-sticker", "sticker", { stickerFileId: "CAACAgIAAxkBAAIBsticker" }),
  cmd("voice", "a-voice"),
  node("a-voice", "voice", { voiceUrl: "https://example.com/hello.ogg", mediaCaption: "Hi {first_name}" }),
  cmd("gif", "a-gif"),
  node("a-gif", "animation", { animationUrl: "https://example.com/cat.gif", autoTransitionTo: "after-gif" }),
  say("after-gif", "after gif"),
  cmd("where", "a-venue"),
  node("a-venue", "location", { latitude: 55.75, longitude: 37.61, title: "Red Square", address: "Moscow" }),
  cmd("point", "a-point"),
  node("a-point", "location", { latitude: "59.93", longitude: "30.31" }),
  cmd("card", "a-contact"),
  node("a-contact", "contact", { phoneNumber: "+7 900 000-00-00", firstName: "Shop", lastName: "Desk" }),
  cmd("album", "a-album"),
  node("a-album", "media", {
    messageText: "Three photos",
    attachedMedia: ["https://example.com/1.jpg", "https://example.com/2.jpg", "https://example.com/3.jpg"],
  }),
  cmd("menu", "menu"),
  node("menu", "message", {
    messageText: "Menu",
    saveMessageIdTo: "menu_id",
    keyboardType: "inline",
    buttons: [
      { id: "m-edit", text: "Edit me", action: "goto", target: "a-edit" },
      { id: "m-alert", text: "Alert", action: "goto", target: "a-alert" },
      { id: "m-strip", text: "Strip", action: "goto", target: "a-strip" },
    ],
  }),
  node("a-edit", "edit_message", {
    editMode: "both",
    editMessageText: "Edited after {button_text}",
    editKeyboardMode: "node",
    editKeyboardNodeId: "kb-edit",
  }),
  node("kb-edit", "keyboard", { keyboardType: "inline", buttons: [{ id: "e-back", text: "Back", action: "goto", target: "menu" }] }),
  node("a-alert", "answer_callback_query", { notificationText: "Careful, {first_name}!", showAlert: true, autoTransitionTo: "after-alert" }),
  say("after-alert", "after alert"),
  node("a-strip", "edit_message", { editMode: "markup", editKeyboardMode: "remove" }),
  cmd("editstored", "a-edit-stored"),
  node("a-edit-stored", "edit_message", { editMode: "text", editMessageText: "Rewritten", editMessageIdSource: "custom", editMessageIdManual: "{menu_id}" }),
  cmd("del", "a-del"),
  node("a-del", "delete_message", { messageIdSource: "current_message", autoTransitionTo: "deleted" }),
  say("deleted", "deleted"),
  cmd("dellast", "a-dellast"),
  node("a-dellast", "delete_message", { messageIdSource: "last_bot_message" }),
  cmd("purge", "purge-n"),
  node("purge-n", "set_variable", { assignments: [{ variable: "n", value: "3" }], autoTransitionTo: "a-purge" }),
  node("a-purge", "delete_message", { messageIdSource: "last_n", lastNCount: "{n}" }),
  cmd("bulk", "bulk-ids"),
  node("bulk-ids", "set_variable", { assignments: [{ variable: "ids", value: JSON.stringify(Array.from({ length: 150 }, (_, i) => i + 1)) }], autoTransitionTo: "a-bulk" }),
  node("a-bulk", "delete_message", { bulkDelete: true, bulkMessageIdsVariable: "ids" }),
  cmd("delone", "one-id"),
  node("one-id", "set_variable", { assignments: [{ variable: "target", value: "1" }], autoTransitionTo: "a-delone" }),
  node("a-delone", "delete_message", { messageIdSource: "variable", variableName: "target" }),
  cmd("fwd", "a-fwd"),
  node("a-fwd", "forward_message", {
    sourceMessageIdSource: "current_message",
    targetChatTargets: [
      { id: "t1", targetChatIdSource: "manual", targetChatId: "777001" },
      { id: "t2", targetChatIdSource: "admin_ids" },
    ],
  }),
  cmd("copy", "a-copy"),
  node("a-copy", "forward_message", { hideAuthor: true, targetChatIdSource: "manual", targetChatId: "777002" }),
  cmd("badchat", "a-badchat"),
  node("a-badchat", "delete_message", { chatIdSource: "custom", chatIdManual: "{nothing}", autoTransitionTo: "still" }),
  say("still", "still here"),
);

export const GROUP_ID = -1001234567890;

/** Group moderation, pins and forum topics (bot-moderation.test.ts). Legacy nodes answer their own command. */
export const moderationScenario = doc(
  node("ban", "ban_user", { command: "/ban", messageText: "banned", userIdSource: "last_message" }),
  node("unban", "unban_user", { command: "/unban", messageText: "unbanned", userIdSource: "last_message" }),
  node("kick", "kick_user", { command: "/kick", messageText: "kicked", userIdSource: "reply_user" }),
  node("mute", "mute_user", { command: "/mute", messageText: "muted", muteDuration: 3600 }),
  node("unmute", "unmute_user", { command: "/unmute", messageText: "unmuted" }),
  node("promote", "promote_user", { command: "/promote", messageText: "promoted", canDeleteMessages: true, canPinMessages: true }),
  node("demote", "demote_user", { command: "/demote", messageText: "demoted" }),
  node("rights", "admin_rights", { command: "/rights", messageText: "rights set", adminOnly: true, can_invite_users: true, can_manage_topics: true }),
  node("ban-id", "ban_user", { command: "/banid", messageText: "banned by id", userIdSource: "manual", targetUserId: "{victim}" }),
  node("pin", "pin_message", { command: "/pin", messageText: "pinned", messageIdSource: "reply_message", disableNotification: true }),
  node("unpin", "unpin_message", { command: "/unpin", messageText: "unpinned", messageIdSource: "reply_message" }),
  cmd("topic", "a-topic"),
  node("a-topic", "create_forum_topic", { topicName: "Orders of {first_name}", topicIconColor: 16766590, saveThreadIdTo: "thread", autoTransitionTo: "topic-done" }),
  say("topic-done", "topic {thread}"),
);

/** Broadcast with confirmation (bot-broadcast.test.ts). */
export const broadcastScenario = doc(
  cmd("start", "hello"),
  say("hello", "hello"),
  cmd("news", "a-news"),
  node("a-news", "broadcast", {
    broadcastTargetNode: "news-text",
    enableConfirmation: true,
    confirmationText: "Send the news to everyone?",
    successMessage: "Sent {sent} of {total}",
    errorMessage: "Sent {sent} of {total}, {failed} failed",
    adminOnly: true,
  }),
  node("news-text", "message", { messageText: "News for {first_name}" }),
);


export const TOPIC_GROUP = -1005550001111;

/** Message triggers (bot-triggers.test.ts). */
export const triggersScenario = doc(
  node("on-in", "incoming_message_trigger", { autoTransitionTo: "count-in" }),
  node("count-in", "set_variable", { assignments: [{ variable: "seen", mode: "increment", value: "1" }] }),
  cmd("count", "show-count"),
  say("show-count", "seen {seen}"),
  node("on-out", "outgoing_message_trigger", { autoTransitionTo: "keep-out" }),
  node("keep-out", "set_variable", { assignments: [{ variable: "last_out", value: "{message_text}" }] }),
  cmd("last", "show-last"),
  say("show-last", "last: {last_out}"),
  cmd("fwdme", "fwd-me"),
  node("fwd-me", "forward_message", { sourceMessageIdSource: "current_message", targetChatId: "{user_id}" }),
  cmd("copyme", "copy-me"),
  node("copy-me", "forward_message", { sourceMessageIdSource: "current_message", hideAuthor: true, targetChatId: "{user_id}" }),
  cmd("settopic", "set-topic"),
  node("set-topic", "set_variable", { assignments: [{ variable: "topic", value: "77" }], autoTransitionTo: "topic-set" }),
  say("topic-set", "topic set"),
  node("on-topic", "group_message_trigger", {
    groupChatIdSource: "manual",
    groupChatId: "5550001111",
    threadIdVariable: "topic",
    resolvedUserIdVariable: "uid",
    autoTransitionTo: "to-user",
  }),
  say("to-user", "Operator: {message_text} (for {uid})"),
);

export const SCHEDULE_GROUP = -1005550002222;

/** Schedules (bot-triggers.test.ts): every second into a group, every 2 seconds for every user. */
export const scheduleScenario = doc(
  cmd("start", "hello"),
  say("hello", "hello"),
  node("tick", "schedule_trigger", {
    rules: [{ mode: "cron", cronExpression: "* * * * * *" }],
    timezone: "Asia/Tokyo",
    targetChatId: String(SCHEDULE_GROUP),
    autoTransitionTo: "tick-text",
  }),
  say("tick-text", "tick"),
  node("remind", "schedule_trigger", { rules: [{ mode: "cron", cronExpression: "*/2 * * * * *" }], timezone: "UTC", autoTransitionTo: "remind-text" }),
  say("remind-text", "reminder"),
  node("office", "schedule_trigger", {
    rules: [
      { mode: "weekday", days: ["mon", "fri"], hour: 9, minute: 30 },
      { mode: "daily", hour: 18, minute: 0 },
      { mode: "monthday", monthDays: [1, 15], hour: 8 },
      { mode: "interval", intervalMinutes: 90 },
      { mode: "cron", cronExpression: "not a cron" },
    ],
    timezone: "Europe/Berlin",
    autoTransitionTo: "remind-text",
  }),
);

/** delay units, location/contact/callback input (bot-inputs.test.ts). */
export const inputsScenario = doc(
  cmd("wait", "wait-set"),
  node("wait-set", "set_variable", { assignments: [{ variable: "pause", value: "0.2" }], autoTransitionTo: "wait-msg" }),
  node("wait-msg", "message", { messageText: "waiting", autoTransitionTo: "wait" }),
  node("wait", "delay", { seconds: "{pause}", unit: "seconds", autoTransitionTo: "waited" }),
  say("waited", "waited {pause} s"),
  node("minutes", "delay", { seconds: 2, unit: "minutes", autoTransitionTo: "waited" }),
  cmd("where", "ask-where"),
  node("ask-where", "message", { messageText: "Where are you?", autoTransitionTo: "where-input" }),
  node("where-input", "input", { inputType: "location", inputVariable: "place", inputTargetNodeId: "got-where", inputRetryMessage: "A location, please" }),
  say("got-where", "You are at {place}"),
  cmd("phone", "ask-phone"),
  node("ask-phone", "message", { messageText: "Your phone?", autoTransitionTo: "phone-input" }),
  node("phone-input", "input", { inputType: "contact", inputVariable: "phone", inputTargetNodeId: "got-phone" }),
  say("got-phone", "Phone {phone}"),
  cmd("pick", "pick-load"),
  node("pick-load", "set_variable", { assignments: [{ variable: "fruits", value: '["apple","pear"]' }], autoTransitionTo: "pick-ask" }),
  node("pick-ask", "message", {
    messageText: "Pick a fruit",
    keyboardType: "inline",
    enableDynamicButtons: true,
    dynamicButtons: { sourceVariable: "fruits", textTemplate: "🍏 {value}", callbackTemplate: "fruit_{value}", columns: 2 },
    autoTransitionTo: "pick-input",
  }),
  node("pick-input", "input", { inputType: "text", inputVariable: "fruit", inputTargetNodeId: "picked" }),
  say("picked", "Picked {fruit} ({callback_data})"),
  // an input that asks itself: reached straight from a button (bot-inputs.test.ts)
  cmd("hello", "hello-menu"),
  node("hello-menu", "message", {
    messageText: "Hi! What shall we do?",
    keyboardType: "inline",
    buttons: [{ id: "b-name", text: "Tell my name", action: "goto", target: "ask-name" }],
  }),
  node("ask-name", "input", {
    inputType: "text",
    inputVariable: "name",
    inputTargetNodeId: "greet",
    inputPrompt: "What is your name, {first_name}?",
    keyboardType: "inline",
    buttons: [{ id: "b-anon", text: "Anonymous", action: "goto", target: "" }],
  }),
  say("greet", "Nice to meet you, {name}!"),
  cmd("city", "ask-city"),
  node("ask-city", "message", { messageText: "Which city?", autoTransitionTo: "city-input" }),
  node("city-input", "input", { inputType: "text", inputVariable: "city", inputTargetNodeId: "got-city", inputPrompt: "Type your answer" }),
  say("got-city", "City: {city}"),
);

/** Every scenario of this file, for the type check of generated programs (compat.test.ts). */
export const MESSAGING_FIXTURES: Record<string, unknown> = {
  callbacks: callbackScenario,
  actions: actionsScenario,
  moderation: moderationScenario,
  broadcast: broadcastScenario,
  triggers: triggersScenario,
  schedules: scheduleScenario,
  inputs: inputsScenario,
};

