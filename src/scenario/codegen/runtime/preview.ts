// Runtime source, preview part: only in programs built for the Studio's preview chat.
// (Text copied into generated bots; see types.ts for the rules.)
export const RUNTIME_PREVIEW = String.raw`
// ─── Preview hooks (this program runs in the Studio's preview) ─────────────────

// Every Bot API call made while a node runs names that node, so the preview chat can point at it.
bot.api.config.use((prev, method, payload, signal) => {
  const node = NODE_SCOPE.getStore();
  return node ? prev(method, { ...payload, botloom_node: node } as typeof payload, signal) : prev(method, payload, signal);
});

// Requests of the scenario reach their URLs for real, except the public Bot API host: in a
// preview that is the emulator.
const PUBLIC_API = "https://api.telegram.org/";
const realFetch = globalThis.fetch;
globalThis.fetch = Object.assign(
  (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(PUBLIC_API)) return realFetch(input, init);
    const local = API_ROOT + "/" + url.slice(PUBLIC_API.length);
    return realFetch(input instanceof Request ? new Request(local, input) : local, init);
  },
  realFetch,
);
`;
