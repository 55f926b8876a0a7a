// The Campaigns tab in Chromium with a real bot on the fake messenger (docs/campaigns.md): a
// campaign for a tag shows its audience size as it is chosen, previews with a sample user's name,
// sends a test to the operator (who receives it, not counted), starts, reaches done live, and its
// report equals what the fake messenger received (a vip who blocked the bot fails as "blocked").
// Pause, resume, cancel, delete-sent and delete ask first and act; a schedule is typed and shown
// on the clock of the zone picked. Bad input
// (no name, a text over 4096, a refused button, a past time, buttons on an album) is refused in
// words; an album of two photos previews as a grid and saves as mediaIds; on a phone the
// list and the campaign are two screens, and the report's recipients fit its width (each sent time
// and error on screen). The report's CSV download starts with the UTF-8 BOM, once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { expectOneBom } from "../support/bom";
import { haveChromium, warnIfNoChromium, type Browser } from "../support/browser";
import type { FakeUser, RecordedCall } from "../support/fake-messenger";
import type { Locator } from "playwright-core";
import { node, scenarioOf, startAudience, type AudienceEnv } from "./audience-support";
import { until } from "../support/process";

warnIfNoChromium("campaigns tab");

const scenario = scenarioOf(
  node("cmd-start", "command_trigger", { command: "/start", autoTransitionTo: "hello" }),
  node("hello", "message", { messageText: "Hello!" }, 150),
  node("offer", "message", { messageText: "Here is the offer." }, 300),
);

const TEXT = "Hi {first_name}, the sale starts now!";
const textOf = (c: RecordedCall) => String(c.params.text ?? c.params.caption ?? "");

describe.skipIf(!haveChromium)("Campaigns tab in Chromium", () => {
  let env: AudienceEnv;
  let b: Browser;
  const me: FakeUser = { id: 4242, first_name: "Ada", username: "ada" } as FakeUser;
  const ann: FakeUser = { id: 770001, first_name: "Ann", language_code: "en" } as FakeUser;
  const bob: FakeUser = { id: 770002, first_name: "Bob", language_code: "ru" } as FakeUser;
  const zed: FakeUser = { id: 770003, first_name: "Zed", language_code: "en" } as FakeUser;
  const out: FakeUser = { id: 770004, first_name: "Olga", language_code: "en" } as FakeUser;
  const vips = [ann, bob, zed];
  const wizard = () => b.page.getByTestId("campaign-wizard");
  const view = () => b.page.getByTestId("campaign-view");
  /** A new campaign's wizard at the message step with a URL button added: the box. */
  const draftWithButton = async (name: string, text: string, button: { text: string; url: string }) => {
    await b.page.goto(`${env.base}/projects/${env.projectId}/campaigns?token=${env.tokenId}&campaign=new`);
    const box = wizard();
    await box.getByLabel("Name").fill(name);
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByLabel("Message", { exact: true }).fill(text);
    await box.getByRole("button", { name: "Add a button" }).click();
    await box.getByLabel("Button text").fill(button.text);
    await box.getByLabel("Button URL").fill(button.url);
    return box;
  };
  // what the fake received from the bot since the users started, per user
  const received = (u: FakeUser) => env.fake.sent(env.botToken, u.id).filter((c) => textOf(c).includes("the sale starts now"));

  beforeAll(async () => {
    env = await startAudience({ project: "Shop", bot: "shop_bot", scenario });
    for (const u of [me, ann, bob, zed, out]) {
      env.fake.sendText(env.botToken, u, "/start");
      await env.fake.waitForSent(env.botToken, u.id, 1, 20_000);
    }
    for (const u of vips) {
      const r = await env.t.call("PUT", `/api/bot/tokens/${env.tokenId}/users/${u.id}/tags`, { cookie: env.cookie, json: { tags: ["vip"] } });
      expect(r.status).toBe(200);
    }
    // Zed blocks the bot without the bot learning it: the campaign's send to him fails
    env.fake.setBlocked(zed.id, true);
    b = await env.browser({ viewport: { width: 1280, height: 1000 } });
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  test("a campaign for a tag: the count, a preview with a sample user's name, a test to me that is not counted", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/campaigns`);
    await page.getByText("No campaigns yet", { exact: false }).waitFor();
    await page.getByRole("button", { name: "New campaign" }).click();
    await page.waitForURL(/campaign=new/);
    // everyone first, then the tag narrows it
    const size = page.getByTestId("audience-size");
    await size.getByText("Recipients: 5").waitFor({ timeout: 10_000 });
    await wizard().getByTestId("pick-tags").getByRole("button", { name: "vip" }).click();
    await size.getByText("Recipients: 3").waitFor();
    // no name: refused in words before anything is stored
    await wizard().getByRole("button", { name: "Next" }).click();
    await wizard().getByRole("alert").getByText("Give the campaign a name.").waitFor();
    await wizard().getByLabel("Name").fill("Spring sale");
    await wizard().getByRole("button", { name: "Next" }).click();

    const box = wizard();
    await box.getByLabel("Message", { exact: true }).fill(TEXT);
    await box.getByLabel("Sample user").selectOption(String(ann.id));
    const preview = page.getByTestId("campaign-preview");
    await preview.getByText("Hi Ann, the sale starts now!").waitFor();
    await box.getByLabel("Sample user").selectOption(String(bob.id));
    await preview.getByText("Hi Bob, the sale starts now!").waitFor();
    // a go-to-node button picked by name
    await box.getByRole("button", { name: "Add a button" }).click();
    await box.getByLabel("Button text").fill("See the offer");
    await box.getByLabel("Button action").selectOption("goto");
    await box.getByLabel("Node to run").selectOption("offer");
    await preview.getByText("See the offer").waitFor();
    // over the limit: the counter says so and Next refuses
    await box.getByLabel("Message", { exact: true }).fill("x".repeat(4097));
    expect(await box.getByTestId("text-counter").textContent()).toContain("4097 / 4096");
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByRole("alert").getByText("longer than 4096", { exact: false }).waitFor();
    await box.getByLabel("Message", { exact: true }).fill(TEXT);
    await box.getByRole("button", { name: "Next" }).click();

    // the draft is stored now; a test to me arrives with my own name and is not counted
    await page.waitForURL(/campaign=new/);
    await box.getByLabel("me (4242)").check();
    await box.getByRole("button", { name: "Send a test (1)" }).click();
    await box.getByTestId("test-result").getByText("1 delivered", { exact: false }).waitFor({ timeout: 15_000 });
    const [test1] = await env.fake.waitForSent(env.botToken, me.id, 1, 15_000);
    expect(textOf(test1!)).toBe("Hi Ada, the sale starts now!");
    const list = page.getByTestId("campaign-list");
    await list.getByText("Spring sale").waitFor();
    expect(await list.getByTestId("campaign-status").first().textContent()).toBe("Draft");
    for (const u of vips) expect(received(u)).toEqual([]);
    expect(b.errors).toEqual([]);
  }, 90_000);

  test("started now: progress reaches done live and the report equals what the fake received", async () => {
    const { page } = b;
    const box = wizard();
    await box.getByRole("button", { name: "Next" }).click();
    expect(await box.getByLabel("Now").isChecked()).toBe(true);
    // a bad schedule is refused before the server is asked
    await box.getByLabel("At a date and time").check();
    await box.getByRole("button", { name: "Schedule" }).click();
    await box.getByRole("alert").getByText("Pick the date and time", { exact: false }).waitFor();
    await box.getByLabel("Now").check();
    await box.getByRole("button", { name: "Start sending" }).click();

    await view().waitFor();
    await view().locator('[data-testid="campaign-status"][data-status="done"]').waitFor({ timeout: 30_000 });
    // the list polls nothing: only the live `campaign` events can bring it to done
    await page.getByTestId("campaign-list").locator('[data-testid="campaign-status"][data-status="done"]').waitFor({ timeout: 10_000 });
    const progress = view().getByTestId("progress");
    expect(await progress.getAttribute("data-sent")).toBe("2");
    expect(await progress.getAttribute("data-failed")).toBe("1");
    expect(await progress.getAttribute("data-pending")).toBe("0");
    // the fake: Ann and Bob got it once each with their own names and the button; Zed and Olga not
    expect(received(ann).map(textOf)).toEqual(["Hi Ann, the sale starts now!"]);
    expect(received(bob).map(textOf)).toEqual(["Hi Bob, the sale starts now!"]);
    expect(received(zed)).toEqual([]);
    expect(received(out)).toEqual([]);
    expect(received(me)).toHaveLength(1);
    const kb = (received(ann)[0]!.params.reply_markup as { inline_keyboard: { text: string }[][] }).inline_keyboard;
    expect(kb.flat().map((x) => x.text)).toEqual(["See the offer"]);

    const report = view().getByTestId("campaign-report");
    expect(await report.getByTestId("report-sent").locator(".stat-value").textContent()).toBe(String(received(ann).length + received(bob).length));
    expect(await report.getByTestId("report-failed").locator(".stat-value").textContent()).toBe("1");
    await report.getByTestId("reason-blocked").getByText("1", { exact: true }).waitFor();
    const rows = report.getByTestId("recipients").locator("tbody tr");
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    await report.getByRole("button", { name: "Failed", exact: true }).click();
    await report.getByTestId("recipients").locator(`tbody tr[data-status="sent"]`).first().waitFor({ state: "detached" });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(String(zed.id));
    // who they are, by name, beside the id
    expect(await rows.first().locator("td").first().textContent()).toContain("Zed");
    // the CSV is the server's export (a link with the session cookie), of the list's filter
    const [download] = await Promise.all([page.waitForEvent("download"), report.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^campaign-\d+-recipients\.csv$/);
    const saved = readFileSync((await download.path())!);
    expectOneBom(saved, "the campaign report's Export CSV");
    const csv = saved.toString("utf8").slice(1).trim().split("\n");
    expect(csv[0]).toBe("userId,firstName,username,status,error,sentAt,deletedAt");
    expect(csv.slice(1).map((l) => l.split(",").slice(0, 1).concat(l.split(",")[3]!))).toEqual([[String(zed.id), "failed"]]);
    expect(b.errors).toEqual([]);
  }, 90_000);

  test("delete-sent asks first, then removes the message from the users' chats and says when", async () => {
    expect(await view().getByTestId("sent-deleted").count()).toBe(0);
    await view().getByRole("button", { name: "Delete sent messages" }).click();
    const dialog = b.page.getByRole("dialog");
    await dialog.getByText("Delete the sent messages", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(env.fake.calls(env.botToken, "deleteMessage")).toEqual([]);
    await view().getByRole("button", { name: "Delete sent messages" }).click();
    await dialog.getByRole("button", { name: "Delete sent messages" }).click();
    const sent = [...received(ann), ...received(bob)];
    for (const m of sent) await env.fake.waitForCall(env.botToken, (c) => c.method === "deleteMessage" && Number(c.params.message_id) === m.messageId && Number(c.params.chat_id) === Number(m.params.chat_id), 15_000);
    // only the campaign's messages: not the test to me, not the scenario's
    expect(env.fake.calls(env.botToken, "deleteMessage")).toHaveLength(sent.length);
    // the view says it is done, and when, without a reload (the page looked untouched before)
    await view().getByTestId("sent-deleted").getByText(/\d.*UTC$/).waitFor();
    expect(await view().getByText("Sent messages deleted", { exact: true }).count()).toBe(1);
    // the report marks each recipient whose message was removed, the time in the mark's tooltip;
    // the one it never reached (Zed, blocked) is not marked
    const report = view().getByTestId("campaign-report");
    await report.getByRole("button", { name: "All", exact: true }).click();
    const marks = report.getByTestId("recipients").locator('tbody tr[data-status="sent"] [data-testid="recipient-deleted"]');
    await marks.nth(sent.length - 1).waitFor();
    for (const mark of await marks.all()) {
      expect(await mark.textContent()).toBe("deleted");
      expect(await mark.getAttribute("title")).toMatch(/^Deleted from the chat \d.*UTC$/);
    }
    expect(await report.getByTestId("recipients").locator('tbody tr[data-status="failed"] [data-testid="recipient-deleted"]').count()).toBe(0);
  }, 30_000);

  test("pause, resume and cancel, each confirmed first: everyone gets it once, the cancelled rest never", async () => {
    const { page } = b;
    const extra = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({ id: 770100 + i, first_name: `Extra${i}` }) as FakeUser);
    for (const u of extra) {
      env.fake.sendText(env.botToken, u, "/start");
      await env.fake.waitForSent(env.botToken, u.id, 1, 20_000);
    }
    // one send a second: slow enough to pause in the middle
    expect((await env.t.call("PATCH", `/api/bot/tokens/${env.tokenId}`, { cookie: env.cookie, json: { sendsPerSecond: 1 } })).status).toBe(200);
    const make = async (name: string) => (await env.t.call("POST", `/api/bot/tokens/${env.tokenId}/campaigns`, { cookie: env.cookie, json: { name, message: { text: `${name} for {first_name}` } } })).body as { id: number };
    const slow = await make("Slow news");
    const everyone = [me, ann, bob, out, ...extra];
    const got = (u: FakeUser, name: string) => env.fake.sent(env.botToken, u.id).filter((c) => textOf(c).startsWith(name));
    const status = (s: string) => view().locator(`[data-testid="campaign-status"][data-status="${s}"]`);
    const confirm = async (action: string) => {
      await view().getByRole("button", { name: action, exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await dialog.getByRole("button", { name: action, exact: true }).click();
      await dialog.waitFor({ state: "hidden" });
    };

    await page.goto(`${env.base}/projects/${env.projectId}/campaigns?token=${env.tokenId}&campaign=${slow.id}`);
    await status("draft").waitFor();
    // a confirmation that is cancelled does nothing
    await view().getByRole("button", { name: "Start sending" }).click();
    await view().getByTestId("audience-size").getByText("12 now", { exact: false }).waitFor();
    await page.getByRole("dialog").getByText(": 12 recipients", { exact: false }).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel", exact: true }).click();
    expect(await status("draft").count()).toBe(1);
    await confirm("Start sending");
    await status("sending").waitFor();
    await confirm("Pause");
    await status("paused").waitFor();
    const paused = Number(await view().getByTestId("progress").getAttribute("data-pending"));
    expect(paused).toBeGreaterThan(0);
    await confirm("Resume");
    await status("done").waitFor({ timeout: 30_000 });
    for (const u of everyone) expect(got(u, "Slow news").map(textOf)).toEqual([`Slow news for ${u.first_name}`]);
    expect(got(zed, "Slow news")).toEqual([]);

    const stopped = await make("Stopped news");
    await page.goto(`${env.base}/projects/${env.projectId}/campaigns?token=${env.tokenId}&campaign=${stopped.id}`);
    await confirm("Start sending");
    await status("sending").waitFor();
    await confirm("Cancel the campaign");
    await status("cancelled").waitFor();
    const progress = view().getByTestId("progress");
    const sent = Number(await progress.getAttribute("data-sent"));
    expect(Number(await progress.getAttribute("data-pending"))).toBeGreaterThan(0);
    // nobody left pending ever gets it: what the fake received is what the report says was sent
    await env.t.call("PATCH", `/api/bot/tokens/${env.tokenId}`, { cookie: env.cookie, json: { sendsPerSecond: 25 } });
    const after = await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/campaigns/${stopped.id}`, { cookie: env.cookie });
    expect(after.body.counts.sent).toBe(sent);
    expect(everyone.flatMap((u) => got(u, "Stopped news"))).toHaveLength(sent);
    // a cancelled campaign offers no resume, and its deletion asks first
    expect(await view().getByRole("button", { name: "Resume" }).count()).toBe(0);
    expect(b.errors).toEqual([]);
  }, 90_000);

  test("a refused button and scheduling in a time zone: a past time is refused in words; Moscow's 10:00 is 07:00 UTC; New York on both sides of DST; back to draft; deleted after asking", async () => {
    const { page } = b;
    // a button the server refuses: its words show, nothing moves on
    const box = await draftWithButton("Later news", "Later, {first_name}.", { text: "Evil", url: "javascript:alert(1)" });
    await box.getByRole("button", { name: "Next" }).click();
    const refused = box.getByRole("alert");
    await refused.waitFor();
    expect(await refused.textContent()).not.toMatch(/^\s*\{/);
    expect(await box.getByLabel("Message", { exact: true }).count()).toBe(1);
    await box.getByRole("button", { name: /^Remove button/ }).click();
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByText("Send a test to").waitFor();
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByLabel("At a date and time").check();
    expect(await box.getByLabel("Time zone").inputValue()).toBe("UTC");
    await box.getByLabel("Send at").fill("2020-01-01T10:00");
    await box.getByRole("button", { name: "Schedule" }).click();
    const alert = box.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/past/i);
    expect(await alert.textContent()).not.toMatch(/^\s*\{/);
    // 10:00 on Moscow's clock is 07:00 UTC: the wizard says so, the server stores it, the campaign shows Moscow's
    const year = new Date().getUTCFullYear() + 1;
    await box.getByLabel("Time zone").selectOption("Europe/Moscow");
    await box.getByLabel("Send at").fill(`${year}-06-01T10:00`);
    await box.getByTestId("schedule-utc").getByText("7:00 AM UTC", { exact: false }).waitFor();
    await box.getByRole("button", { name: "Schedule" }).click();
    await view().locator('[data-testid="campaign-status"][data-status="scheduled"]').waitFor();
    const id = Number(new URL(page.url()).searchParams.get("campaign"));
    const stored = async () => (await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/campaigns/${id}`, { cookie: env.cookie })).body;
    expect(await stored()).toMatchObject({ scheduledAt: `${year}-06-01T07:00:00.000Z`, timeZone: "Europe/Moscow" });
    await view().getByText(`${year}, 10:00 AM Europe/Moscow`, { exact: false }).waitFor();
    await page.getByTestId("campaign-list").getByText("10:00 AM Europe/Moscow", { exact: false }).waitFor();
    // editing shows the time again on the zone's clock; a DST zone on both sides of its change
    const toWhen = async () => {
      await view().getByRole("button", { name: "Edit", exact: true }).click();
      await box.getByRole("button", { name: /When/ }).waitFor();
      for (let i = 0; i < 3; i++) await box.getByRole("button", { name: "Next" }).click();
      await box.getByLabel("Send at").waitFor();
    };
    await toWhen();
    expect(await box.getByLabel("Send at").inputValue()).toBe(`${year}-06-01T10:00`);
    expect(await box.getByLabel("Time zone").inputValue()).toBe("Europe/Moscow");
    for (const [wall, utc] of [[`${year}-07-01T10:00`, `${year}-07-01T14:00:00.000Z`], [`${year + 1}-01-15T10:00`, `${year + 1}-01-15T15:00:00.000Z`]] as const) {
      await box.getByLabel("Time zone").selectOption("America/New_York");
      await box.getByLabel("Send at").fill(wall);
      await box.getByRole("button", { name: "Schedule" }).click();
      await until(async () => (await stored()).scheduledAt === utc, `scheduled at ${utc}`);
      expect((await stored()).timeZone).toBe("America/New_York");
      await view().getByText("10:00 AM America/New_York", { exact: false }).waitFor();
      await toWhen();
    }
    // saving as a draft takes the schedule off
    await box.getByRole("button", { name: "Save draft" }).click();
    await view().locator('[data-testid="campaign-status"][data-status="draft"]').waitFor();
    // deleting asks first
    await view().getByRole("button", { name: "Delete the campaign" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete “Later news”?").waitFor();
    await dialog.getByRole("button", { name: "Delete the campaign" }).click();
    await page.getByTestId("campaign-list").getByText("Later news").waitFor({ state: "detached" });
    expect((await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/campaigns/${id}`, { cookie: env.cookie })).status).toBe(404);
    expect(b.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  }, 60_000);


  test("a new campaign's schedule starts on the clock of the browser's own zone; the API's default stays UTC", async () => {
    const tokyo = await env.browser({ timezoneId: "Asia/Tokyo" });
    await tokyo.page.goto(`${env.base}/projects/${env.projectId}/campaigns?token=${env.tokenId}&campaign=new`);
    const box = tokyo.page.getByTestId("campaign-wizard");
    await box.getByLabel("Name").fill("Tokyo morning");
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByLabel("Message", { exact: true }).fill("Ohayo, {first_name}.");
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByText("Send a test to").waitFor();
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByLabel("At a date and time").check();
    expect(await box.getByLabel("Time zone").inputValue()).toBe("Asia/Tokyo");
    const created = (await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/campaigns`, { cookie: env.cookie })).body.items.find((c: { name: string }) => c.name === "Tokyo morning");
    await env.t.call("DELETE", `/api/bot/tokens/${env.tokenId}/campaigns/${created.id}`, { cookie: env.cookie });
    await tokyo.close();
  }, 30_000);
  test("an album: two photos added one by one, previewed as a grid with the caption, buttons refused, saved as mediaIds; a test delivers one media group", async () => {
    const { page } = b;
    const png = Uint8Array.from("\x89PNG\r\n\x1a\n", (c) => c.charCodeAt(0));
    const files = [];
    for (const name of ["one.png", "two.png"]) files.push(await env.t.ctx.media.upload(env.projectId, new File([png, name], name, { type: "image/png" })));
    // a button first: with an album it blocks the step, in words
    const box = await draftWithButton("Album news", "Two photos for {first_name}", { text: "Site", url: "https://example.com" });
    await box.getByTestId("media-list").locator("select").selectOption({ label: "one.png" });
    await box.getByTestId("media-list").locator("select").selectOption({ label: "two.png" });
    await box.getByTestId("media-list").getByText("Album: 2 of at most 10 files").waitFor();
    const preview = box.getByTestId("campaign-preview");
    expect(await preview.getByTestId("preview-album").locator("img").count()).toBe(2);
    await preview.getByText("Two photos for", { exact: false }).waitFor();
    await box.getByRole("button", { name: "Next" }).click();
    expect(await box.getByRole("alert").textContent()).toMatch(/album cannot carry buttons/);
    await box.getByRole("button", { name: /^Remove button/ }).click();
    await box.getByTestId("album-no-buttons").waitFor();
    await box.getByRole("button", { name: "Next" }).click();
    await box.getByText("Send a test to").waitFor();
    // the draft was saved on leaving the message step
    const list = (await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/campaigns`, { cookie: env.cookie })).body.items as { id: number; name: string }[];
    const id = list.find((c) => c.name === "Album news")!.id;
    const stored = (await env.t.call("GET", `/api/bot/tokens/${env.tokenId}/campaigns/${id}`, { cookie: env.cookie })).body;
    expect(stored.message).toMatchObject({ text: "Two photos for {first_name}", mediaIds: files.map((f) => f.id) });
    expect(stored.message.mediaId).toBeUndefined();
    // the API's test goes out as one media group, caption on the first
    expect((await env.t.call("POST", `/api/bot/tokens/${env.tokenId}/campaigns/${id}/test`, { cookie: env.cookie, json: { userIds: [String(me.id)] } })).body).toEqual({ sent: 1, failed: 0 });
    const group = env.fake.sent(env.botToken, me.id).filter((c) => c.method === "sendMediaGroup");
    expect(group.length).toBe(1);
    expect((group[0]!.params.media as { caption?: string }[]).map((m) => m.caption)).toEqual(["Two photos for Ada", undefined]);
    await env.t.call("DELETE", `/api/bot/tokens/${env.tokenId}/campaigns/${id}`, { cookie: env.cookie });
    expect(b.errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  }, 60_000);

  test("on a phone the list and the campaign are two screens, in Russian; the report's recipients fit without scrolling sideways", async () => {
    // an error in the messenger's own words is long: on a phone it wraps, the table stays narrow
    const LONG = "Forbidden: bot can't initiate conversation with a user";
    env.t.ctx.projectFiles.open(env.projectId).$client
      .query("UPDATE campaign_recipients SET error = ? WHERE user_id = ? AND campaign_id = (SELECT id FROM campaigns WHERE name = 'Spring sale')")
      .run(LONG, String(zed.id));
    const phone = await env.browser({ viewport: { width: 390, height: 844 }, colorScheme: "dark", locale: "ru-RU" });
    const { page } = phone;
    await page.goto(`${env.base}/projects/${env.projectId}/campaigns`);
    const list = page.getByTestId("campaign-list");
    await list.getByText("Spring sale").click();
    await page.getByTestId("campaign-view").waitFor();
    expect(await list.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    // the report's recipients fit the phone: their table's box does not scroll sideways, and each
    // sent time (and the failure's error) is on screen, not past the box's right edge
    const table = page.getByTestId("campaign-report").getByTestId("recipients");
    await table.locator("tbody tr").nth(2).waitFor();
    const box = await table.evaluate((t) => ({ scrollWidth: t.parentElement!.scrollWidth, clientWidth: t.parentElement!.clientWidth }));
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
    /** Where a cell's text is drawn, and the part of the screen its scroll box shows. */
    const seen = (cell: Locator) =>
      cell.evaluate((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const text = range.getBoundingClientRect();
        const shown = td.closest("table")!.parentElement!.getBoundingClientRect();
        const visible = getComputedStyle(td).display !== "none" && td.checkVisibility();
        return { text: (td as HTMLElement).innerText, visible, inside: text.width > 0 && text.left >= Math.max(0, shown.left) - 0.5 && text.right <= Math.min(innerWidth, shown.right) + 0.5 };
      });
    const sent = table.locator('tbody tr[data-status="sent"]');
    expect(await sent.count()).toBe(2);
    for (const row of await sent.all()) {
      const at = await seen(row.locator("td").last());
      expect(at).toEqual({ text: expect.stringMatching(/\d{1,2}:\d{2}/), visible: true, inside: true });
      // delete-sent (above) removed their messages: marked in Russian beside the status
      expect(await seen(row.locator("td").nth(1))).toEqual({ text: "Отправлено · удалено", visible: true, inside: true });
      expect(await row.getByTestId("recipient-deleted").getAttribute("title")).toMatch(/^Удалено из чата \d/);
    }
    const error = await seen(table.locator('tbody tr[data-status="failed"] td', { hasText: LONG }).last());
    expect(error).toEqual({ text: LONG, visible: true, inside: true });
    await page.getByRole("button", { name: "← Рассылки" }).click();
    await list.waitFor();
    expect(await page.getByTestId("campaign-view").count()).toBe(0);
    expect(phone.errors).toEqual([]);
  }, 30_000);
});
