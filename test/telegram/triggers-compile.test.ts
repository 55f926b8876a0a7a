// Issue 30 item 4 in the generator: reaction, member and join-request triggers become rows of the
// message-trigger table with their filters; words that are no emoji and unknown member events are
// warnings; approve/decline answer the requester in the group of the request by default.
import { describe, expect, test } from "bun:test";
import { compileScenario } from "../../src/scenario/codegen/compile";
import { documentNodesSchema } from "../../src/scenario/model";

const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const compile = (...nodes: ReturnType<typeof node>[]) =>
  compileScenario(documentNodesSchema.parse({ version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes: [...nodes, node("end", "message", { messageText: "x" })] }] }));

describe("reaction, member and join-request triggers", () => {
  test("rows with their filters", () => {
    const { compiled, warnings } = compile(
      node("r", "reaction_trigger", { emoji: ["👍", "❤️"], autoTransitionTo: "end" }),
      node("m", "member_trigger", { memberEvents: "joined, blocked", autoTransitionTo: "end" }),
      node("j", "join_request_trigger", { autoTransitionTo: "end" }),
      node("any", "reaction_trigger", { autoTransitionTo: "end" }),
    );
    expect(warnings).toEqual([]);
    expect(compiled.messageTriggers).toEqual([
      { on: "reaction", target: "end", only: ["👍", "❤️"] },
      { on: "member", target: "end", only: ["joined", "blocked"] },
      { on: "join_request", target: "end" },
      { on: "reaction", target: "end", only: undefined },
    ]);
  });

  test("a word among the emoji and an unknown member event are warnings", () => {
    const { warnings } = compile(
      node("r", "reaction_trigger", { emoji: ["like"], autoTransitionTo: "end" }),
      node("m", "member_trigger", { memberEvents: ["joined", "exploded"], autoTransitionTo: "end" }),
    );
    const text = warnings.map((w) => w.message).join("\n");
    expect(text).toMatch(/"like" is no reaction emoji/);
    expect(text).toMatch(/member events exploded are unknown/);
  });

  test("a trigger without a target is reported and left out", () => {
    const { compiled } = compile(node("r", "join_request_trigger", {}));
    expect(compiled.messageTriggers).toEqual([]);
  });

  test("approve and decline default to the requester and the group of the request", () => {
    const { compiled } = compile(node("a", "approve_join_request", {}), node("d", "decline_join_request", { userIdSource: "variable", userVariableName: "who" }));
    const acts = compiled.nodes.filter((n) => n.sourceType.endsWith("_join_request")).map((n) => (n.node as { do: unknown }).do);
    expect(acts).toEqual([
      expect.objectContaining({ kind: "moderate", op: "approve", chat: "{join_chat_id}", user: { from: "sender" } }),
      expect.objectContaining({ kind: "moderate", op: "decline", chat: "{join_chat_id}", user: { from: "id", value: "{who}" } }),
    ]);
  });
});
