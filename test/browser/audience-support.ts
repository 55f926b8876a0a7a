// A Studio with a real bot for the audience tests (Dialogs, Users) and their screenshot script:
// the fake messenger, the app on a loopback port, a logged-in owner, a project with the given
// scenario and a started bot; browsers that carry the owner's cookie; one stop for all of it.
import { createApp } from "../../src/app";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { launchBrowser, type Browser } from "../support/browser";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";
import { freePort } from "../support/process";

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

/** A scenario node at a place of its own on the canvas. */
export const node = (id: string, type: string, data: Record<string, unknown>, y = 0) => ({ id, type, position: { x: 0, y }, data });
/** A one-sheet scenario document. */
export const scenarioOf = (...nodes: ReturnType<typeof node>[]) => ({ sheets: [{ id: "s1", name: "Main", nodes, edges: [] }] });
