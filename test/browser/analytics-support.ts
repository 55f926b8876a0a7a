// The analytics Chromium test and its screenshot script share this: a scenario with a menu of two
// buttons, and scripted traffic of a real bot on the fake messenger — four users come by deep links
// (or none), three press a button, one leaves at the menu — with the figures that traffic makes.
import type { Page } from "playwright-core";
import type { FakeUser } from "../support/fake-messenger";
import { node, scenarioOf, type AudienceEnv } from "./audience-support";

// laid out left to right, so the screenshots show the links between the nodes
const at = (n: ReturnType<typeof node>, x: number, y: number) => ({ ...n, position: { x, y } });

export const funnelScenario = scenarioOf(
  at(node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "menu" }), 0, 60),
  at(node("menu", "message", { messageText: "What would you like?", keyboardType: "inline", buttons: [{ id: "b1", text: "Buy", action: "goto", target: "thanks" }, { id: "b2", text: "Help", action: "goto", target: "help" }] }), 360, 40),
  at(node("thanks", "message", { messageText: "Thank you for the order!" }), 720, -60),
  at(node("help", "message", { messageText: "Write to @support." }), 720, 160),
);

export const people: FakeUser[] = [
  { id: 880001, first_name: "Ann", language_code: "en" },
  { id: 880002, first_name: "Boris", language_code: "ru" },
  { id: 880003, first_name: "Carl", language_code: "en" },
  { id: 880004, first_name: "Dina", language_code: "en" },
] as FakeUser[];

/** Who starts how, and which button each presses (null: leaves at the menu). */
export const SCRIPT: { start: string; press: "Buy" | "Help" | null }[] = [
  { start: "/start ads", press: "Buy" },
  { start: "/start ads", press: "Help" },
  { start: "/start", press: null },
  // a deep link may begin with "-": a spreadsheet would read that cell as a formula
  { start: "/start -promo", press: "Buy" },
];

export async function playScript(env: AudienceEnv) {
  for (const [i, step] of SCRIPT.entries()) {
    const u = people[i]!;
    env.fake.sendText(env.botToken, u, step.start);
    const [menu] = await env.fake.waitForSent(env.botToken, u.id, 1, 20_000);
    if (!step.press) continue;
    const kb = (menu!.params.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard.flat();
    env.fake.pressButton(env.botToken, u, kb.find((b) => b.text === step.press)!.callback_data, menu!.messageId);
    await env.fake.waitForSent(env.botToken, u.id, 1, 20_000);
  }
}

/** The funnel the script makes (the command trigger counts as reached when it fires). */
export const expected = {
  nodes: { "cmd-start": 4, menu: 4, thanks: 2, help: 1 } as Record<string, number>,
  edges: { "cmd-start>menu": 4, "menu>thanks": 2, "menu>help": 1 } as Record<string, number>,
};

/**
 * Empty answers of the two analytics routes served to the page in place of the server's (a bot
 * that nobody used yet, for the "no data yet" states), in the contract's shape.
 */
export async function serveEmptyFigures(page: Page) {
  const range = { from: "2026-01-01", to: "2026-01-30", clamped: false };
  const analytics = { series: [], totals: { users: 0, activeUsers: 0, newUsers: 0, messagesIn: 0, messagesOut: 0, blocked: 0 }, sources: [], languages: [], commands: [], buttons: [], range: { ...range, bucket: "day" } };
  const nodes = { items: [], edges: [], range };
  await page.route(/\/api\/bot\/tokens\/\d+\/analytics(\/nodes)?\?/, (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(new URL(route.request().url()).pathname.endsWith("/nodes") ? nodes : analytics) }),
  );
}
