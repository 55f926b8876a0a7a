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
  { start: "/start blog", press: "Buy" },
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

/** The figures the script makes, as the contract's answers (docs/analytics.md). */
export const expected = {
  nodes: { "cmd-start": 4, menu: 4, thanks: 2, help: 1 } as Record<string, number>,
  edges: { "cmd-start>menu": 4, "menu>thanks": 2, "menu>help": 1 } as Record<string, number>,
};

/**
 * Answers for the two analytics routes in the contract's shape, served to the page in place of the
 * server's: the server's routes are another branch's work (issue 26, server half) — TODO drop this
 * once they are merged and read the real counts.
 */
export async function serveFigures(page: Page, opts: { empty?: boolean } = {}) {
  const today = new Date().toISOString().slice(0, 10);
  const analytics = opts.empty
    ? { series: [], totals: { users: 0, activeUsers: 0, newUsers: 0, messagesIn: 0, messagesOut: 0, blocked: 0 }, sources: [], languages: [], commands: [], buttons: [] }
    : {
        series: [{ at: today, newUsers: 4, activeUsers: 4, messagesIn: 7, messagesOut: 7, blocked: 0 }],
        totals: { users: 4, activeUsers: 4, newUsers: 4, messagesIn: 7, messagesOut: 7, blocked: 0 },
        sources: [{ source: "ads", users: 2 }, { source: "blog", users: 1 }, { source: "=cmd|' /C calc'!A0", users: 1 }],
        languages: [{ language: "en", users: 3 }, { language: "ru", users: 1 }],
        commands: [{ command: "/start", count: 4 }],
        buttons: [{ text: "Buy", nodeId: "menu", count: 2 }, { text: "Help", nodeId: "menu", count: 1 }],
      };
  const nodes = opts.empty
    ? { items: [], edges: [] }
    : {
        items: Object.entries(expected.nodes).map(([nodeId, users]) => ({ nodeId, sheetId: "s1", users, visits: users })),
        edges: Object.entries(expected.edges).map(([k, users]) => ({ from: k.split(">")[0]!, to: k.split(">")[1]!, users })),
      };
  await page.route(/\/api\/bot\/tokens\/\d+\/analytics(\/nodes)?\?/, (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(new URL(route.request().url()).pathname.endsWith("/nodes") ? nodes : analytics) }),
  );
}
