// The generator's side of ai_answer, psql_query's external connection and input timeouts: secrets
// pasted into node data (an API key in aiApiKeyEnv, a connection string in connectionString) are
// dropped with a warning that does not repeat them, and never reach the program; numbers are
// clamped to their documented ranges.
import { describe, expect, test } from "bun:test";
import { generateBot } from "../../src/scenario";
import { doc, node } from "./harness";

const build = (...nodes: ReturnType<typeof node>[]) =>
  generateBot(doc(node("t", "command_trigger", { command: "/start", autoTransitionTo: nodes[0]!.id }), ...nodes), { projectName: "P", userDatabaseEnabled: false });

describe("ai_answer at generation", () => {
  test("a key pasted where the env variable's name belongs is dropped and never printed", () => {
    const key = "sk-proj-PASTED-0123456789abcdef";
    const out = build(node("ai", "ai_answer", { aiModel: "gpt-4o-mini", aiApiKeyEnv: key }));
    const w = out.warnings.map((x) => x.message);
    expect(w).toContain('Node "ai": ai_answer aiApiKeyEnv must name a secret env variable of the token (A-Z, 0-9, _), not hold the key; it is ignored.');
    expect(JSON.stringify(out.warnings)).not.toContain(key);
    expect(out.code).not.toContain(key);
  });

  test("bad input: no model, a base URL that is no address, numbers out of range are clamped", () => {
    const out = build(node("ai", "ai_answer", { aiBaseUrl: "ftp://x", aiModel: " ", aiMemoryTurns: 999, aiTemperature: -3, aiMaxTokens: 10_000_000, aiTimeout: 9999, aiSendAnswer: false, aiSaveTo: "" }));
    const w = out.warnings.map((x) => x.message);
    expect(w).toContain('Node "ai": ai_answer aiBaseUrl is not an http(s) address; the node fails when it runs.');
    expect(w).toContain('Node "ai": ai_answer without aiModel fails when it runs.');
    expect(w).toContain('Node "ai": ai_answer neither sends nor saves its answer.');
    expect(out.code.includes("memory: 50,\n    temperature: 0,\n    maxTokens: 32000,\n    timeoutSeconds: 120,")).toBe(true);
  });
});

describe("psql_query's external connection at generation", () => {
  test("a connection string written into the scenario is never used nor carried into the program", () => {
    const secret = "postgres://shop:hunter2-pw@db.internal:5432/shop";
    const out = build(node("q", "psql_query", { query: "SELECT 1", connectionSource: "env", connectionEnvVar: "SHOP_DB", connectionString: secret }));
    expect(out.warnings.map((x) => x.message)).toContain('Node "q": psql_query connectionString is not used: put the connection string into a secret env variable of the token and name it in connectionEnvVar.');
    expect(out.code).not.toContain("hunter2");
    expect(out.code).toContain('pg: { env: "SHOP_DB", timeoutSeconds: 10 }');
  });
});

describe("input timeout at generation", () => {
  test("a target without seconds is reported; seconds are capped at 30 days", () => {
    const w = build(node("a", "input", { inputVariable: "x", inputTimeoutTarget: "m" }), node("m", "message", { messageText: "late" })).warnings.map((x) => x.message);
    expect(w).toContain('Node "a": inputTimeoutTarget without an inputTimeout (seconds) is never reached.');
    const out = build(node("a", "input", { inputVariable: "x", inputTimeout: 10 ** 9, inputTimeoutTarget: "m" }), node("m", "message", { messageText: "late" }));
    expect(out.warnings.map((x) => x.message)).toContain('Node "a": inputTimeout is capped at 2592000 seconds (30 days).');
    expect(out.code).toContain('timeout: { seconds: 2592000, target: "m" }');
  });
});
