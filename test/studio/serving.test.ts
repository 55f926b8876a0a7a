// The Studio web app is served by the same server: index.html for app routes (no-cache, strict
// headers), hashed assets immutable and gzip when asked; /api, /admin and /uploads never fall back.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../support/app";
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
