// The drawing walk of issue 27: from an empty project, with mouse and keyboard only, a newcomer
// draws "/start → a message with two buttons → one answers, the other asks the user's name and
// greets them by it" and saves. Every user action (click, drag, text entry, key press) goes
// through `Actions`, so the count is the real cost of drawing this bot in today's editor. Shared
// by test/browser/editor-walk.test.ts and bench/editor.ts.
import type { Locator, Page } from "playwright-core";

export const WALK = {
  welcome: "Hi {first_name}! What would you like?",
  about: "About us",
  aboutAnswer: "We build bots.",
  name: "Your name",
  ask: "What is your name?",
  variable: "name",
  greeting: "Nice to meet you, {name}!",
} as const;

/** Counts what the user does; `log` names each action for the report. */
export class Actions {
  log: string[] = [];
  constructor(readonly page: Page) {}
  get count() {
    return this.log.length;
  }
  async click(what: string, l: Locator) {
    this.log.push(`click ${what}`);
    await l.click();
  }
  async fill(what: string, l: Locator, text: string) {
    this.log.push(`type ${what}`);
    await l.fill(text);
  }
  async select(what: string, l: Locator, value: string) {
    this.log.push(`choose ${what}`);
    await l.selectOption(value);
  }
  async check(what: string, l: Locator) {
    this.log.push(`tick ${what}`);
    await l.check();
  }
  async press(key: string) {
    this.log.push(`key ${key}`);
    await this.page.keyboard.press(key);
  }
}

const ids = (page: Page) => page.locator(".react-flow__node-scenario .ed-node").evaluateAll((els) => els.map((e) => e.getAttribute("data-node-id")!));
const node = (page: Page, id: string) => page.locator(`.ed-node[data-node-id="${id}"]`);

/** The node a step added: the one id that was not there before. */
async function added(page: Page, before: string[]): Promise<string> {
  await page.waitForFunction((n) => document.querySelectorAll(".react-flow__node-scenario .ed-node").length > n, before.length);
  return (await ids(page)).find((id) => !before.includes(id))!;
}

/** "+" on a slot of a node, then the kind in the picker (whatever form the picker takes). */
async function quickAdd(a: Actions, from: string, slot: RegExp, kind: string) {
  const page = a.page;
  const before = await ids(page);
  await a.click(`+ on ${slot.source}`, node(page, from).getByRole("button", { name: slot }).first());
  const item = page.getByRole("menuitem", { name: kind, exact: true }).or(page.getByRole("option", { name: kind, exact: true })).first();
  await a.click(kind, item);
  return added(page, before);
}

export interface Drawn {
  actions: number;
  log: string[];
  trigger: string;
  menu: string;
  about: string;
  ask: string;
  greet: string;
}

/** Draws the bot in the open, empty editor and saves it. */
export async function drawWalk(page: Page): Promise<Drawn> {
  const a = new Actions(page);
  const props = page.getByRole("complementary", { name: "Properties" });
  const text = () => props.getByLabel("Text", { exact: true });

  // /start: the command node starts as /start
  const none: string[] = [];
  await a.click("palette: Command", page.locator('.ed-palette-item[data-type="command_trigger"]'));
  const trigger = await added(page, none);

  // the menu: a message with two buttons
  const menu = await quickAdd(a, trigger, /add next from/, "Message");
  await a.fill("menu text", text(), WALK.welcome);
  await a.click("Add button", props.getByRole("button", { name: "Add button" }));
  await a.click("Add button", props.getByRole("button", { name: "Add button" }));
  await a.fill("button 1", props.getByLabel("Button text").nth(0), WALK.about);
  await a.fill("button 2", props.getByLabel("Button text").nth(1), WALK.name);
  const keyboard = props.getByLabel("Keyboard", { exact: true });
  if ((await keyboard.count()) > 0 && (await keyboard.inputValue()) === "none") await a.select("inline keyboard", keyboard, "inline");

  // one button answers
  const about = await quickAdd(a, menu, new RegExp(`add next from ${WALK.about}`), "Message");
  await a.fill("answer text", text(), WALK.aboutAnswer);

  // the other asks the name (a message that waits for the answer) ...
  const ask = await quickAdd(a, menu, new RegExp(`add next from ${WALK.name}`), "Message");
  await a.fill("question text", text(), WALK.ask);
  await a.check("wait for an answer", props.getByLabel("Wait for an answer", { exact: true }));
  await a.fill("variable", props.getByLabel("Save answer to variable", { exact: true }), WALK.variable);

  // ... and greets by it
  const greet = await quickAdd(a, ask, /add next from/, "Message");
  await a.fill("greeting text", text(), WALK.greeting);

  await a.press("Control+s");
  await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
  return { actions: a.count, log: a.log, trigger, menu, about, ask, greet };
}
