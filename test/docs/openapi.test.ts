// The web app's API types are generated from web/src/api/openapi.json (scripts/build-web.ts); that
// file must be the document the server serves today, and it must describe the records the app reads.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { openapiDocument, SPEC_FILE } from "../../scripts/openapi-spec";
import { API_TAGS } from "../../src/http/openapi-tags";

/** Paths whose 200 answer web/src/api/types.ts reads. */
const READ_BY_THE_APP = ["/api/auth/me", "/api/auth/config", "/api/projects/list", "/api/bot/projects/{id}/tokens", "/api/bot/tokens/{tokenId}/status", "/api/projects/{id}/media", "/api/templates", "/api/templates/{id}", "/api/preview/{sid}", "/api/preview/{sid}/transcript"];

describe("the recorded OpenAPI document", () => {
  test("is the one the app serves (re-record with `bun scripts/openapi-spec.ts --write`)", async () => {
    const served = await openapiDocument();
    expect(readFileSync(SPEC_FILE, "utf8")).toBe(served);
  });

  test("files every operation under one of the declared tags, each tag used (groups in /api/docs)", () => {
    const doc = JSON.parse(readFileSync(SPEC_FILE, "utf8"));
    const declared = (doc.tags ?? []).map((t: { name: string }) => t.name);
    expect(declared).toEqual(API_TAGS.map((t) => t.name));
    const wrong: string[] = [];
    const used = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.tags?.length !== 1 || !declared.includes(op.tags[0])) wrong.push(`${method} ${path} ${JSON.stringify(op.tags)}`);
        else used.add(op.tags[0]);
      }
    }
    expect(wrong).toEqual([]);
    expect(declared.filter((t: string) => !used.has(t))).toEqual([]);
  });

  test("describes the JSON 200 answer of every path the web app reads a record from", () => {
    const doc = JSON.parse(readFileSync(SPEC_FILE, "utf8"));
    const missing = READ_BY_THE_APP.filter((p) => {
      const schema = doc.paths?.[p]?.get?.responses?.["200"]?.content?.["application/json"]?.schema;
      return !schema || (schema.type !== "object" && schema.type !== "array");
    });
    expect(missing).toEqual([]);
  });

  test("the web app's types are derived from it, none written by hand", () => {
    const types = readFileSync(new URL("../../web/src/api/types.ts", import.meta.url), "utf8");
    expect(types).toContain('from "./openapi-types"');
    for (const name of ["User", "AuthConfig", "ProjectListItem", "TokenItem", "BotStatus", "MediaItem", "TemplateItem"]) {
      expect({ name, alias: new RegExp(`export type ${name} = Answer<`).test(types) }).toEqual({ name, alias: true });
    }
    const preview = readFileSync(new URL("../../web/src/preview/api.ts", import.meta.url), "utf8");
    expect(preview).not.toMatch(/export interface/);
    expect(preview).toContain('export type PreviewTranscript = Answer<"/api/preview/{sid}/transcript">');
  });
});
