// The bot runtime's template renderer (runtime/values.ts `render`, with runtime/expr.ts for
// {=expr}), run by the server for campaign texts: a recipient's `{first_name}` and saved variables
// read exactly as the bot would render them (docs/campaigns.md#the-message); and its `cut`, which
// the generator cuts a menu command's description with, so a text cut to a Telegram limit ends the
// same way, never in half an emoji, whoever cuts it (docs/runtime.md#from-modules-to-the-text-a-bot-loads).
// The server evaluates the very text bots carry (as lib/shared-runtime.ts does for the egress
// policy); what the texts take from other runtime parts is given here: no environment, no secrets,
// no scenario tables.
// jsep's CommonJS build: its ES build is embedded as text for bots (bots/bot-modules.ts), and the
// compiled executable cannot hold one file both as text and as a module (docs/runtime.md)
// @ts-expect-error TS7016: the CommonJS build has no declaration file of its own (its types are jsep's)
import jsepBuild from "../../node_modules/jsep/dist/cjs/jsep.cjs.js";
import type Jsep from "jsep";
import type * as Values from "../scenario/codegen/runtime/values";
import type { Turn } from "../scenario/codegen/runtime/types";
import { RUNTIME_RENDER } from "../scenario/codegen/runtime-text";

const parseJson = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const PARAMS = ["jsep", "parseJson", "tableRows", "SCENARIO_ENV", "SECRET_ENV", "secretValue", "env"] as const;
const body = `let secretReads = null;\n${new Bun.Transpiler({ loader: "ts" }).transformSync(RUNTIME_RENDER)}\nreturn { render, cut };`;
const jsep = jsepBuild as typeof Jsep;
const shared = new Function(...PARAMS, body)(jsep, parseJson, () => undefined, new Set(), new Set(), () => "", {}) as Pick<typeof Values, "render" | "cut">;

/** The first `max` UTF-16 units of a text, never half of an emoji (runtime/values.ts `cut`). */
export const { cut } = shared;

export interface RenderUser {
  id: number;
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
}

/** A text with this user's variables (saved ones first, then the built-ins such as {first_name}). */
export function renderFor(template: string, user: RenderUser, vars: Record<string, unknown>, format: "none" | "html" | "markdown" = "none"): string {
  const from = { id: user.id, is_bot: false, first_name: user.firstName ?? "", last_name: user.lastName ?? undefined, username: user.username ?? undefined };
  const turn = { chatId: user.id, from, state: { vars }, event: {}, steps: 0, isAdmin: false } as unknown as Turn;
  return shared.render(turn, template, format === "none" ? "text" : format);
}
