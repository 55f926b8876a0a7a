// The Dialogs tab in Chromium with a real bot on the fake messenger (docs/dialogs.md): a user
// writes and presses a button, the bot answers, and both sides appear live in the open tab; the
// operator replies with a URL and a "go to node" button and the fake user receives it; edit and
// delete reach the chat; takeover silences the scenario for that chat only and "resume at" runs the
// node; a bot message's node opens in the editor; an operator's picture shows in place (served by the
// platform through the token); hostile names and texts stay text; an invoice the bot sent is its
// message in the chat; on a phone the list and the chat are two screens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haveChromium, placeholderFits, warnIfNoChromium, type Browser } from "../support/browser";
import type { FakeUser, RecordedCall } from "../support/fake-messenger";
import { node, scenarioOf, startAudience, type AudienceEnv } from "./audience-support";

warnIfNoChromium("dialogs tab");

const scenario = scenarioOf(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", { messageText: "Hi! Press the button.", keyboardType: "inline", buttons: [{ id: "b1", text: "Go", action: "goto", target: "done" }] }, 150),
  node("done", "message", { messageText: "Done here." }, 300),
  node("cmd-buy", "command_trigger", { command: "/buy", autoTransitionTo: "buy" }, 450),
  node("buy", "invoice", { title: "Gold bar", description: "One bar of gold", amount: 5, payload: "gold" }, 600),
);

const inlineKeyboard = (c: RecordedCall) => (c.params.reply_markup as { inline_keyboard?: { text: string; url?: string; callback_data?: string }[][] } | undefined)?.inline_keyboard;

describe.skipIf(!haveChromium)("Dialogs tab in Chromium", () => {
  let env: AudienceEnv;
  let b: Browser;
  const eve: FakeUser = { id: 880001, first_name: "Eve", username: "eve_writes" } as FakeUser;
  const other: FakeUser = { id: 880002, first_name: "Oscar" } as FakeUser;

  const conversation = () => b.page.getByTestId("conversation");
  const messages = () => b.page.getByTestId("dlg-messages");

  beforeAll(async () => {
    env = await startAudience({ project: "Support desk", bot: "desk_bot", scenario });
    b = await env.browser();
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  test("a user writes and presses a button, the bot answers: both sides appear live, with the node that sent each", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/dialogs`);
    await page.getByText("No conversations yet", { exact: false }).waitFor();
    env.fake.sendText(env.botToken, eve, "/start ref_42");
    const [hello] = await env.fake.waitForSent(env.botToken, eve.id, 1, 20_000);
    // the chat appears in the open list without a reload, with its unread badge
    const row = page.getByTestId("chat-list").locator(`[data-chat="${eve.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain("Eve");
    await row.getByTestId("unread").waitFor();
    await row.click();
    await page.waitForURL(new RegExp(`/projects/${env.projectId}/dialogs\\?.*chat=${eve.id}`));
    await messages().getByText("/start ref_42").waitFor();
    await messages().getByText("Hi! Press the button.").waitFor();
    const bot = messages().locator('[data-direction="out"]', { hasText: "Hi! Press the button." });
    expect(await bot.getByText("Go", { exact: true }).count()).toBe(1);
    expect(await bot.getByRole("link", { name: "Sent by node hello" }).count()).toBe(1);
    // opening the chat marks it read
    await row.getByTestId("unread").waitFor({ state: "detached" });

    const data = inlineKeyboard(hello!)![0]![0]!.callback_data!;
    env.fake.pressButton(env.botToken, eve, data, hello!.messageId);
    await env.fake.waitForSent(env.botToken, eve.id, 1, 20_000);
    await messages().getByText("Pressed “Go”").waitFor({ timeout: 10_000 });
    await messages().getByText("Done here.").waitFor();
    // the newest message stays in sight without a reload
    expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
  }, 60_000);

  test("the operator replies with formatting, a URL button and a go-to-node button: the user receives them", async () => {
    const { page } = b;
    const box = conversation();
    await box.getByLabel("Message", { exact: true }).fill("Hello from a person");
    await box.getByLabel("Message", { exact: true }).selectText();
    await box.getByRole("button", { name: "Bold" }).click();
    expect(await box.getByLabel("Text format").inputValue()).toBe("html");
    await box.getByRole("button", { name: "Media and buttons" }).click();
    await box.getByRole("button", { name: "Add a button" }).click();
    await box.getByLabel("Button text").fill("Docs");
    await box.getByLabel("Button URL").fill("https://example.com/help");
    await box.getByRole("button", { name: "Add a button" }).click();
    const second = box.getByTestId("draft-button").nth(1);
    await second.getByLabel("Button text").fill("Again");
    await second.getByLabel("Button action").selectOption("goto");
    await second.getByLabel("Node to run").selectOption("done");
    await box.getByRole("button", { name: "Send", exact: true }).click();
    const [sent] = await env.fake.waitForSent(env.botToken, eve.id, 1, 15_000);
    expect(sent!.params.text).toBe("<b>Hello from a person</b>");
    expect(String(sent!.params.parse_mode).toLowerCase()).toBe("html");
    const kb = inlineKeyboard(sent!)!;
    expect(kb.flat().map((x) => x.text)).toEqual(["Docs", "Again"]);
    expect(kb.flat()[0]!.url).toBe("https://example.com/help");
    const mine = messages().locator('[data-sent-by="operator"]').last();
    await mine.getByText("Hello from a person", { exact: false }).waitFor();
    expect(await box.getByLabel("Message", { exact: true }).inputValue()).toBe("");
    // the chat list's last line is the text the user saw, not its tags
    const row = page.getByTestId("chat-list").locator(`[data-chat="${eve.id}"]`);
    await row.getByText("Hello from a person", { exact: true }).waitFor();
    expect(await row.textContent()).not.toContain("<b>");
    // the user presses "Again": the scenario runs the node the operator chose
    env.fake.pressButton(env.botToken, eve, kb.flat()[1]!.callback_data!, sent!.messageId);
    const [again] = await env.fake.waitForSent(env.botToken, eve.id, 1, 15_000);
    expect(again!.params.text).toBe("Done here.");
    // bad input is refused in words, not sent
    await box.getByLabel("Message", { exact: true }).fill("x".repeat(4097));
    expect(await box.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    await box.getByLabel("Message", { exact: true }).fill("with a bad button");
    await box.getByRole("button", { name: "Add a button" }).click();
    await box.getByLabel("Button text").fill("Evil");
    await box.getByLabel("Button URL").fill("javascript:alert(1)");
    await box.getByRole("button", { name: "Send", exact: true }).click();
    const alert = box.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/^\s*\{/);
    await box.getByRole("button", { name: /^Remove button/ }).click();
    await box.getByLabel("Message", { exact: true }).fill("");
    await box.getByRole("button", { name: "Media and buttons" }).click();
    expect(b.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  }, 60_000);

  test("an operator's formatted reply shows as formatting, not as tags", async () => {
    const mine = messages().locator('[data-sent-by="operator"]').first();
    expect(await mine.locator("strong", { hasText: "Hello from a person" }).count()).toBe(1);
    expect(await mine.getByText("<b>", { exact: false }).count()).toBe(0);
  }, 10_000);

  test("edit and delete of a sent message reach the chat", async () => {
    const { page } = b;
    const id = await messages().locator('[data-sent-by="operator"]', { hasText: "Hello from a person" }).getAttribute("data-id");
    const mine = messages().locator(`[data-id="${id}"]`);
    await mine.getByRole("button", { name: "Edit" }).click();
    await mine.getByLabel("New text").fill("Hello, edited");
    await mine.getByRole("button", { name: "Save" }).click();
    const edit = await env.fake.waitForCall(env.botToken, (c) => c.method.startsWith("editMessage") && c.params.text === "Hello, edited", 10_000);
    expect(String(edit.params.chat_id)).toBe(String(eve.id));
    const edited = mine;
    await edited.getByText("Hello, edited").waitFor();
    await edited.getByText("edited", { exact: true }).waitFor();
    await edited.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this message?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    const gone = await env.fake.waitForCall(env.botToken, (c) => c.method === "deleteMessage", 10_000);
    expect(gone.params.message_id).toBe(edit.params.message_id);
    await edited.getByText("deleted", { exact: true }).waitFor();
    expect(await edited.getByRole("button", { name: "Edit" }).count()).toBe(0);
    // the edit and the deletion were the chat's two sends since the last wait
    expect((await env.fake.waitForSent(env.botToken, eve.id, 2, 5_000)).map((c) => c.method)).toEqual([edit.method, "deleteMessage"]);
  }, 30_000);

  test("the operator sends a picture from the project's media with a caption", async () => {
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (c) => c.charCodeAt(0));
    const form = new FormData();
    form.append("file", new File([png], "menu.png", { type: "image/png" }));
    expect((await env.t.call("POST", `/api/projects/${env.projectId}/media`, { cookie: env.cookie, body: form })).status).toBe(201);
    const box = conversation();
    await box.getByRole("button", { name: "Media and buttons" }).click();
    await box.getByLabel("Media from the project").selectOption({ label: "menu.png" });
    await box.getByLabel("Message", { exact: true }).fill("Our menu");
    await box.getByRole("button", { name: "Send", exact: true }).click();
    const [photo] = await env.fake.waitForSent(env.botToken, eve.id, 1, 15_000);
    expect(photo!.method).toBe("sendPhoto");
    expect(photo!.params.caption).toBe("Our menu");
    const sent = messages().locator('[data-sent-by="operator"]', { hasText: "Our menu" });
    // the picture itself, from this server (fetched through the token), not a messenger URL
    const img = sent.getByRole("img", { name: "Photo" });
    await img.waitFor();
    await b.page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
    expect(await img.getAttribute("src")).toMatch(new RegExp(`^/api/bot/tokens/${env.tokenId}/chats/${eve.id}/messages/\\d+/media$`));
    await box.getByRole("button", { name: "Media and buttons" }).click();
  }, 30_000);

  test("takeover silences the scenario for that chat only; handing back with “resume at” runs the node", async () => {
    const { page } = b;
    const box = conversation();
    await box.getByRole("button", { name: "Take over" }).click();
    await box.getByText("You are answering this chat", { exact: false }).waitFor();
    const row = page.getByTestId("chat-list").locator(`[data-chat="${eve.id}"]`);
    await row.getByText("operator", { exact: true }).waitFor();
    env.fake.sendText(env.botToken, eve, "/start");
    await messages().locator('[data-direction="in"]', { hasText: /^\/start/ }).last().waitFor();
    await messages().getByText("/start", { exact: true }).waitFor({ timeout: 10_000 });
    // updates run in order: once Oscar's /start is answered, Eve's was handled (and not answered)
    env.fake.sendText(env.botToken, other, "/start");
    await env.fake.waitForSent(env.botToken, other.id, 1, 15_000);
    expect(env.fake.sent(env.botToken, eve.id).filter((c) => c.params.text === "Hi! Press the button.").length).toBe(1);
    // the filter shows the held chat only
    await page.getByRole("button", { name: "Taken over" }).click();
    await page.getByTestId("chat-list").locator(`[data-chat="${other.id}"]`).waitFor({ state: "detached" });
    expect(await row.count()).toBe(1);
    await page.getByRole("button", { name: "All", exact: true }).click();
    await box.getByLabel("Then run").selectOption("done");
    await box.getByRole("button", { name: "Hand back to the bot" }).click();
    const [resumed] = await env.fake.waitForSent(env.botToken, eve.id, 1, 15_000);
    expect(resumed!.params.text).toBe("Done here.");
    await box.getByText("The scenario answers this chat.").waitFor();
    env.fake.sendText(env.botToken, eve, "/start");
    const [answered] = await env.fake.waitForSent(env.botToken, eve.id, 1, 15_000);
    expect(answered!.params.text).toBe("Hi! Press the button.");
  }, 60_000);

  test("the chat list: search by name and by exact id, the kind filter", async () => {
    const { page } = b;
    const list = page.getByTestId("chat-list");
    expect(await placeholderFits(page.getByLabel("Search: name, @username or id"))).toBe(true);
    await page.getByLabel("Search: name, @username or id").fill("Oscar");
    await list.locator(`[data-chat="${eve.id}"]`).waitFor({ state: "detached" });
    expect(await list.locator("[data-chat]").evaluateAll((els) => els.map((e) => e.getAttribute("data-chat")))).toEqual([String(other.id)]);
    await page.getByLabel("Search: name, @username or id").fill(String(eve.id));
    await list.locator(`[data-chat="${eve.id}"]`).waitFor();
    expect(await list.locator("[data-chat]").count()).toBe(1);
    await page.getByLabel("Search: name, @username or id").fill("");
    await page.getByLabel("Chat kind").selectOption("group");
    await page.getByText("No chat matches.").waitFor();
    await page.getByLabel("Chat kind").selectOption("private");
    await list.locator(`[data-chat="${other.id}"]`).waitFor();
    // reached by the keyboard, a chat's focus ring shows whole inside the scrolling list
    await page.getByLabel("Search: name, @username or id").focus();
    for (let i = 0; i < 12 && !(await page.evaluate(() => document.activeElement?.hasAttribute("data-chat"))); i++) await page.keyboard.press("Tab");
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const s = getComputedStyle(el);
      const out = parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth);
      const r = el.getBoundingClientRect();
      const box = el.closest("[data-testid=chat-list]")!.getBoundingClientRect();
      return { chat: el.hasAttribute("data-chat"), visible: el.matches(":focus-visible") && s.outlineStyle !== "none", inside: r.left - out >= box.left && r.right + out <= box.right };
    });
    expect(ring).toEqual({ chat: true, visible: true, inside: true });
    await page.getByLabel("Chat kind").selectOption("");
  }, 30_000);

  test("a bot message's node opens in the editor", async () => {
    const { page } = b;
    await messages().getByRole("link", { name: "Sent by node hello" }).first().click();
    await page.waitForURL(new RegExp(`/projects/${env.projectId}/scenario\\?node=hello$`));
    await page.locator('.react-flow__node.selected[data-id="hello"]').waitFor({ timeout: 15_000 });
  }, 30_000);

  test("hostile names and messages stay text (script and img onerror payloads)", async () => {
    const { page } = b;
    const evil: FakeUser = { id: 880066, first_name: `<img src=x onerror="window.__pwned=1">`, username: "evil" } as FakeUser;
    env.fake.sendText(env.botToken, evil, `<script>window.__pwned=2</script><img src=x onerror="window.__pwned=3"><b>not bold</b>`);
    await page.goto(`${env.base}/projects/${env.projectId}/dialogs?token=${env.tokenId}&chat=${evil.id}`);
    const row = page.getByTestId("chat-list").locator(`[data-chat="${evil.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain(`<img src=x onerror="window.__pwned=1">`);
    await messages().getByText(`<script>window.__pwned=2</script>`, { exact: false }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("[data-testid=dialogs] img, [data-testid=dialogs] script, [data-testid=dialogs] b").count()).toBe(0);
    expect(await conversation().getByRole("heading").first().textContent()).toContain("<img");
    await page.goto(`${env.base}/projects/${env.projectId}/users?token=${env.tokenId}&user=${evil.id}`);
    await page.getByTestId("user-card").getByRole("heading", { name: /<img src=x/ }).waitFor();
    expect(await page.locator("[data-testid=user-card] img:not(.avatar), [data-testid=user-list] img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  }, 30_000);

  test("a long chat opens at its newest messages and pages back on request", async () => {
    const { page } = b;
    const paula = { id: 880077, first_name: "Paula" } as FakeUser;
    for (let i = 1; i <= 60; i++) env.fake.sendText(env.botToken, paula, `line ${i}`);
    await page.goto(`${env.base}/projects/${env.projectId}/dialogs?token=${env.tokenId}&chat=${paula.id}`);
    // the records arrive in batches: the chat shows its newest line once the last batch is in
    await page.getByTestId("chat-list").locator(`[data-chat="${paula.id}"]`).getByText("line 60").waitFor({ timeout: 15_000 });
    await page.reload();
    await messages().getByText("line 60", { exact: true }).waitFor();
    expect(await messages().getByText("line 1", { exact: true }).count()).toBe(0);
    await messages().getByRole("button", { name: "Load older messages" }).click();
    await messages().getByText("line 1", { exact: true }).waitFor();
    expect(await messages().getByRole("button", { name: "Load older messages" }).count()).toBe(0);
    expect(await messages().locator("[data-testid=dlg-message]").count()).toBe(60);
  }, 30_000);

  test("an invoice the bot sends is its message in the chat: named, with its title and node", async () => {
    const { page } = b;
    const ivy = { id: 880088, first_name: "Ivy" } as FakeUser;
    env.fake.sendText(env.botToken, ivy, "/buy");
    const [sent] = await env.fake.waitForSent(env.botToken, ivy.id, 1, 20_000);
    expect(sent!.method).toBe("sendInvoice");
    await page.goto(`${env.base}/projects/${env.projectId}/dialogs?token=${env.tokenId}&chat=${ivy.id}`);
    const invoice = messages().locator('[data-direction="out"]', { hasText: "Gold bar" });
    await invoice.waitFor({ timeout: 15_000 });
    expect(await invoice.getByText("Invoice", { exact: true }).count()).toBe(1);
    expect(await invoice.getByRole("link", { name: "Sent by node buy" }).count()).toBe(1);
  }, 30_000);

  test("on a phone the list and the chat are two screens", async () => {
    const phone = await env.browser({ viewport: { width: 390, height: 844 } });
    try {
      const { page } = phone;
      await page.goto(`${env.base}/projects/${env.projectId}/dialogs`);
      const row = page.getByTestId("chat-list").locator(`[data-chat="${eve.id}"]`);
      expect(await placeholderFits(page.getByLabel("Search: name, @username or id"))).toBe(true);
      await row.click();
      await page.getByTestId("dlg-messages").getByText("Done here.").first().waitFor();
      expect(await page.getByTestId("chat-list").isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.getByRole("button", { name: "Back to the chats" }).click();
      await row.waitFor();
      expect(await page.getByTestId("conversation").count()).toBe(0);
      // a long chat (the test above): opening the composer's media and buttons keeps the newest line in sight
      await page.getByTestId("chat-list").locator('[data-chat="880077"]').click();
      const newest = page.getByTestId("dlg-messages").getByText("line 60", { exact: true });
      await newest.waitFor();
      const inSight = async () => {
        const [line, list] = [await newest.boundingBox(), await page.getByTestId("dlg-messages").boundingBox()];
        return !!line && !!list && line.y >= list.y - 1 && line.y + line.height <= list.y + list.height + 1 && line.y + line.height <= 844;
      };
      expect(await inSight()).toBe(true);
      await page.getByRole("button", { name: "Media and buttons" }).click();
      await page.getByRole("button", { name: "Add a button" }).waitFor();
      await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
      expect(await inSight()).toBe(true);
    } finally {
      await phone.close();
    }
  }, 30_000);
});
