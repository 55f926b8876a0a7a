// The Analytics tab and the editor's funnel overlay in Chromium (docs/studio.md "Analytics tab"), with a real bot
// on the fake messenger that four scripted users talk to: the tab shows the totals and the tables
// and downloads them as CSV with formulas defused; the overlay puts the users on the right nodes and
// edges, a click on a node shows its figures, and turning it off leaves the editor as it was; it
// works on an imported multi-sheet project; empty figures and bad dates are said in words.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { expectOneBom } from "../support/bom";
import { haveChromium, warnIfNoChromium, type Browser } from "../support/browser";
import { startAudience, type AudienceEnv } from "./audience-support";
import { expected, funnelScenario, playScript, serveEmptyFigures } from "./analytics-support";
import { projectAnalyticsEdgeReach, projectAnalyticsNodeReach } from "../../src/db/project-schema";
import { deriveEdges, normalizeDoc, sheetIndex } from "../../web/src/editor/document";
import { compatData, compatFiles, nodeEl, pick } from "./editor-support";

warnIfNoChromium("analytics");

describe.skipIf(!haveChromium)("Analytics in Chromium", () => {
  let env: AudienceEnv;
  let b: Browser;

  beforeAll(async () => {
    env = await startAudience({ project: "Funnel", bot: "funnel_bot", scenario: funnelScenario });
    await playScript(env);
    b = await env.browser({ viewport: { width: 1280, height: 1000 } });
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  test("the tab shows the totals and the tables, and a table's CSV defuses formulas", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await page.getByTestId("total-users").getByText("4", { exact: true }).waitFor();
    expect(await page.getByTestId("total-messagesIn").locator(".stat-value").textContent()).toBe("7");
    const rows = async (id: string) => (await page.getByTestId(`table-${id}`).locator("tbody tr").allInnerTexts()).map((r) => r.replace(/\s+/g, " ").trim());
    expect(await rows("sources")).toEqual(["ads 2", "-promo 1"]);
    expect(await rows("languages")).toEqual(["en 3", "ru 1"]);
    expect(await rows("commands")).toEqual(["/start 4"]);
    expect(await rows("buttons")).toEqual(["Buy menu 2", "Help menu 1"]);
    // the charts are drawn (uPlot's canvas), one per figure pair
    await page.getByTestId("chart-users").locator("canvas").waitFor();
    await page.getByTestId("chart-messages").locator("canvas").waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download Sources as CSV" }).click();
    const saved = readFileSync((await (await download).path())!);
    // made in the browser, with the BOM the server's CSVs start with (Excel needs it)
    expectOneBom(saved, "Analytics' Sources CSV");
    expect(saved.toString("utf8").slice(1).split("\r\n")).toEqual(["Source (deep link),Users", "ads,2", "'-promo,1", ""]);
    // a button's node opens in the editor
    expect(await page.getByTestId("table-buttons").getByRole("link", { name: "menu" }).first().getAttribute("href")).toBe(`/projects/${env.projectId}/scenario?node=menu`);
    expect(b.errors).toEqual([]);
  }, 30_000);

  test("custom dates: an end before the start is said in words and nothing is asked; a period cut by the server is said too", async () => {
    // a browser of its own: the refused dates are failed requests in its console
    const { page } = await env.browser({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await page.getByTestId("total-users").waitFor();
    await page.getByRole("button", { name: "Dates…" }).click();
    await page.getByLabel("From").fill("2026-03-05");
    await page.getByLabel("To").fill("2026-03-01");
    await page.getByRole("alert").getByText("The end date is before the start date.").waitFor();
    expect(await page.getByTestId("total-users").count()).toBe(0);
    // dates the server refuses: its reason, in words
    await page.getByLabel("From").fill("1999-12-01");
    await page.getByLabel("To").fill("1999-12-05");
    await page.getByRole("alert").getByText("must lie between 2000-01-01", { exact: false }).waitFor();
    await page.getByLabel("From").fill("2026-03-05");
    await page.getByLabel("To").fill("2026-03-09");
    await page.getByTestId("total-users").waitFor();
    // 90 days by hour is longer than the server answers: it cuts the period and the tab says so
    await page.getByRole("button", { name: "90 days" }).click();
    expect(await page.getByTestId("analytics-clamped").count()).toBe(0);
    await page.getByLabel("Step").selectOption("hour");
    expect(await page.getByTestId("analytics-clamped").innerText()).toMatch(/^The period is longer than the server answers for this step: the figures cover \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\.$/);
    // 24 h: the last 24 hours by hour (hours=24), whatever the step said before
    const asked: string[] = [];
    page.on("request", (r) => void (r.url().includes("/analytics?") && asked.push(r.url())));
    await page.getByLabel("Step").selectOption("day");
    await page.getByRole("button", { name: "24 h" }).click();
    await page.getByTestId("total-users").waitFor();
    expect(await page.getByLabel("Step").inputValue()).toBe("hour");
    expect(asked.some((u) => /[?&]hours=24(&|$)/.test(u) && /bucket=hour/.test(u) && !/[?&]from=/.test(u))).toBe(true);
  }, 30_000);

  test("the overlay puts the users on the right nodes and edges; a click shows a node's figures; off removes it", async () => {
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await page.getByTestId("canvas").and(page.locator("[data-settled=s1]")).waitFor();
    expect(await page.getByTestId("funnel-badge").count()).toBe(0);
    const plainEdges = await page.locator(".react-flow__edge").evaluateAll((els) => els.map((e) => e.getAttribute("class")));
    await page.getByTestId("analytics-toggle").click();
    await page.getByTestId("funnel-bar").waitFor();
    for (const [id, users] of Object.entries(expected.nodes)) await nodeEl(page, id).locator(`[data-testid=funnel-badge][data-users="${users}"]`).waitFor();
    // everyone who came went on from the trigger: no drop-off shown there
    expect(await nodeEl(page, "cmd-start").getByTestId("funnel-badge").getAttribute("data-drop")).toBe("0");
    // a quarter of the menu's users pressed nothing: "25% stop here"
    expect(await nodeEl(page, "menu").getByTestId("funnel-badge").innerText()).toContain("25% stop here");
    expect(await nodeEl(page, "thanks").getByTestId("funnel-badge").getAttribute("data-drop")).toBe("");
    const onEdges = Object.fromEntries(await page.locator(".ed-funnel-edge").evaluateAll((els) => els.map((e) => [e.getAttribute("data-pair"), Number(e.getAttribute("data-users"))])));
    expect(onEdges).toEqual(expected.edges);
    // the widest edge is the one most users took
    const widths = await page.locator(".react-flow__edge.ed-funnel path.react-flow__edge-path").evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).strokeWidth)));
    expect(Math.max(...widths)).toBeGreaterThan(Math.min(...widths));
    await pick(page, "menu");
    const facts = page.getByTestId("funnel-facts");
    expect(await facts.getByTestId("funnel-users").textContent()).toBe("4");
    expect(await facts.getByTestId("funnel-visits").textContent()).toBe("4");
    expect(await facts.getByTestId("funnel-drop").textContent()).toBe("1 of 4 went no further (25%)");
    expect(await facts.innerText()).toContain("Thank you for the order!: 2 users (50%)");
    await page.getByTestId("analytics-toggle").click();
    await page.getByTestId("funnel-badge").first().waitFor({ state: "detached" });
    expect(await page.getByTestId("funnel-facts").count()).toBe(0);
    expect(await page.locator(".ed-funnel-edge").count()).toBe(0);
    expect(await page.locator(".react-flow__edge").evaluateAll((els) => els.map((e) => e.getAttribute("class")))).toEqual(plainEdges.map((c) => (c ?? "").replace(" selected", "")));
    expect(b.errors).toEqual([]);
  }, 40_000);

  test("no figures yet: the tab and the overlay say so", async () => {
    const e = await env.browser({ viewport: { width: 1280, height: 900 } });
    await serveEmptyFigures(e.page);
    await e.page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await e.page.getByTestId("analytics-empty").getByText("No data yet for this period").waitFor();
    expect(await e.page.getByTestId("table-sources").innerText()).toContain("No data yet.");
    await e.page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await e.page.getByTestId("analytics-toggle").click();
    await e.page.getByTestId("funnel-status").getByText("No data yet for this period").waitFor();
    await nodeEl(e.page, "menu").locator("[data-testid=funnel-badge][data-users='0']").waitFor();
  }, 30_000);

  test("on a phone, dark, in Russian: the tab fits the width and the overlay speaks Russian", async () => {
    const e = await env.browser({ viewport: { width: 390, height: 844 }, colorScheme: "dark", locale: "ru-RU" });
    await e.page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await e.page.getByTestId("total-users").getByText("Пользователи").waitFor();
    await e.page.getByTestId("chart-messages").locator("canvas").waitFor();
    expect(await e.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await e.page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await e.page.getByTestId("analytics-toggle").click();
    expect(await nodeEl(e.page, "menu").getByTestId("funnel-badge").innerText()).toMatch(/^4 пользователя\s+25% ушли здесь$/);
    expect(await nodeEl(e.page, "help").getByTestId("funnel-badge").innerText()).toBe("1 пользователь");
    expect(e.errors).toEqual([]);
  }, 30_000);

  test("a second bot: the tab and the overlay show the picked bot's figures", async () => {
    const name = "Quiet bot";
    const r = await env.t.call("POST", `/api/bot/projects/${env.projectId}/tokens`, { cookie: env.cookie, json: { token: env.fake.addBot({ username: "quiet_bot" }).token, name } });
    expect(r.status).toBe(200);
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await page.getByTestId("total-users").getByText("4", { exact: true }).waitFor();
    await page.getByLabel("Bot").selectOption({ label: `${name} (@quiet_bot)` });
    await page.getByTestId("total-users").getByText("0", { exact: true }).waitFor();
    await page.getByTestId("analytics-empty").waitFor();
    await page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await page.getByTestId("analytics-toggle").click();
    await nodeEl(page, "menu").locator("[data-testid=funnel-badge][data-users='4']").waitFor();
    await page.getByTestId("funnel-bar").getByLabel("Bot").selectOption({ label: `${name} (@quiet_bot)` });
    await nodeEl(page, "menu").locator("[data-testid=funnel-badge][data-users='0']").waitFor();
    expect(b.errors).toEqual([]);
  }, 30_000);

  // after "a second bot": the project has two
  test("the period, step and bot live in the address: a reload shows the same view; a bad address shows the default", async () => {
    const { page } = b;
    const quiet = (await env.t.call("GET", `/api/bot/projects/${env.projectId}/tokens`, { cookie: env.cookie })).body.items.find((x: { name: string }) => x.name === "Quiet bot").id as number;
    const pressed = (name: string) => page.getByRole("group", { name: "Period" }).getByRole("button", { name, exact: true }).getAttribute("aria-pressed");
    const query = () => new URL(page.url()).searchParams;
    await page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await page.getByTestId("total-users").getByText("4", { exact: true }).waitFor();
    const steps = await page.evaluate(() => window.history.length);
    await page.getByRole("button", { name: "7 days" }).click();
    await page.getByLabel("Step").selectOption("hour");
    await page.getByLabel("Bot").selectOption(String(quiet));
    await page.getByTestId("total-users").getByText("0", { exact: true }).waitFor();
    expect(Object.fromEntries(query())).toEqual({ range: "7d", bucket: "hour", token: String(quiet) });
    await page.reload();
    await page.getByTestId("total-users").getByText("0", { exact: true }).waitFor();
    expect(await pressed("7 days")).toBe("true");
    expect(await page.getByLabel("Step").inputValue()).toBe("hour");
    expect(await page.getByLabel("Bot").inputValue()).toBe(String(quiet));
    // written in place: Back leaves the tab instead of stepping through every choice
    expect(await page.evaluate(() => window.history.length)).toBe(steps);
    // custom dates come back as typed
    await page.goto(`${env.base}/projects/${env.projectId}/analytics?range=custom&from=2026-03-05&to=2026-03-09`);
    await page.getByTestId("total-users").waitFor();
    expect(await pressed("Dates…")).toBe("true");
    expect([await page.getByLabel("From", { exact: true }).inputValue(), await page.getByLabel("To", { exact: true }).inputValue()]).toEqual(["2026-03-05", "2026-03-09"]);
    // a hand-written bad address: the default period, step and bot, and the address tidied
    for (const bad of ["range=999d&bucket=week&token=abc", "range=custom&from=2026-13-45&to=x&token=-1", "range=custom&from=2026-03-09&to=2026-03-01&bucket=&token=99999"]) {
      await page.goto(`${env.base}/projects/${env.projectId}/analytics?${bad}`);
      await page.getByTestId("total-users").getByText("4", { exact: true }).waitFor();
      expect(await pressed("30 days")).toBe("true");
      expect(await page.getByLabel("Step").inputValue()).toBe("day");
      expect(query().get("range")).toBe(null);
      expect(query().get("bucket")).toBe(null);
    }
    // the editor's overlay: on, 7 days, the quiet bot; a reload shows the same
    await page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await page.getByTestId("analytics-toggle").click();
    const bar = page.getByTestId("funnel-bar");
    await nodeEl(page, "menu").locator("[data-testid=funnel-badge][data-users='4']").waitFor();
    await bar.getByRole("button", { name: "7 days" }).click();
    await bar.getByLabel("Bot").selectOption(String(quiet));
    await nodeEl(page, "menu").locator("[data-testid=funnel-badge][data-users='0']").waitFor();
    expect(Object.fromEntries(query())).toEqual({ funnel: "1", range: "7d", token: String(quiet) });
    await page.reload();
    await nodeEl(page, "menu").locator("[data-testid=funnel-badge][data-users='0']").waitFor();
    expect(await bar.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed")).toBe("true");
    expect(await bar.getByLabel("Bot").inputValue()).toBe(String(quiet));
    expect(await page.getByTestId("analytics-toggle").getAttribute("aria-pressed")).toBe("true");
    // off: the overlay's keys leave the address, the bot stays for the other tabs
    await page.getByTestId("analytics-toggle").click();
    await bar.waitFor({ state: "detached" });
    expect(Object.fromEntries(query())).toEqual({ token: String(quiet) });
    // a bad overlay address: on, with the default period and the first bot
    await page.goto(`${env.base}/projects/${env.projectId}/scenario?funnel=1&range=bogus&token=-3`);
    await nodeEl(page, "menu").locator("[data-testid=funnel-badge][data-users='4']").waitFor();
    expect(await bar.getByRole("button", { name: "30 days" }).getAttribute("aria-pressed")).toBe("true");
    expect(b.errors).toEqual([]);
  }, 40_000);

  const multi = compatFiles("analytics").find((f) => f.endsWith("bot-manager.json"));
  test.skipIf(!multi)("an imported multi-sheet project: a node's users on its sheet, a link into another sheet on its chip", async () => {
    const data = compatData(multi!);
    const projectId = (await env.t.call("POST", "/api/projects", { cookie: env.cookie, json: { name: "Imported", data } })).body.id as number;
    const tokenId = (await env.t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie: env.cookie, json: { token: env.fake.addBot({ username: "imported_bot" }).token } })).body.id as number;
    // a transition from one sheet into another, as the editor derives it
    const doc = normalizeDoc(data);
    const index = sheetIndex(doc);
    const [{ sheet, link }] = doc.sheets.flatMap((sh) => deriveEdges(sh, index).portals.map((link) => ({ sheet: sh, link })));
    const there = doc.sheets.find((sh) => sh.id === index.get(link!.target))!;
    // the read-side rollups the bot's record batch keeps (docs/analytics.md): 5 users reached the
    // source (twice each), 3 went on into the other sheet
    const db = env.t.ctx.projectFiles.open(projectId);
    const day = new Date().toISOString().slice(0, 10);
    db.insert(projectAnalyticsNodeReach).values([
      { tokenId, day, nodeId: link!.source, prevDay: "", users: 5, visits: 10 },
      { tokenId, day, nodeId: link!.target, prevDay: "", users: 3, visits: 3 },
    ]).run();
    db.insert(projectAnalyticsEdgeReach).values({ tokenId, day, fromNode: link!.source, toNode: link!.target, prevDay: "", users: 3 }).run();
    const e = await env.browser({ viewport: { width: 1280, height: 900 } });
    await e.page.goto(`${env.base}/projects/${projectId}/scenario`);
    await e.page.getByTestId("analytics-toggle").click();
    await e.page.getByRole("tab", { name: new RegExp(`^${sheet!.name}`) }).click();
    await nodeEl(e.page, link!.source).locator("[data-testid=funnel-badge][data-users='5']").waitFor();
    await e.page.locator(`.ed-funnel-edge[data-pair^="${link!.source}>portal:"][data-users="3"]`).waitFor();
    await nodeEl(e.page, link!.source).locator(".ed-head").dispatchEvent("click");
    expect(await e.page.getByTestId("funnel-visits").textContent()).toBe("10");
    await e.page.getByRole("tab", { name: new RegExp(`^${there.name}`) }).click();
    await nodeEl(e.page, link!.target).locator("[data-testid=funnel-badge][data-users='3']").waitFor();
  }, 40_000);
});
