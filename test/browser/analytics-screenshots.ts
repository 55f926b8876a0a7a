// Screenshots of the Analytics tab and the editor's funnel overlay at 1280 and 390 px, light and
// dark (dark ones in Russian), for review by eye: `bun test/browser/analytics-screenshots.ts [outDir]`
// (default /tmp/analytics-shots). Not part of the suite. A real bot on the fake messenger plays the
// analytics test's script first; docs/images/ holds the ones docs/studio.md and docs/editor.md use (copied by hand).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startAudience } from "./audience-support";
import { funnelScenario, playScript } from "./analytics-support";

const out = process.argv[2] ?? "/tmp/analytics-shots";
mkdirSync(out, { recursive: true });
const env = await startAudience({ project: "Pizza funnel", bot: "funnel_bot", scenario: funnelScenario });
await playScript(env);

const shots: string[] = [];
for (const width of [1280, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    const b = await env.browser({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: scheme, locale: scheme === "dark" ? "ru-RU" : "en-US" });
    const { page } = b;
    await page.goto(`${env.base}/projects/${env.projectId}/analytics`);
    await page.getByTestId("chart-users").locator("canvas").waitFor();
    await page.waitForTimeout(300);
    const shoot = async (label: string, fullPage: boolean) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const file = join(out, `${label}-${width}-${scheme}.png`);
      await page.screenshot({ path: file, fullPage });
      shots.push(`${file}${overflow > 0 ? `  HORIZONTAL OVERFLOW ${overflow}px` : ""}`);
    };
    await shoot("analytics-tab", true);
    await page.goto(`${env.base}/projects/${env.projectId}/scenario`);
    await page.getByTestId("canvas").and(page.locator("[data-settled=s1]")).waitFor();
    await page.getByTestId("analytics-toggle").click();
    await page.locator('.ed-node[data-node-id="menu"] [data-testid=funnel-badge]').waitFor();
    await page.waitForTimeout(500);
    await shoot("analytics-overlay", false);
    await page.locator('.ed-node[data-node-id="menu"] .ed-head').dispatchEvent("click");
    await page.getByTestId("funnel-facts").waitFor();
    await page.waitForTimeout(500);
    await shoot("analytics-node", false);
    if (b.errors.length) console.log("errors:", b.errors);
    await b.close();
  }
}
console.log(shots.join("\n"));
await env.stop();
