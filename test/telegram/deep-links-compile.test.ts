// Issue 30 item 2 in the generator: command_trigger nodes with deepLinkParam join their command's
// row as links (exact ones first, then the longest prefix); a parameter Telegram can never send
// and a second trigger for the same parameter are warnings; a plain trigger still owns the command.
import { describe, expect, test } from "bun:test";
import { compileScenario } from "../../src/scenario/codegen/compile";
import { documentNodesSchema } from "../../src/scenario/model";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const compile = (...nodes: ReturnType<typeof node>[]) =>
  compileScenario(documentNodesSchema.parse({ version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes: [...nodes, node("end", "message", { messageText: "x" })] }] }));

describe("deep links on command_trigger", () => {
  test("links join the command's row, exact first, then the longest prefix", () => {
    const { compiled, warnings } = compile(
      node("short", "command_trigger", { command: "/start", deepLinkParam: "p", deepLinkMatchMode: "startsWith", autoTransitionTo: "end" }),
      node("long", "command_trigger", { command: "/start", deepLinkParam: "promo_", deepLinkMatchMode: "prefix", deepLinkVarName: "campaign", autoTransitionTo: "end" }),
      node("exact", "command_trigger", { command: "/start", deepLinkParam: "promo_7", autoTransitionTo: "end" }),
      node("plain", "command_trigger", { command: "/start", autoTransitionTo: "end" }),
    );
    expect(warnings).toEqual([]);
    expect(compiled.commands).toEqual([
      {
        command: "start", target: "end", description: "start", menu: undefined, adminOnly: undefined,
        links: [
          { match: "exact", value: "promo_7", target: "end", saveAs: undefined },
          { match: "prefix", value: "promo_", target: "end", saveAs: "campaign" },
          { match: "prefix", value: "p", target: "end", saveAs: undefined },
        ],
      },
    ]);
  });

  test("a command with only deep links has no target of its own", () => {
    const { compiled } = compile(node("t", "command_trigger", { command: "/join", deepLinkParam: "team", autoTransitionTo: "end" }));
    expect(compiled.commands.map((c) => [c.command, c.target, c.links?.length])).toEqual([["join", "", 1]]);
  });

  test.each([
    ["a space", "promo 7"],
    ["a character Telegram refuses", "promo!"],
    ["65 characters", "x".repeat(65)],
  ])("a parameter with %s is a warning", (_name, param) => {
    const { warnings } = compile(node("t", "command_trigger", { command: "/start", deepLinkParam: param, autoTransitionTo: "end" }));
    expect(warnings.map((w) => w.message).join("\n")).toMatch(/can never arrive/);
  });

  test("a second trigger for the same parameter is ignored with a warning", () => {
    const { compiled, warnings } = compile(
      node("a", "command_trigger", { command: "/start", deepLinkParam: "x", autoTransitionTo: "end" }),
      node("b", "command_trigger", { command: "/start", deepLinkParam: "x", autoTransitionTo: "end" }),
    );
    expect(compiled.commands[0]!.links).toHaveLength(1);
    expect(warnings.map((w) => w.code)).toEqual(["COMMAND_CONFLICT"]);
  });
});
