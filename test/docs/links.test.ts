// The documentation a person who clones the repository reads: every relative link in README.md and
// docs/*.md resolves to a file inside the repository (and to a heading there when it names one),
// and docs/api.md names every route the server has.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { createTestApp } from "../support/app";
import { anchors, links } from "./markdown";

const root = resolve(import.meta.dir, "../..");

function documents(): string[] {
  // docs/ and its subfolders (the node reference lives in docs/nodes/)
  const docs = existsSync(join(root, "docs")) ? (readdirSync(join(root, "docs"), { recursive: true }) as string[]).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`) : [];
  return ["README.md", ...docs];
}

describe("documentation links", () => {
  test("README.md and docs/*.md exist", () => {
    expect(documents()).toEqual(expect.arrayContaining(["README.md", "docs/api.md", "docs/scenario.md", "docs/cli.md", "docs/configuration.md", "docs/operations.md", "docs/architecture.md", "docs/security.md", "docs/performance.md", "docs/testing.md"]));
  });

  test("the README is a front door: at most 200 lines, its links stay inside the repository, its pictures exist", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    const targets = links(readme);
    expect(targets.filter((t) => /^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith("/"))).toEqual([]);
    expect(targets.filter((t) => t.endsWith(".png"))).toEqual(["docs/images/editor.png", "docs/images/preview.png"]);
  });

  test("every relative link resolves to a file in the repository, and to a heading when it names one", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const doc of documents()) {
      const text = readFileSync(join(root, doc), "utf8");
      for (const target of links(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — not a file
        checked++;
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const file = path === "" ? join(root, doc) : resolve(dirname(join(root, doc)), decodeURIComponent(path));
        const rel = relative(root, file);
        if (rel.startsWith("..") || resolve(root, rel) !== file) {
          broken.push(`${doc}: ${target} leaves the repository`);
          continue;
        }
        if (!existsSync(file)) {
          broken.push(`${doc}: ${target} → ${rel} does not exist`);
          continue;
        }
        if (anchor && statSync(file).isFile() && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(anchor)) {
          broken.push(`${doc}: ${target} → no heading #${anchor} in ${rel}`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  test("the checker itself catches a link out of the repository, a missing file and a missing heading", () => {
    expect(links("see [a](../shared/notes.md), `[not](code.md)`, ![i](img.png) and [b](https://x.org)")).toEqual(["../shared/notes.md", "img.png", "https://x.org"]);
    expect(anchors("# Bot-manager API (`/api/bot/*`)\n## `restore FILE`\n## Limits\n## Limits")).toEqual(new Set(["bot-manager-api-apibot", "restore-file", "limits", "limits-1"]));
  });
});

describe("docs/api.md covers the API", () => {
  test("every route of the server appears in docs/api.md as METHOD and path", () => {
    const doc = readFileSync(join(root, "docs/api.md"), "utf8");
    // Rows are written `| GET | \`/api/x/{id}\` |`; routes are `/api/x/:id`.
    const documented = new Set<string>();
    for (const m of doc.matchAll(/\|\s*(GET|HEAD|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`/g)) documented.add(`${m[1]} ${m[2].replace(/\{[^}]+\}/g, ":p").replace(/\/$/, "")}`);
    const t = createTestApp();
    try {
      const routes = ((t.app as any).routes as { method: string; path: string }[])
        // Pages are not API: the Studio app, the admin HTML pages; WS is the upgrade of GET /api/events.
        .filter((r) => r.method !== "WS" && !(r.method === "GET" && /^\/(|login|projects|templates|account|assets)(\/.*)?$/.test(r.path)))
        .filter((r) => !(r.path.startsWith("/admin") && !r.path.startsWith("/admin/api")))
        .filter((r) => !["/api/docs/init.js", "/api/docs/swagger-ui-bundle.js", "/api/docs/swagger-ui.css"].includes(r.path))
        .map((r) => `${r.method} ${r.path.replace(/:[A-Za-z]+|\*/g, ":p").replace(/\/$/, "")}`);
      expect([...new Set(routes)].filter((r) => !documented.has(r))).toEqual([]);
      expect(routes.length).toBeGreaterThan(90);
    } finally {
      t.cleanup();
    }
  });
});
