// Runtime source, preview part: only in programs built for the Studio's preview chat.
// (Part of every generated bot; see types.ts.)
// Requests of http_request nodes already send the public Bot API host to API_ROOT (runtime/http),
// which in a preview is the emulator; everything else they call is really called.
import { NODE_SCOPE } from "./flow";
import { bot } from "./router";

// ─── Preview hooks (this program runs in the Studio's preview) ─────────────────

// Every Bot API call made while a node runs names that node, so the preview chat can point at it.
bot.api.config.use((prev, method, payload, signal) => {
  const node = NODE_SCOPE.getStore();
  return node ? prev(method, { ...payload, botloom_node: node } as typeof payload, signal) : prev(method, payload, signal);
});
