// What a webhook_trigger makes of a request (src/scenario/hook-request.ts, docs/hooks.md "The node's
// fields"), and what the compiler makes of the node: a row the bot finds by the node's id.
import { describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { HOOK_DEFAULTS, HOOK_MAX_VALUE_CHARS, HOOK_MAX_VARIABLES, hookSettingsOf, readHookBody, renderHookAnswer } from "../../src/scenario/hook-request";
import { hookScenario } from "./scenario";

describe("settings", () => {
  test("defaults, and out-of-range values fall back to them", () => {
    expect(hookSettingsOf({})).toEqual({ userField: "user_id", variables: [], prefix: "", status: 200, body: HOOK_DEFAULTS.body, perMinute: 60, tokenId: undefined });
    const odd = hookSettingsOf({ answerStatus: 500, rateLimitPerMinute: -3, variablePrefix: "1bad", tokenId: "x", userField: "  " });
    expect(odd).toMatchObject({ status: 200, perMinute: 60, prefix: "", tokenId: undefined, userField: "user_id" });
    expect(hookSettingsOf({ rateLimitPerMinute: 10 ** 9 }).perMinute).toBe(6000);
    expect(hookSettingsOf({ variables: "a, b.c,\n d", answerStatus: "204", tokenId: "7" })).toMatchObject({ variables: ["a", "b.c", "d"], status: 204, tokenId: 7 });
  });
});

describe("the body", () => {
  test("the user from a dotted path; every top-level scalar becomes a variable unless fields are listed", () => {
    const s = hookSettingsOf({ userField: "who.tg" });
    expect(readHookBody(s, { who: { tg: 42 }, order: "A", n: 2, ok: false, list: [1], obj: { x: 1 }, nothing: null })).toEqual({ chatId: "42", vars: { order: "A", n: 2, ok: false } });
    const listed = hookSettingsOf({ variables: ["order", "who.tg", "missing"], variablePrefix: "h_" });
    expect(readHookBody(listed, { user_id: "-100123", order: "A", other: 1, who: { tg: 5 } })).toEqual({ chatId: "-100123", vars: { h_order: "A", h_who_tg: 5 } });
  });

  test("a user field that is missing, not an integer, zero or too long is a problem naming the field", () => {
    const s = hookSettingsOf({});
    for (const user_id of [undefined, "abc", "1.5", 1.5, 0, "0", "1".repeat(21), {}, true]) {
      const r = readHookBody(s, { user_id });
      expect("problem" in r && r.problem).toContain('"user_id"');
    }
  });

  test("an id past JavaScript's exact integers is a problem: the bot would run the flow in the chat it rounds to", () => {
    const s = hookSettingsOf({});
    for (const user_id of ["9007199254740993", "-9007199254740993", "12345678901234567890"]) {
      const r = readHookBody(s, { user_id });
      expect("problem" in r && r.problem).toContain('"user_id"');
    }
    expect(readHookBody(s, { user_id: "9007199254740991" })).toMatchObject({ chatId: "9007199254740991" });
    expect(readHookBody(s, { user_id: "-1001234567890" })).toMatchObject({ chatId: "-1001234567890" });
  });

  test("names that are no variable names are skipped; the count and the length are bounded; inherited keys are not read", () => {
    const body: Record<string, unknown> = { user_id: 1, "bad name": 1, "1x": 2, long: "y".repeat(HOOK_MAX_VALUE_CHARS + 10) };
    for (let i = 0; i < HOOK_MAX_VARIABLES * 2; i++) body[`v${i}`] = i;
    const r = readHookBody(hookSettingsOf({}), body);
    if ("problem" in r) throw new Error(r.problem);
    expect(Object.keys(r.vars).length).toBe(HOOK_MAX_VARIABLES);
    expect(r.vars["bad name"]).toBeUndefined();
    expect((r.vars.long as string).length).toBe(HOOK_MAX_VALUE_CHARS);
    expect(readHookBody(hookSettingsOf({ userField: "constructor.name" }), { user_id: 1 })).toHaveProperty("problem");
  });

  test("the answer fills {name} from the request's variables and leaves unknown names as written", () => {
    expect(renderHookAnswer('{"id":"{order}","x":"{nope}"}', { order: "A-1" })).toBe('{"id":"A-1","x":"{nope}"}');
  });
});

test("the compiler makes the node a hook row of the message triggers, found by its id", () => {
  const bot = generateBot(hookScenario, { projectName: "Hooks", userDatabaseEnabled: true });
  expect(bot.code).toContain('on: "hook"');
  expect(bot.code).toContain('node: "paid"');
  expect(bot.warnings.filter((w) => w.nodeId === "paid")).toEqual([]);
});
