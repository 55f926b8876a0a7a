// Document forms, counts, lossless parsing, validation messages and the generator's API.
import { describe, expect, test } from "bun:test";
import { ScenarioError } from "../../src/errors";
import { countNodes, documentSchema, generateBot, normalizeDocument, validateScenario } from "../../src/scenario";
import { doc, node } from "./harness";

describe("normalizeDocument", () => {
  const sheetsDoc = doc(node("a", "message", { messageText: "A" }));

  test("a sheets document comes back as the same object", () => {
    expect(normalizeDocument(sheetsDoc)).toBe(sheetsDoc);
  });

  test("the legacy flat form becomes one sheet; the edge list keeps its key name", () => {
    const nodes = [node("a", "message")];
    const connections = [{ id: "e1", source: "a", target: "a" }];
    const out = normalizeDocument({ nodes, connections, version: 2 }) as any;
    expect(out).toEqual({ version: 2, sheets: [{ id: "sheet-1", name: "Main", nodes, connections }] });
    expect(out.sheets[0].nodes).toBe(nodes);
    const withEdges = normalizeDocument({ nodes, edges: connections }) as any;
    expect(withEdges.sheets[0].edges).toBe(connections);
    expect("connections" in withEdges.sheets[0]).toBe(false);
  });

  test("json_data holding the document or its JSON string", () => {
    expect(normalizeDocument({ json_data: sheetsDoc })).toBe(sheetsDoc);
    expect(normalizeDocument({ json_data: JSON.stringify(sheetsDoc) })).toEqual(sheetsDoc);
    expect(normalizeDocument({ json_data: JSON.stringify({ nodes: [] }) })).toEqual({ sheets: [{ id: "sheet-1", name: "Main", nodes: [] }] });
  });

  test("a template record gives its data; a JSON string is parsed", () => {
    const record = { name: "T", category: "utility", version: "2.2.0", data: sheetsDoc };
    expect(normalizeDocument(record)).toBe(sheetsDoc);
    expect(normalizeDocument(JSON.stringify(record))).toEqual(sheetsDoc);
  });

  test("anything else comes back as given", () => {
    for (const v of [null, 5, "not json", [], { foo: 1 }, { data: "x" }, { data: { foo: 1 } }]) {
      expect(normalizeDocument(v)).toEqual(v as any);
    }
  });
});

test("countNodes over all sheets, tolerant of broken input", () => {
  const d = { sheets: [{ nodes: [node("a", "message"), node("b", "message")] }, { nodes: [node("c", "input")] }, {}] };
  expect(countNodes(d)).toEqual({ sheetsCount: 3, nodesCount: 3 });
  expect(countNodes(null)).toEqual({ sheetsCount: 0, nodesCount: 0 });
  expect(countNodes({ sheets: "x" })).toEqual({ sheetsCount: 0, nodesCount: 0 });
});

test("the schema keeps unknown fields and never fails on odd field values", () => {
  const input = {
    custom: { a: 1 },
    sheets: [{ id: "s", nodes: [{ id: "n", type: "message", extra: true, data: { messageText: 5, buttons: "x", mine: [1] } }], viewState: { zoom: 1 } }],
  };
  const parsed = documentSchema.parse(input) as any;
  expect(parsed.custom).toEqual({ a: 1 });
  expect(parsed.sheets[0].nodes[0].extra).toBe(true);
  expect(parsed.sheets[0].nodes[0].data).toEqual(input.sheets[0].nodes[0].data);
  expect(parsed.sheets[0].viewState).toEqual({ zoom: 1 });
});

describe("validateScenario", () => {
  const errorsOf = (d: unknown) => validateScenario(d).errors.map((e) => e.message);
  const warningsOf = (d: unknown) => validateScenario(d).warnings.map((e) => e.message);

  test("errors: not an object, sheets not an array", () => {
    expect(errorsOf(null)).toEqual(["The scenario must be a JSON object, got null."]);
    expect(errorsOf([])).toEqual(["The scenario must be a JSON object, got an array."]);
    expect(errorsOf({})).toEqual(['"sheets" must be an array of sheets (it is missing).']);
    expect(errorsOf({ sheets: {} })).toEqual(['"sheets" must be an array of sheets (got object).']);
  });

  test("errors: broken sheets and nodes, with where they are", () => {
    const d = {
      sheets: [
        "x",
        { id: "s2", name: "Second", nodes: 3 },
        { id: "s3", name: "Third", nodes: [null, { type: "message" }, { id: "a" }, { id: "b", type: "message" }, { id: "b", type: "input" }] },
        { id: "s4", nodes: [{ id: "a", type: "message" }] },
      ],
    };
    expect(validateScenario(d).errors).toEqual([
      { message: "Sheet #1 must be an object, got string." },
      { sheetId: "s2", message: '"nodes" of sheet "Second" must be an array, got number.' },
      { sheetId: "s3", message: 'Node #1 on sheet "Third" must be an object, got null.' },
      { sheetId: "s3", message: 'Node #2 on sheet "Third" has no "id".' },
      { sheetId: "s3", nodeId: "a", message: 'Node "a" on sheet "Third" has no "type".' },
      { sheetId: "s3", nodeId: "b", message: 'Duplicate node id "b": it is used twice on sheet "Third".' },
    ]);
    const across = { sheets: [{ id: "s1", name: "One", nodes: [node("x", "message")] }, { id: "s2", name: "Two", nodes: [node("x", "message")] }] };
    expect(errorsOf(across)).toEqual(['Duplicate node id "x": it is used on sheet "One" and on sheet "Two".']);
  });

  test("warnings: dangling targets, unsupported types, unreachable nodes, buttons without target", () => {
    const d = doc(
      node("t", "command_trigger", { command: "/start", autoTransitionTo: "m" }),
      node("m", "message", {
        messageText: "x",
        keyboardType: "inline",
        buttons: [
          { id: "1", text: "Gone", action: "goto", target: "missing" },
          { id: "2", text: "Nowhere", action: "goto", target: "" },
          { id: "3", text: "Link", action: "url" },
        ],
        enableAutoTransition: true,
        autoTransitionTo: "h",
      }),
      node("h", "client_auth", { autoTransitionTo: "after-http" }),
      node("after-http", "message", { messageText: "reached through a Level 2 node" }),
      node("w", "wizard", {}),
      node("lonely", "message", { messageText: "no way here" }),
    );
    expect(validateScenario(d).errors).toEqual([]);
    expect(warningsOf(d)).toEqual([
      'Node "h" has type "client_auth", which Botloom does not run: it logs in a Telegram user account, which Botloom does not hold; the bot skips it.',
      'Node "w" has unknown type "wizard"; the bot skips it.',
      'Node "m": button "Nowhere" has no target.',
      'Node "m": button "Link" has no URL.',
      'Node "m": button "Gone" points to node "missing", which does not exist.',
      'Node "w" (wizard) cannot be reached from any command or trigger.',
      'Node "lonely" (message) cannot be reached from any command or trigger.',
    ]);
    expect(validateScenario(d).warnings[0]).toEqual({ nodeId: "h", sheetId: "s1", code: "NODE_TYPE_OUT_OF_SCOPE", message: expect.any(String) });
  });

  test("contact, location and complete buttons lead to nodes: reachable, dangling targets reported", () => {
    const d = doc(
      node("t", "command_trigger", { command: "/start", autoTransitionTo: "m" }),
      node("m", "message", {
        messageText: "x",
        keyboardType: "reply",
        buttons: [
          { id: "1", text: "Phone", action: "contact", target: "after-contact" },
          { id: "2", text: "Where", action: "location", target: "after-location" },
          { id: "3", text: "Done", action: "complete", target: "after-complete" },
          { id: "4", text: "Share", action: "goto", requestContact: true, target: "after-flag" },
          { id: "5", text: "Bye", action: "complete", target: "missing" },
        ],
      }),
      ...["after-contact", "after-location", "after-complete", "after-flag"].map((id) => node(id, "message", { messageText: id })),
    );
    expect(warningsOf(d)).toEqual(['Node "m": button "Bye" points to node "missing", which does not exist.']);
  });
});

describe("generateBot", () => {
  const simple = doc(
    node("t", "command_trigger", { command: "/start", autoTransitionTo: "m" }),
    node("m", "message", { messageText: "Hi" }),
    node("h", "client_auth", {}),
  );

  test("invalid documents throw ScenarioError with the issues", () => {
    let err: unknown;
    try {
      generateBot({ sheets: [{ nodes: [{ id: "a" }, { id: "a", type: "message" }] }] }, { projectName: "P", userDatabaseEnabled: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const e = err as ScenarioError;
    expect(e.message).toBe('Node "a" on sheet #1 has no "type".');
    expect(e.issues).toEqual([{ nodeId: "a", message: 'Node "a" on sheet #1 has no "type".' }]);
    expect(() => generateBot("nope", { projectName: "P", userDatabaseEnabled: false })).toThrow("The scenario must be a JSON object, got string.");
  });

  test("code, line count, warnings; settings and skipped nodes are visible in the program", () => {
    const out = generateBot(simple, {
      projectName: "My bot",
      userDatabaseEnabled: true,
      enableLogging: true,
      flags: { catchAllHandlers: true, protectContent: false, contentCache: true },
      mediaCache: { "b.jpg": "B", "a.jpg": "A" },
    });
    expect(out.lines).toBe(out.code.split("\n").length - 1);
    expect(out.code.startsWith("// My bot — a Telegram bot generated by Botloom")).toBe(true);
    expect(out.code).toContain('import { Bot, Context, GrammyError, InlineKeyboard, InputFile, Keyboard, webhookCallback } from "grammy";');
    expect(out.code).toContain('import { Cron } from "croner";');
    expect(out.code).toContain("  userDatabase: true,\n");
    expect(out.code).toContain("  logging: true,\n");
    expect(out.code).toContain("  catchAll: true,\n");
    expect(out.code).toContain("  protectContent: false,\n");
    expect(out.code).toContain("  contentCache: true,\n");
    expect(out.code).toContain('const MEDIA_CACHE: Record<string, string> = {\n  "a.jpg": "A",\n  "b.jpg": "B",\n};');
    expect(out.code).toContain("//   client_auth: h");
    // The table shapes come from runtime/tables.ts as text: without its file comment and `export`s.
    expect(out.code).toContain("// ─── Scenario table shapes ───");
    expect(out.code).toContain("\ninterface MessageNode {\n");
    expect(out.code).toContain("\ntype ScenarioNode = MessageNode | ConditionNode | SetNode | DelayNode | InputNode | LogicNode | ActionNode;\n");
    expect(out.code).not.toContain("program.ts embeds it");
    expect(out.code).not.toMatch(/^export /m);
    expect(out.warnings.map((w) => w.message)).toContain('Node "h" has type "client_auth", which Botloom does not run: it logs in a Telegram user account, which Botloom does not hold; the bot skips it.');
  });

  test("deterministic: same input and flags, same bytes (map order does not matter)", () => {
    const a = generateBot(simple, { projectName: "P", userDatabaseEnabled: false, mediaCache: { x: "1", y: "2" } });
    const b = generateBot(structuredClone(simple), { projectName: "P", userDatabaseEnabled: false, mediaCache: { y: "2", x: "1" } });
    expect(b.code).toBe(a.code);
  });

  test("one command, one reply: a trigger beats legacy claims; a second trigger is reported", () => {
    const d = doc(
      node("legacy", "start", { messageText: "legacy" }),
      node("t1", "command_trigger", { command: "/start", autoTransitionTo: "m1" }),
      node("t2", "command_trigger", { command: "start", autoTransitionTo: "m2" }),
      node("m1", "message", { messageText: "one" }),
      node("m2", "message", { messageText: "two" }),
    );
    const out = generateBot(d, { projectName: "P", userDatabaseEnabled: false });
    const commands = out.code.slice(out.code.indexOf("const COMMANDS"), out.code.indexOf("const TEXT_TRIGGERS"));
    expect(commands).toContain('{ command: "start", target: "m1", description: "start", via: "t1" }');
    expect(commands.match(/command: "start"/g)?.length).toBe(1);
    expect(out.warnings.map((w) => w.message)).toContain('Node "t2": command /start is already handled by trigger "t1"; this trigger is ignored.');
  });
});
