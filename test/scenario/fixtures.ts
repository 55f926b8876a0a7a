// Scenarios the bot tests run, also type-checked as generated programs by compat.test.ts.
import { doc, node } from "./harness";

/** Messages, keyboards, media, triggers and flags (bot-messages.test.ts). */
export const showcaseScenario = doc(
  node("cmd-start", "command_trigger", { command: "/start", description: "Begin", showInMenu: true, autoTransitionTo: "welcome" }),
  // A legacy node claiming /start as well: the trigger wins, one command gives one reply.
  node("legacy-start", "message", { command: "/start", messageText: "LEGACY START", keyboardType: "none" }),
  node("welcome", "message", {
    messageText: "<b>Hello</b>, {first_name}! Id {user_id}, {user_name}. Unknown: [{nothing}]",
    formatMode: "html",
    keyboardType: "inline",
    buttons: [
      { id: "b-next", text: "Next", action: "goto", target: "second" },
      { id: "b-help", text: "Help", action: "command", target: "/help" },
      { id: "b-site", text: "Site", action: "url", url: "https://example.com/" },
    ],
    keyboardLayout: { rows: [{ buttonIds: ["b-next", "b-help"] }, { buttonIds: ["b-site"] }], columns: 2, autoLayout: false },
  }),
  node("second", "message", {
    messageText: "*Second* step after {button_text} ({callback_data}): https://example.com",
    formatMode: "markdown",
    disableLinkPreview: true,
    keyboardType: "none",
    keyboardNodeId: "kb-main",
  }),
  node("kb-main", "keyboard", {
    keyboardType: "reply",
    oneTimeKeyboard: true,
    resizeKeyboard: false,
    buttons: [
      { id: "r-photo", text: "Photo", action: "goto", target: "photo-node" },
      { id: "r-album", text: "Album", action: "goto", target: "album" },
      { id: "r-phone", text: "Share phone", action: "contact", target: "got-contact" },
    ],
    keyboardLayout: { rows: [], columns: 2, autoLayout: true },
  }),
  node("legacy-help", "command", { command: "/help", description: "", showInMenu: true, messageText: "_Help_ text", markdown: true, synonyms: ["помощь"] }),
  node("hidden", "command", { command: "/hidden", showInMenu: false, messageText: "Not in the menu" }),
  node("tt-exact", "text_trigger", { textSynonyms: ["Hi", "Привет"], textMatchType: "exact", autoTransitionTo: "hi" }),
  node("hi", "message", { messageText: "Trigger: {message_text}", formatMode: "text" }),
  node("tt-contains", "text_trigger", { textSynonyms: ["price"], textMatchType: "contains", autoTransitionTo: "price" }),
  node("price", "message", { messageText: "Prices for <i>{message_text}</i>", formatMode: "html" }),
  node("photo-node", "photo", { imageUrl: "https://example.com/cat.jpg", mediaCaption: "A cat" }),
  node("album", "message", { messageText: "Two pictures", attachedMedia: ["https://example.com/a.png", "https://example.com/b.png"] }),
  node("got-contact", "message", { messageText: "Thanks" }),
  node("tt-media", "text_trigger", { textSynonyms: ["media"], autoTransitionTo: "video-node" }),
  node("video-node", "video", { videoUrl: "https://example.com/clip.mp4", mediaCaption: "Clip", enableAutoTransition: true, autoTransitionTo: "audio-node" }),
  node("audio-node", "audio", { audioUrl: "https://example.com/song.mp3", enableAutoTransition: true, autoTransitionTo: "document-node" }),
  node("document-node", "document", { documentUrl: "https://example.com/terms.pdf", mediaCaption: "Terms", enableAutoTransition: true, autoTransitionTo: "pic-with-text" }),
  node("pic-with-text", "message", { messageText: "Caption from text", imageUrl: "https://example.com/dog.jpg", enableAutoTransition: true, autoTransitionTo: "pic-caption-and-text" }),
  node("pic-caption-and-text", "message", { messageText: "Then the text", imageUrl: "https://example.com/cached.jpg", mediaCaption: "Own caption" }),
  node("tt-chain", "text_trigger", { textSynonyms: ["chain"], autoTransitionTo: "chain-1" }),
  node("chain-1", "message", { messageText: "One", enableAutoTransition: true, autoTransitionTo: "chain-2" }),
  node("chain-2", "message", { messageText: "Two", enableAutoTransition: false, autoTransitionTo: "chain-3" }),
  node("chain-3", "message", { messageText: "never sent" }),
  node("tt-vars", "text_trigger", { textSynonyms: ["vars"], autoTransitionTo: "set-json" }),
  node("set-json", "set_variable", {
    assignments: [{ variable: "projects", value: '{"count":3,"items":[{"name":"A"},{"name":"B"}]}', mode: "set" }],
    autoTransitionTo: "show-json",
  }),
  node("show-json", "message", { messageText: "{projects.count} projects, first {projects.items.0.name}, all {projects.items.length}; {date} {time}" }),
  node("tt-broken", "text_trigger", { textSynonyms: ["broken"], autoTransitionTo: "broken" }),
  node("broken", "message", { messageText: "Broken <b>bold", formatMode: "html" }),
  node("tt-local", "text_trigger", { textSynonyms: ["local file"], autoTransitionTo: "local-doc" }),
  node("local-doc", "document", { documentUrl: "./hello.txt", mediaCaption: "From disk" }),
  node("http", "http_request", { httpRequestUrl: "https://example.com", autoTransitionTo: "chain-1" }),
);

const say = (id: string, text: string, extra: Record<string, unknown> = {}) => node(id, "message", { messageText: text, ...extra });
const command = (name: string, target: string) => node(`cmd-${name}`, "command_trigger", { command: `/${name}`, autoTransitionTo: target });
const contains = (id: string, text: string, target: string) =>
  node(id, "text_trigger", { textSynonyms: [text], textMatchType: "contains", autoTransitionTo: target });
const branch = (operator: string, value: string, target: string, value2?: string) => ({ id: target, label: target, operator, value, value2, target });
export const conditionResults = ["empty", "big", "negative", "between", "not-five", "five", "equals", "matches", "digits", "contains", "filled"];

/** Inputs, conditions, variables, delay, admin, conditional messages (bot-logic.test.ts). */
export const logicScenario = doc(
  command("start", "visits"),
  node("visits", "set_variable", {
    assignments: [
      { variable: "visits", value: "", mode: "increment" },
      { variable: "tags", value: "t{visits}", mode: "append" },
      { variable: "greeting", value: "Hi {first_name}", mode: "set" },
    ],
    autoTransitionTo: "ask-age",
  }),
  say("ask-age", "{greeting}! Visit {visits} ({tags}). Age?", { enableAutoTransition: true, autoTransitionTo: "in-age" }),
  node("in-age", "input", {
    inputVariable: "age",
    inputType: "text",
    inputPrompt: "Your age",
    inputValidation: { type: "number", min: 1, max: 120 },
    inputRetryMessage: "Digits please, {first_name}",
    inputTargetNodeId: "c-age",
  }),
  node("c-age", "condition", {
    variable: "age",
    branches: [branch("greater_than", "17", "adult"), branch("between", "13", "teen", "17"), branch("else", "", "kid")],
  }),
  say("adult", "Adult ({age})"),
  say("teen", "Teen ({age})"),
  say("kid", "Kid ({age})"),

  command("name", "ask-name"),
  say("ask-name", "Your name?", {
    collectUserInput: true,
    inputVariable: "nick",
    inputTargetNodeId: "nick-done",
    keyboardType: "reply",
    buttons: [
      { id: "skip", text: "Skip", action: "goto", target: "skipped", skipDataCollection: true },
      { id: "anon", text: "Anonymous", action: "goto", target: "nick-done" },
    ],
  }),
  say("nick-done", "Nice to meet you, {nick}", { removeKeyboard: true }),
  say("skipped", "Skipped ({nick})"),

  command("pic", "ask-pic"),
  say("ask-pic", "Send a photo", {
    collectUserInput: true,
    enablePhotoInput: true,
    photoInputVariable: "pic",
    inputTargetNodeId: "show-pic",
    inputRetryMessage: "A photo, please",
  }),
  say("show-pic", "Your photo", { attachedMedia: ["pic"] }),

  command("color", "color-q"),
  say("color-q", "Pick a color", {
    keyboardType: "inline",
    collectUserInput: true,
    inputVariable: "color",
    buttons: [
      { id: "red", text: "Red", action: "goto", target: "color-done" },
      { id: "blue", text: "Blue", action: "goto", target: "color-done", hideAfterClick: true },
    ],
  }),
  say("color-done", "You picked {color}"),

  contains("tt-order", "order", "extract"),
  node("extract", "set_variable", {
    assignments: [
      { variable: "code", value: "{message_text}", mode: "regex_extract", pattern: "#(\\d+)", regexGroup: "1" },
      { variable: "qty", value: "{message_text}", mode: "regex_extract" },
    ],
    regexPattern: "x(\\d+)",
    regexGroup: 1,
    regexDefault: "1",
    autoTransitionTo: "order-msg",
  }),
  say("order-msg", "Order {code}, qty {qty}"),

  contains("tt-cmp", "cmp ", "cmp-extract"),
  node("cmp-extract", "set_variable", {
    assignments: [{ variable: "num", value: "{message_text}", mode: "regex_extract", pattern: "cmp\\s*(.*)$", regexGroup: 1 }],
    autoTransitionTo: "cmp-cond",
  }),
  node("cmp-cond", "condition", {
    variable: "num",
    branches: [
      branch("empty", "", "empty"),
      branch("greater_than", "100", "big"),
      branch("less_than", "0", "negative"),
      branch("between", "10", "between", "20"),
      branch("not_equals", "5", "not-five"),
    ],
    defaultTargetId: "five",
  }),
  contains("tt-txt", "txt ", "txt-cond"),
  node("txt-cond", "condition", {
    variable: "{message_text}",
    branches: [
      branch("equals", "txt alpha", "equals"),
      branch("matches", "^txt re-\\w+$", "matches"),
      branch("contains", "\\d{3}", "digits"),
      branch("contains", "BETA", "contains"),
      branch("filled", "", "filled"),
    ],
  }),
  ...conditionResults.map((r) => say(r, `= ${r}`)),

  command("wait", "wait-msg"),
  say("wait-msg", "Waiting", { enableAutoTransition: true, autoTransitionTo: "pause" }),
  node("pause", "delay", { delaySeconds: 1, autoTransitionTo: "wait-done" }),
  say("wait-done", "Done waiting"),

  command("admin", "secret"),
  say("secret", "Secret for admins", { adminOnly: true }),

  command("profile", "profile"),
  say("profile", "Profile of {first_name}", {
    enableConditionalMessages: true,
    conditionalMessages: [
      { id: "c-none", condition: "user_data_not_exists", variableNames: ["nick"], messageText: "\n", keyboardType: "reply", buttons: [{ id: "set", text: "Set name", action: "goto", target: "ask-name" }], priority: 1 },
      { id: "c-nick", condition: "user_data_exists", variableName: "nick", messageText: "Profile: {nick}", keyboardType: "inline", buttons: [{ id: "edit", text: "Edit", action: "goto", target: "ask-name" }], priority: 5 },
    ],
  }),

  command("vip", "vip"),
  say("vip", "Regular", {
    enableConditionalMessages: true,
    conditionalMessages: [
      { id: "eq", condition: "user_data_equals", variableName: "nick", expectedValue: "Boss", messageText: "Welcome, boss" },
      { id: "has", condition: "user_data_contains", variableName: "nick", value: "admin", messageText: "Hi admin" },
    ],
  }),

  command("any", "in-any"),
  node("in-any", "input", { inputVariable: "anything", inputType: "any", inputTargetNodeId: "any-show" }),
  say("any-show", "Got {anything}"),

  command("tags", "in-tags"),
  node("in-tags", "input", { inputVariable: "taglist", appendVariable: true, inputTargetNodeId: "tags-show" }),
  say("tags-show", "Tags: {taglist}"),
);

/** The remaining docs/scenario.md promises (bot-details.test.ts). */
export const detailsScenario = doc(
  // A legacy start node without `command` answers /start and collects the answer itself.
  node("st", "start", {
    messageText: "Start {last_name}|{username}|{user_name}",
    formatMode: "none",
    keyboardType: "reply",
    collectUserInput: true,
    inputVariable: "choice",
    inputTargetNodeId: "typed",
    buttons: [
      { id: "go", text: "Go on", action: "goto", target: "went" },
      { id: "fin", text: "Finish", action: "complete", target: "finished" },
      { id: "loc", text: "Where am I", action: "location", target: "located" },
      { id: "help", text: "Help me", action: "command", target: "/helpme" },
    ],
  }),
  say("typed", "Typed {choice}"),
  say("went", "Went on ({choice}) via {button_text}"),
  say("finished", "Finished ({choice})"),
  say("located", "At {choice}"),
  command("helpme", "helpme-msg"),
  say("helpme-msg", "Help here"),

  node("tt-pic", "text_trigger", { textSynonyms: ["pic"], autoTransitionTo: "pic" }),
  node("pic", "photo", {
    imageUrl: "https://example.com/p.jpg",
    mediaCaption: "Pic",
    keyboardType: "inline",
    buttons: [{ id: "more", text: "More", action: "goto", target: "went" }],
  }),

  contains("tt-cond", "cond ", "cond"),
  node("cond", "condition", {
    variable: "{message_text}",
    branches: [
      branch("contains", "stop", ""),
      branch("matches", "^cond \\d{3}$", "three"),
      branch("contains", "\\d{2}x", "two-x"),
      branch("else", "", "cond-else"),
    ],
  }),
  say("three", "= three"),
  say("two-x", "= two-x"),
  say("cond-else", "= else"),

  node("tt-a", "text_trigger", { textSynonyms: ["set a"], autoTransitionTo: "set-a" }),
  node("set-a", "set_variable", { assignments: [{ variable: "a", value: "1" }], autoTransitionTo: "cm" }),
  node("tt-b", "text_trigger", { textSynonyms: ["set b"], autoTransitionTo: "set-b" }),
  node("set-b", "set_variable", { assignments: [{ variable: "b", value: "1" }], autoTransitionTo: "cm" }),
  node("tt-cm", "text_trigger", { textSynonyms: ["show"], autoTransitionTo: "cm" }),
  say("cm", "none", {
    enableConditionalMessages: true,
    conditionalMessages: [
      { id: "or", condition: "user_data_exists", variableNames: ["a", "b"], logicOperator: "OR", messageText: "one of them", priority: 1 },
      { id: "and", condition: "user_data_exists", variableNames: ["a", "b"], logicOperator: "AND", messageText: "both", priority: 2 },
    ],
  }),

  command("files", "ask-files"),
  say("ask-files", "Send a document or a video", {
    collectUserInput: true,
    enableDocumentInput: true,
    documentInputVariable: "doc",
    enableVideoInput: true,
    videoInputVariable: "clip",
    inputTargetNodeId: "show-files",
  }),
  say("show-files", "doc={doc} clip={clip}"),

  command("ask", "ask-q"),
  say("ask-q", "Question?", {
    keyboardType: "reply",
    buttons: [{ id: "skip", text: "Skip it", action: "goto", target: "skipped" }],
    enableAutoTransition: true,
    autoTransitionTo: "in-q",
  }),
  node("in-q", "input", { inputVariable: "ans", inputType: "text", inputTargetNodeId: "ans-done" }),
  say("ans-done", "Answer {ans}"),
  say("skipped", "Skipped [{ans}]"),

  command("snap", "in-photo"),
  node("in-photo", "input", { inputVariable: "snap", inputType: "photo", inputTargetNodeId: "snap-done" }),
  say("snap-done", "Snap {snap}"),
);
