// Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core, with the flags
// this closed network needs. Tests skip (with a message) only when Chromium is absent.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const haveChromium = existsSync(CHROMIUM);

export function warnIfNoChromium(suite: string) {
  if (!haveChromium) console.warn(`[${suite}] SKIPPED: ${CHROMIUM} not found (apt-get install -y chromium)`);
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, for "no console errors" checks. */
  errors: string[];
  /** Every request URL the first page made (for "same origin only" checks). */
  requests: string[];
  close(): Promise<void>;
}

/** `timezoneId`: the browser's own time zone (UTC unless given, so no test depends on the machine's). */
export async function launchBrowser(opts: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark"; locale?: string; timezoneId?: string } = {}): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "botloom-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    colorScheme: opts.colorScheme ?? "light",
    locale: opts.locale ?? "en-US",
    timezoneId: opts.timezoneId ?? "UTC",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Another host can never answer: a request to one fails and shows as a console error.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
    ],
  });
  context.setDefaultTimeout(10_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const requests: string[] = [];
  // Request URLs from the DevTools protocol: playwright's own request events race its object
  // bookkeeping when a page navigates under load ("Cannot find parent object request@…").
  const cdp = await context.newCDPSession(page);
  cdp.on("Network.requestWillBeSent", (e) => void requests.push(e.request.url));
  await cdp.send("Network.enable");
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // The app asks "who am I" first; for a guest that is the 401 docs/api.md fixes, which Chromium
    // reports as a failed resource. Every other failed request counts.
    if (m.text().includes("status of 401") && new URL(m.location().url || "http://x/").pathname === "/api/auth/me") return;
    errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  return {
    context,
    page,
    errors,
    requests,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Whether an input's placeholder is shown whole (a cut-off hint reads as a different one). */
export async function placeholderFits(input: Locator): Promise<boolean> {
  return input.evaluate((el: HTMLInputElement) => {
    const s = getComputedStyle(el);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    return ctx.measureText(el.placeholder).width <= el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  });
}

/** A browser signed in to the Studio at `base` with a session cookie ("name=value", as loginAs gives it). */
export async function signedInBrowser(base: string, cookie: string): Promise<Browser> {
  const b = await launchBrowser();
  const [name, value] = cookie.split("=");
  await b.context.addCookies([{ name: name!, value: value!, url: base }]);
  return b;
}
