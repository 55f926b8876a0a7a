// A Studio with a real bot for the audience tests (Dialogs, Users) and their screenshot script:
// the fake messenger, the app on a loopback port, a logged-in owner, a project with the given
// scenario and a started bot; browsers that carry the owner's cookie; one stop for all of it.
import { createApp } from "../../src/app";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { launchBrowser, type Browser } from "../support/browser";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { freePort } from "../support/process";
import type { Page } from "playwright-core";

export interface AudienceEnv {
  fake: FakeMessenger;
  t: TestApp;
  base: string;
  cookie: string;
  projectId: number;
  tokenId: number;
  botToken: string;
  /** a Chromium logged in as the owner */
  browser(opts?: Parameters<typeof launchBrowser>[0]): Promise<Browser>;
  stop(): Promise<void>;
}

export async function startAudience(opts: { project: string; bot: string; scenario: unknown }): Promise<AudienceEnv> {
  const fake = await startFakeMessenger();
  const t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url } });
  await setUp(t);
  const port = await freePort();
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${port}`;
  t.ctx.state.localUrl = base;
  const cookie = await loginAs(t, 4242, { firstName: "Ada", lastName: "Lovelace", username: "ada" });
  const projectId = (await t.call("POST", "/api/projects", { cookie, json: { name: opts.project } })).body.id as number;
  await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data: opts.scenario, commitMessage: "Scenario" } });
  const botToken = fake.addBot({ username: opts.bot }).token;
  const tokenId = (await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: botToken } })).body.id as number;
  const started = await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie });
  if (started.status !== 200) throw new Error(`the bot did not start: ${started.status} ${JSON.stringify(started.body)}`);
  const browsers: Browser[] = [];
  return {
    fake, t, base, cookie, projectId, tokenId, botToken,
    async browser(o) {
      const b = await launchBrowser(o);
      browsers.push(b);
      const [name, value] = cookie.split("=");
      await b.context.addCookies([{ name: name!, value: value!, url: base }]);
      return b;
    },
    async stop() {
      for (const b of browsers) await b.close();
      await t.ctx.bots.shutdown();
      app.server?.stop(true);
      await fake.stop();
      t.cleanup();
    },
  };
}

/** A full-page screenshot for review by eye; the line naming it says when the page runs off its width. */
export async function shoot(page: Page, file: string): Promise<string> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.screenshot({ path: file, fullPage: true });
  return `${file}${overflow > 0 ? `  HORIZONTAL OVERFLOW ${overflow}px` : ""}`;
}

/** A scenario node at a place of its own on the canvas. */
export const node = (id: string, type: string, data: Record<string, unknown>, y = 0) => ({ id, type, position: { x: 0, y }, data });
/** A one-sheet scenario document. */
export const scenarioOf = (...nodes: ReturnType<typeof node>[]) => ({ sheets: [{ id: "s1", name: "Main", nodes, edges: [] }] });
/** /start's welcome with two buttons, and the nodes they go to: the screenshot scripts' pizza place. */
export const pizzaWelcome = [
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "welcome" }, 0),
  node("welcome", "message", { messageText: "Welcome to the pizza place! What would you like?", keyboardType: "inline", buttons: [{ id: "b1", text: "🍕 Menu", action: "goto", target: "menu" }, { id: "b2", text: "📞 Call me", action: "goto", target: "call" }] }, 150),
  node("menu", "message", { messageText: "Margherita — 9 €\nPepperoni — 11 €\nFour cheeses — 12 €" }, 300),
  node("call", "message", { messageText: "An operator will call you within 10 minutes." }, 450),
];
