// The Studio web app is served by the same server: index.html for app routes (no-cache, strict
// headers), hashed assets immutable and gzip when asked; /api, /admin and /uploads never fall back;
// an unknown address is a 404, and only to a browser's navigation is that 404 the app's page.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, setUp, type TestApp } from "../support/app";
import { WEB_FILES } from "../../web/dist/bundle";

const t = createTestApp();
afterAll(() => t.cleanup());

describe("studio serving", () => {
  test("app routes answer index.html with no-cache and security headers", async () => {
    for (const path of ["/", "/login", "/projects", "/projects/12/logs", "/templates", "/templates/3", "/account"]) {
      const res = await t.call("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.text).toContain('<div id="root">');
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  test("index.html references only same-origin absolute assets that are served immutable", async () => {
    const html = (await t.call("GET", "/")).text;
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((r) => !r.startsWith("data:"));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toStartWith("/assets/");
      const res = await t.call("GET", ref);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });

  test("gzip copies are sent when the client accepts them", async () => {
    const url = Object.keys(WEB_FILES).find((u) => u.endsWith(".js") && WEB_FILES[u]!.gzip)!;
    expect(url).toBeDefined();
    const zipped = await t.app.handle(new Request(`http://localhost${url}`, { headers: { "accept-encoding": "gzip, br" } }));
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const plain = await t.call("GET", url);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-type")).toContain("javascript");
    const unzipped = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())));
    expect(unzipped).toBe(plain.text);
  });

  test("API, admin and upload paths never fall back to the app", async () => {
    const api = await t.call("GET", "/api/nothing-here");
    expect(api.headers.get("content-type")).toContain("application/json");
    expect(api.status).toBeGreaterThanOrEqual(400);
    const upload = await t.call("GET", "/uploads/nope.png");
    expect(upload.text).not.toContain('<div id="root">');
    const asset = await t.call("GET", "/assets/missing-file.js");
    expect(asset.status).toBe(404);
    const other = await t.call("GET", "/wp-login.php");
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('<div id="root">');
  });

  // a browser's navigation as Chromium and Firefox send it
  const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";
  const open = (method: string, path: string, accept?: string, on: TestApp = t) =>
    on.app.handle(new Request(`http://localhost${path}`, { method, headers: accept === undefined ? {} : { accept } }));

  test("an address nobody serves, opened by a browser, answers the app's page with status 404 (GET and HEAD)", async () => {
    for (const path of ["/nope", "/wp-login.php", "/projectsx", "/admin/nope", "/a/b/c/d"]) {
      const page = await open("GET", path, BROWSER);
      expect(page.status).toBe(404);
      expect(page.headers.get("content-type")).toStartWith("text/html");
      expect(page.headers.get("cache-control")).toBe("no-cache");
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(await page.text()).toContain('<div id="root">');
      const head = await open("HEAD", path, BROWSER);
      expect(head.status).toBe(404);
      expect(head.headers.get("content-type")).toStartWith("text/html");
      expect(await head.text()).toBe("");
    }
  });

  test("every other client of such an address keeps the JSON 404 exactly: API accepts, */*, no Accept, a tie, non-GET, program paths", async () => {
    const json404 = async (res: Response) => {
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      if (res.body) expect(await res.json()).toEqual({ error: "NOT_FOUND", message: "No such route" });
    };
    for (const accept of ["application/json", "*/*", undefined, "text/html, */*", "application/json, text/html", "text/html;q=0"]) {
      await json404(await open("GET", "/nope", accept));
      await json404(await open("HEAD", "/nope", accept));
    }
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) await json404(await open(method, "/nope", BROWSER));
    // the paths of programs, even opened by a browser: the APIs (the webhook intakes are under /api),
    // MCP; on a server set up, as before it the setup guard answers /api first
    const ready = createTestApp();
    try {
      await setUp(ready);
      for (const path of ["/api/auth/nope", "/api/webhook/x/y/z", "/admin/api/nope", "/mcp/nope"]) await json404(await open("GET", path, BROWSER, ready));
    } finally {
      ready.cleanup();
    }
    // files keep their own 404s, never the page
    for (const path of ["/uploads/nope.png", "/assets/missing-file.js"]) {
      const res = await open("GET", path, BROWSER);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('<div id="root">');
    }
  });

  test("widget mode allows the Telegram widget script and frame, and nothing else from outside", async () => {
    const w = createTestApp();
    try {
      // The mode is all the headers depend on (saving a widget setup would ask the messenger).
      w.ctx.settings.loginMode = () => "messenger_widget";
      const csp = (await w.call("GET", "/login")).headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self' https://telegram.org");
      expect(csp).toContain("frame-src https://oauth.telegram.org");
      const dev = (await t.call("GET", "/login")).headers.get("content-security-policy") ?? "";
      expect(dev).not.toContain("telegram.org");
    } finally {
      w.cleanup();
    }
  });
});
