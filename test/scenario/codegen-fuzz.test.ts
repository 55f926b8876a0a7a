// Property test of the generator (issue 12, code injection): a scenario string reaches the
// program only inside string literals. 2,000+ hostile documents (fixed seed) put payloads with
// newlines, U+2028/U+2029, backticks, `${`, `*/`, `</script>`, NUL, quotes and code into every
// string field of every node type, sheets, ids, types, keys, the project name, variables,
// commands and the media cache. Each program is parsed with a real parser (@babel/parser,
// TypeScript plugin: TypeScript 7's own JS API parses only through its Go server) and must have
// the syntax tree of the programs of benign twin documents of the same shape, where every
// scenario value is abstracted to "a literal": the scenario constants (OPTIONS, MEDIA_CACHE,
// NODES, COMMANDS, TEXT_TRIGGERS) must contain literals only, the header only comments, and the
// runtime around them must be byte-for-byte the runtime of every program.
import { describe, expect, test } from "bun:test";
import { parse } from "@babel/parser";
import { generateBot, type GenerateOptions } from "../../src/scenario";
import { ScenarioError } from "../../src/errors";

const SEED = 0x5eed12;
const DOCUMENTS = 2000;

/** mulberry32: small, fast, deterministic. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  "\n", "\r\n", "\r", "\u2028", "\u2029", "`", "${", "${process.exit(3)}", "*/", "/*", "</script>", "<!--", "-->", "\u0000",
  '"', "'", "\\", "\\u2028", "//", "\ud800", "\udfff", "🤖", "\u0085", "\v\f", "\t",
  "console.log(1);//", "\nconsole.log(1);//", '"];process.exit(7);//', "\n}];process.exit(7);[{//", "x\nconsole.log(1);//",
  "`; require('fs'); `", "*/ process.exit(1) /*", "{message_text}", "{first_name}", "/etc/passwd", "__proto__", "constructor",
  "Привет", "a.b.c", "1e999", "-0", "NaN",
];

interface Maker {
  /** a free string slot */
  s(): string;
  /** the id of the i-th node (unique within the document, as the validator requires) */
  id(i: number): string;
  /** an object key slot */
  key(): string;
}

function hostileMaker(r: () => number): Maker {
  const payload = () => {
    const n = 1 + Math.floor(r() * 4);
    let out = "";
    for (let i = 0; i < n; i++) out += FRAGMENTS[Math.floor(r() * FRAGMENTS.length)];
    return out;
  };
  return { s: payload, key: payload, id: (i) => (r() < 0.5 ? `${payload()}${i}` : `${i}${payload()}`) };
}

function benignMaker(): Maker {
  let n = 0;
  return { s: () => `b${n++}`, key: () => `k${n++}`, id: (i) => `n${i}` };
}

/**
 * A document whose structure comes from `r` alone and whose free strings come from `m`: the same
 * seed with a hostile and a benign maker gives twins of the same shape.
 */
function makeDocument(r: () => number, m: Maker) {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const chance = (p: number) => r() < p;
  /** an enumerated field: a legitimate value or a free string */
  const oneOf = (xs: readonly string[]) => (chance(0.5) ? pick(xs) : m.s());
  const count = 1 + Math.floor(r() * 7);
  const ids = Array.from({ length: count }, (_, i) => m.id(i));
  const ref = () => (chance(0.7) ? pick(ids) : m.s());
  const strings = (n: number) => Array.from({ length: n }, () => m.s());
  const buttons = () =>
    Array.from({ length: Math.floor(r() * 4) }, () => ({
      id: m.s(),
      text: m.s(),
      action: oneOf(["goto", "command", "url", "contact", "location", "complete"]),
      target: ref(),
      url: chance(0.3) ? m.s() : undefined,
    }));
  const keyboard = () => ({
    keyboardType: oneOf(["inline", "reply", "none"]),
    buttons: buttons(),
    keyboardLayout: chance(0.3) ? { rows: [{ buttonIds: strings(2) }], columns: 2 } : undefined,
    oneTimeKeyboard: chance(0.5),
  });
  const collect = () => ({
    collectUserInput: chance(0.5),
    inputVariable: m.s(),
    inputTargetNodeId: ref(),
    enablePhotoInput: chance(0.3),
    photoInputVariable: m.s(),
    videoInputVariable: m.s(),
    audioInputVariable: m.s(),
    documentInputVariable: m.s(),
    inputValidation: chance(0.5) ? m.s() : { type: oneOf(["number", "email", "phone", "regex"]), pattern: m.s(), min: 1, max: 9 },
    inputRetryMessage: m.s(),
  });
  const conditional = () => ({
    id: m.s(),
    condition: oneOf(["user_data_exists", "user_data_equals", "user_data_contains", "first_time", "is_admin"]),
    variableName: m.s(),
    variableNames: strings(2),
    logicOperator: oneOf(["AND", "OR"]),
    expectedValue: m.s(),
    value: m.s(),
    messageText: m.s(),
    formatMode: oneOf(["html", "markdown", "text"]),
    keyboardNodeId: ref(),
    nextNodeAfterInput: ref(),
    ...keyboard(),
    ...collect(),
  });
  const message = () => ({
    messageText: m.s(),
    formatMode: oneOf(["html", "markdown", "text"]),
    keyboardNodeId: ref(),
    enableAutoTransition: chance(0.3),
    autoTransitionTo: ref(),
    imageUrl: chance(0.3) ? m.s() : undefined,
    videoUrl: chance(0.2) ? m.s() : undefined,
    audioUrl: chance(0.2) ? m.s() : undefined,
    documentUrl: chance(0.2) ? m.s() : undefined,
    attachedMedia: chance(0.3) ? [m.s(), { url: m.s(), type: oneOf(["photo", "video", "audio", "document"]) }] : undefined,
    mediaCaption: m.s(),
    enableConditionalMessages: chance(0.3),
    conditionalMessages: chance(0.3) ? [conditional()] : undefined,
    command: chance(0.5) ? m.s() : undefined,
    description: m.s(),
    showInMenu: chance(0.5),
    synonyms: strings(2),
    ...keyboard(),
    ...collect(),
  });
  const dataOf = (type: string): Record<string, unknown> => {
    switch (type) {
      case "start":
      case "command":
      case "message":
      case "photo":
      case "video":
      case "audio":
      case "document":
        return message();
      case "keyboard":
        return keyboard();
      case "command_trigger":
        return { command: m.s(), description: m.s(), showInMenu: chance(0.5), autoTransitionTo: ref() };
      case "text_trigger":
        return { textSynonyms: strings(2), textMatchType: oneOf(["exact", "contains"]), autoTransitionTo: ref() };
      case "input":
        return { inputType: oneOf(["text", "number", "email", "phone", "photo", "any"]), inputPrompt: m.s(), ...collect() };
      case "condition":
        return {
          variable: m.s(),
          branches: Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
            id: m.s(),
            label: m.s(),
            operator: oneOf(["equals", "contains", "matches", "greater_than", "is_empty", "between"]),
            value: m.s(),
            value2: m.s(),
            target: ref(),
          })),
          defaultTargetId: ref(),
        };
      case "set_variable":
        return {
          assignments: [{ id: m.s(), variable: m.s(), value: m.s(), mode: oneOf(["set", "append", "increment", "regex_extract"]), pattern: m.s(), regexDefault: m.s() }],
          variable: m.s(),
          value: m.s(),
          mode: oneOf(["set", "append"]),
          regexPattern: m.s(),
          regexDefault: m.s(),
          autoTransitionTo: ref(),
        };
      case "delay":
        return { delaySeconds: chance(0.5) ? m.s() : 1, autoTransitionTo: ref() };
      default:
        return { anything: m.s() };
    }
  };
  const TYPES = ["start", "command", "message", "photo", "video", "audio", "document", "keyboard", "command_trigger", "text_trigger", "input", "condition", "set_variable", "delay", "broadcast", "psql_query"];
  const nodes = ids.map((id) => {
    const type = chance(0.12) ? m.s() : pick(TYPES);
    const data = dataOf(type);
    // unknown fields with hostile names: kept by the document, never code
    if (chance(0.3)) data[m.key()] = m.s();
    return { id, type, position: { x: 0, y: 0 }, data };
  });
  const sheets = [{ id: m.s(), name: m.s(), nodes, edges: [{ id: m.s(), source: pick(ids), target: pick(ids) }] }];
  if (chance(0.3)) sheets.push({ id: m.s(), name: m.s(), nodes: [], edges: [] });
  const options: GenerateOptions = {
    projectName: m.s(),
    userDatabaseEnabled: chance(0.5),
    flags: { catchAllHandlers: chance(0.5), protectContent: chance(0.5), contentCache: chance(0.5) },
    mediaCache: chance(0.4) ? { [m.key()]: m.s(), [m.key()]: m.s() } : {},
  };
  return { doc: { version: 2, sheets }, options };
}

// ─── Reading a program ─────────────────────────────────────────────────────────

const SETTINGS_MARK = "// ─── Settings fixed at generation time";
const RUNTIME_TAIL_MARK = "// ─── Tables of the project's database";
const DATA_CONSTANTS = new Set(["OPTIONS", "MEDIA_CACHE", "NODES", "COMMANDS", "TEXT_TRIGGERS"]);
/** What a scenario value may be made of inside the data constants. */
const LITERAL_KINDS = new Set(["ArrayExpression", "ObjectExpression", "ObjectProperty", "StringLiteral", "NumericLiteral", "BooleanLiteral", "NullLiteral"]);

const reference = generateBot({ sheets: [] }, { projectName: "Reference", userDatabaseEnabled: false });
/** The constant runtime before the settings (imports, table types, state types) and after the tables. */
const RUNTIME_HEAD = reference.code.slice(reference.code.indexOf("import { Database }"), reference.code.indexOf(SETTINGS_MARK));
const RUNTIME_TAIL = reference.code.slice(reference.code.indexOf(RUNTIME_TAIL_MARK));

const parseModule = (source: string) => parse(source, { sourceType: "module", plugins: ["typescript"], errorRecovery: false });

/** Every scenario value inside a data constant must be a plain literal (an identifier only as a key or `undefined`). */
function assertLiteral(node: any, path: string) {
  if (node.type === "Identifier" && node.name === "undefined") return;
  if (!LITERAL_KINDS.has(node.type)) throw new Error(`${path}: ${node.type} in a scenario constant`);
  if (node.type === "ArrayExpression") node.elements.forEach((e: any, i: number) => assertLiteral(e, `${path}[${i}]`));
  if (node.type === "ObjectExpression") node.properties.forEach((p: any) => assertLiteral(p, path));
  if (node.type === "ObjectProperty") {
    if (node.computed || node.shorthand) throw new Error(`${path}: computed or shorthand key`);
    if (node.key.type !== "Identifier" && node.key.type !== "StringLiteral") throw new Error(`${path}: key ${node.key.type}`);
    assertLiteral(node.value, `${path}.${node.key.name ?? node.key.value}`);
  }
}

/** The tree with scenario values abstracted: kinds of every node, data constants reduced to their name and type annotation. */
function shape(node: any): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (!node || typeof node !== "object" || typeof node.type !== "string") return null;
  if (node.type === "VariableDeclarator" && DATA_CONSTANTS.has(node.id?.name)) {
    assertLiteral(node.init, node.id.name);
    return ["DataConstant", node.id.name, shape(node.id.typeAnnotation)];
  }
  const out: unknown[] = [node.type];
  for (const [k, v] of Object.entries(node)) {
    if (["loc", "start", "end", "extra", "comments", "leadingComments", "trailingComments", "innerComments", "range", "errors", "tokens"].includes(k)) continue;
    if (v && typeof v === "object") out.push([k, shape(v)]);
    else if (k === "name" || k === "operator" || k === "kind") out.push([k, v]);
  }
  return out;
}

/**
 * The program's tree in three parts: the header must be comments only, the runtime around the
 * scenario must be exactly the runtime of every program, and the scenario part must parse into
 * its constants. Parsing the parts (each complete on its own, joined at statement boundaries)
 * keeps 4,000 programs within seconds; a sample is also parsed whole below.
 */
function programShape(code: string) {
  const headAt = code.indexOf(RUNTIME_HEAD);
  if (headAt < 0) throw new Error("the runtime head is not intact");
  const header = code.slice(0, headAt);
  const headerTree = parseModule(header);
  if (headerTree.program.body.length !== 0) throw new Error("the header holds code, not only comments");
  const dataAt = headAt + RUNTIME_HEAD.length;
  if (!code.endsWith(RUNTIME_TAIL)) throw new Error("the runtime tail is not intact");
  const data = code.slice(dataAt, code.length - RUNTIME_TAIL.length);
  if (!data.startsWith(SETTINGS_MARK)) throw new Error("the scenario part does not start where the runtime head ends");
  return shape(parseModule(data).program.body);
}

function generated(doc: unknown, options: GenerateOptions): string | null {
  try {
    return generateBot(doc, options).code;
  } catch (e) {
    // A document the validator refuses (e.g. duplicate ids) generates nothing: nothing to inject into.
    if (e instanceof ScenarioError) return null;
    throw e;
  }
}

describe("generated code never carries scenario strings outside string literals", () => {
  test("the issue's reproduction: a node type with a newline produces no code", () => {
    const hostile = { sheets: [{ id: "s", name: "S", nodes: [{ id: "n1", type: "start", data: { messageText: "hi" } }, { id: "n2", type: "x\nconsole.log(1);//" }] }] };
    const benign = { sheets: [{ id: "s", name: "S", nodes: [{ id: "n1", type: "start", data: { messageText: "hi" } }, { id: "n2", type: "x" }] }] };
    const code = generated(hostile, { projectName: "P", userDatabaseEnabled: false })!;
    expect(code.split(/\r\n|[\n\r\u2028\u2029]/).some((line) => line.trim() === "console.log(1);//")).toBe(false);
    expect(programShape(code)).toEqual(programShape(generated(benign, { projectName: "P", userDatabaseEnabled: false })!));
    // The other line terminators of JavaScript, in an id, a type and the project name.
    const plain = generated({ sheets: [{ id: "s", nodes: [{ id: "n", type: "t" }] }] }, { projectName: "P", userDatabaseEnabled: false })!;
    for (const separator of ["\u2028", "\u2029", "\r"]) {
      const evil = `${separator}process.exit(9);//`;
      const other = generated({ sheets: [{ id: "s", nodes: [{ id: `n${evil}`, type: `t${evil}` }] }] }, { projectName: `P${evil}`, userDatabaseEnabled: false })!;
      expect(other.split(/\r\n|[\n\r\u2028\u2029]/).some((line) => line.startsWith("process.exit(9)"))).toBe(false);
      expect(programShape(other)).toEqual(programShape(plain));
    }
  });

  test(`${DOCUMENTS} hostile documents (seed ${SEED.toString(16)}) give the syntax tree of their benign twins`, () => {
    // With the scenario's values abstracted, a benign program's tree does not depend on the
    // document: the twins of every TWIN_EVERY-th document are generated and must all agree, and
    // every hostile program must have that tree (half the work of a twin per document, same proof).
    const TWIN_EVERY = 8;
    const timing = { generate: 0, check: 0 };
    let benignShape: unknown;
    let twins = 0;
    let compared = 0;
    let refused = 0;
    let wholeParsed = 0;
    for (let i = 0; i < DOCUMENTS; i++) {
      let t0 = performance.now();
      const hostile = makeDocument(rng(SEED + i), hostileMaker(rng(~(SEED + i))));
      const hostileCode = generated(hostile.doc, hostile.options);
      const twin = i % TWIN_EVERY === 0 || benignShape === undefined ? makeDocument(rng(SEED + i), benignMaker()) : undefined;
      const benignCode = twin ? generated(twin.doc, twin.options) : undefined;
      timing.generate += performance.now() - t0;
      t0 = performance.now();
      if (benignCode) {
        const shapeOfTwin = programShape(benignCode);
        if (benignShape === undefined) benignShape = shapeOfTwin;
        else expect([i, shapeOfTwin]).toEqual([i, benignShape]);
        twins++;
      }
      if (hostileCode === null) {
        refused++;
        continue;
      }
      let hostileShape: unknown;
      try {
        hostileShape = programShape(hostileCode);
      } catch (e) {
        throw new Error(`document ${i}: ${e instanceof Error ? e.message : e}\n${JSON.stringify(hostile).slice(0, 2000)}`);
      }
      expect([i, hostileShape]).toEqual([i, benignShape]);
      compared++;
      // The parts are parsed on their own above; a sample is parsed whole as well.
      if (i % (TWIN_EVERY * 50) === 0 && benignCode) {
        const whole = parseModule(hostileCode).program.body;
        const reference = parseModule(benignCode).program.body;
        expect(whole.map((s: any) => s.type)).toEqual(reference.map((s: any) => s.type));
        wholeParsed++;
      }
      timing.check += performance.now() - t0;
    }
    console.log(`fuzz: ${compared} compared, ${refused} refused by the validator, ${twins} benign twins, ${wholeParsed} parsed whole; ms generating ${timing.generate.toFixed(0)}, checking ${timing.check.toFixed(0)}`);
    // Most hostile documents are valid documents (the validator refuses e.g. an id that is blank).
    expect(compared).toBeGreaterThan(DOCUMENTS * 0.9);
    expect(compared + refused).toBe(DOCUMENTS);
    expect(twins).toBeGreaterThanOrEqual(DOCUMENTS / TWIN_EVERY);
    expect(wholeParsed).toBeGreaterThanOrEqual(4);
  }, 120_000);

  test("the shape check itself fails on injected code, a broken literal and a changed runtime", () => {
    const code = generated({ sheets: [{ id: "s", nodes: [{ id: "a", type: "start", data: { messageText: "hi" } }] }] }, { projectName: "P", userDatabaseEnabled: false })!;
    expect(() => programShape(code.replace("// Edit the scenario", "process.exit(1);\n// Edit the scenario"))).toThrow(/header holds code/);
    // the text's literal (the last "hi"; the first is the node's comment)
    const at = code.lastIndexOf('"hi"');
    const splice = (by: string) => code.slice(0, at) + by + code.slice(at + 4);
    expect(() => programShape(splice('"hi" + process.exit(1)'))).toThrow(/BinaryExpression in a scenario constant/);
    expect(() => programShape(splice("`hi${process.exit(1)}`"))).toThrow(/TemplateLiteral in a scenario constant/);
    expect(() => programShape(code.replace("const COMMANDS", "process.exit(1);\nconst COMMANDS"))).not.toThrow();
    expect(programShape(code.replace("const COMMANDS", "process.exit(1);\nconst COMMANDS"))).not.toEqual(programShape(code));
    expect(() => programShape(code.replace("function loadState", "function loadState2"))).toThrow(/runtime tail/);
    expect(() => programShape(splice('"hi\n"'))).toThrow();
  });
});
