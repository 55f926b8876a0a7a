// The generator's side of the logic and data nodes: hostile or broken node data compiles (the
// bot stays runnable) and the author gets a warning naming the node and the problem.
import { describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { doc, node } from "./harness";

const messages = (...nodes: ReturnType<typeof node>[]) =>
  generateBot(doc(node("t", "command_trigger", { command: "/start", autoTransitionTo: nodes[0].id }), ...nodes), { projectName: "P", userDatabaseEnabled: false }).warnings.map((w) => w.message);

describe("logic and data nodes at generation", () => {
  test("http_request: malformed headers and query JSON, no URL, unknown method", () => {
    const w = messages(node("h", "http_request", { httpRequestHeaders: "{not json", httpRequestQueryParams: "[1]", httpRequestMethod: "FETCH" }));
    expect(w).toContain('Node "h": http_request without a URL fails when it runs.');
    expect(w).toContain('Node "h": httpRequestHeaders is not a JSON object; the request fails when it runs.');
    expect(w).toContain('Node "h": httpRequestQueryParams is not a JSON object; the request fails when it runs.');
    expect(w).toContain('Node "h": http_request method "FETCH" is unknown; GET is used.');
  });

  test("http_request: JSON templates with variables are not reported", () => {
    const w = messages(node("h", "http_request", { httpRequestUrl: "https://x.test", httpRequestHeaders: '{"A": "{token}", "B": "b-{id}"}', httpRequestQueryParams: '{"n": {count}}' }));
    expect(w.filter((m) => m.includes("JSON"))).toEqual([]);
  });

  test("psql_query: no query, external connections; bot_table: bad names and operations", () => {
    const w = messages(
      node("q", "psql_query", { query: " ", connectionSource: "env", autoTransitionTo: "bt" }),
      node("bt", "bot_table", { tableName: "bad name", operation: "explode" }),
    );
    expect(w).toContain('Node "q": psql_query without a query fails when it runs.');
    expect(w).toContain('Node "q": psql_query on an external PostgreSQL needs connectionEnvVar, the name of a secret env variable of the token (A-Z, 0-9, _); the node fails when it runs.');
    expect(w).toContain('Node "bt": bot_table operation "explode" is unknown; it reads.');
    expect(w).toContain('Node "bt": bot_table needs a tableName of letters, digits and _; the node fails when it runs.');
  });

  test("set_variable: unknown modes and invalid patterns; loop and convert_file without variables", () => {
    const w = messages(
      node("s", "set_variable", { assignments: [{ variable: "a", value: "1", mode: "teleport" }, { variable: "b", value: "x", mode: "regex_extract", pattern: "([" }], autoTransitionTo: "l" }),
      node("l", "loop", { afterLoopTo: "c" }),
      node("c", "convert_file", {}),
    );
    expect(w).toContain('Node "s": assignment to "a" has unknown mode "teleport"; it is skipped.');
    expect(w).toContain('Node "s": regex_extract pattern "([" is invalid; the default is stored.');
    expect(w).toContain('Node "l": loop without sourceVariable runs nothing.');
    expect(w).toContain('Node "c": convert_file without convertFileInputVariable writes an empty file.');
  });

  test("the same scenario always gives the same program", () => {
    const d = doc(
      node("t", "command_trigger", { command: "/start", autoTransitionTo: "h" }),
      node("h", "http_request", { httpRequestUrl: "https://x.test/{user_id}", autoTransitionTo: "q" }),
      node("q", "psql_query", { query: "SELECT 1", saveResultTo: "r" }),
    );
    const a = generateBot(d, { projectName: "P", userDatabaseEnabled: false }).code;
    expect(generateBot(JSON.parse(JSON.stringify(d)), { projectName: "P", userDatabaseEnabled: false }).code).toBe(a);
    expect(a.includes('// 0 · h · http_request → http · sheet "Main"')).toBe(true);
  });
});
