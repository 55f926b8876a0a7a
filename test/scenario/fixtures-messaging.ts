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
);
