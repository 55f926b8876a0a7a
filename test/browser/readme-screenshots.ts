// The two pictures of the README (the editor and the preview), shot with headless Chromium against
// a served app with a project made from a built-in template: `bun test/browser/readme-screenshots.ts`
// writes docs/images/editor.png and docs/images/preview.png. Not part of the suite.
import { join, resolve } from "node:path";
import { createTestApp, loginAs, setUp } from "../support/app";
import { launchBrowser } from "../support/browser";

const out = resolve(import.meta.dir, "../../docs/images");
const t = createTestApp({ fileDb: true });
await setUp(t);
t.app.listen({ port: 0, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${t.app.server!.port}`;
const cookie = await loginAs(t, 4242, { firstName: "Ada" });
const tpl = (await t.call("GET", "/api/templates?search=Feedback&language=en", { cookie })).body.items[0];
const p = (await t.call("POST", `/api/templates/${tpl.id}/use`, { cookie, json: { name: "Feedback bot" } })).body;
const b = await launchBrowser({ viewport: { width: 1280, height: 760 } });
try {
  const [name, value] = cookie.split("=");
  await b.context.addCookies([{ name: name!, value: value!, url: base }]);
  const { page } = b;
  await page.goto(`${base}/projects/${p.id}/scenario`);
  await page.locator(".react-flow__node").first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState("networkidle");
  await page.locator(".react-flow__controls-fitview").click();
  await page.locator(".react-flow__node").last().click();
  await page.screenshot({ path: join(out, "editor.png") });

  await page.goto(`${base}/projects/${p.id}/preview`);
  const chat = page.getByTestId("preview-chat");
  await chat.getByTestId("pv-status").getByText("running").waitFor({ timeout: 20_000 });
  await chat.getByRole("button", { name: "Commands" }).click();
  await chat.getByRole("menuitem", { name: /\/start/ }).click();
  // the preview long-polls its transcript, so the network never idles: wait for the bot's answer
  await chat.locator('[data-from="bot"]').first().waitFor();
  await chat.getByRole("button", { name: /OK/ }).click();
  await chat.locator('[data-from="bot"]').nth(1).waitFor();
  await page.screenshot({ path: join(out, "preview.png") });
  if (b.errors.length) console.log("page errors:", b.errors);
} finally {
  await b.close();
  await t.ctx.preview.stopAll();
  await t.app.server?.stop(true);
  t.cleanup();
}
console.log(`written: ${join(out, "editor.png")}, ${join(out, "preview.png")}`);
