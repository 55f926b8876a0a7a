// Issue 30 items 2 and 4 in the generator. command_trigger nodes with deepLinkParam join their
// command's row as links (exact ones first, then the longest prefix); a parameter Telegram can never
// send and a second trigger for the same parameter are warnings; a plain trigger still owns the
// command. Reaction, member and join-request triggers become rows of the message-trigger table with
// their filters; words that are no emoji and unknown member events are warnings; approve/decline
// answer the requester in the group of the request by default.
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
        command: "start", target: "end", description: "start", menu: undefined, adminOnly: undefined, via: "plain",
        links: [
          { match: "exact", value: "promo_7", target: "end", saveAs: undefined, via: "exact" },
          { match: "prefix", value: "promo_", target: "end", saveAs: "campaign", via: "long" },
          { match: "prefix", value: "p", target: "end", saveAs: undefined, via: "short" },
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
      // "❤️" as a keyboard types it (with U+FE0F) is kept as Telegram sends the reaction, "❤": it ran nothing
      { on: "reaction", target: "end", node: "r", only: ["👍", "❤"], fromNodes: undefined },
      { on: "member", target: "end", node: "m", only: ["joined", "blocked"] },
      { on: "join_request", target: "end", node: "j" },
      { on: "reaction", target: "end", node: "any", only: undefined, fromNodes: undefined },
    ]);
  });

  test("messageNodes limits a reaction trigger to the messages those nodes sent; an unknown node is a warning", () => {
    const { compiled, warnings } = compile(
      node("r", "reaction_trigger", { emoji: "👍", messageNodes: "end, ghost", autoTransitionTo: "end" }),
    );
    expect(compiled.messageTriggers).toEqual([{ on: "reaction", target: "end", node: "r", only: ["👍"], fromNodes: ["end", "ghost"] }]);
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/messageNodes "ghost" are not in the scenario/)]);
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

describe("invoices in Stars", () => {
  test.each([
    ["an amount of 0", { title: "T", description: "D", amount: 0 }, /out of range/],
    ["an amount over 10000", { title: "T", description: "D", amount: "10001" }, /out of range/],
    ["a fractional amount", { title: "T", description: "D", amount: "2.5" }, /out of range/],
    ["a payload over 128 bytes", { title: "T", description: "D", amount: 5, payload: "я".repeat(65) }, /over 128 bytes/],
    ["no title", { description: "D", amount: 5 }, /needs title, description and amount/],
    ["a title over 32 characters", { title: "x".repeat(33), description: "D", amount: 5 }, /title is over 32/],
  ])("%s is a warning", (_name, data, message) => {
    const { warnings } = compile(node("i", "invoice", data));
    expect(warnings.map((w) => w.message).join("\n")).toMatch(message);
  });

  test("a valid invoice, a payment trigger and a refund compile without warnings", () => {
    const { compiled, warnings } = compile(
      node("i", "invoice", { title: "Premium", description: "A month", amount: "{price}", payload: "p_{user_id}", autoTransitionTo: "end" }),
      node("t", "payment_trigger", { autoTransitionTo: "r" }),
      node("r", "refund_payment", {}),
    );
    expect(warnings).toEqual([]);
    expect(compiled.messageTriggers).toEqual([{ on: "payment", target: "r", node: "t" }]);
    const acts = compiled.nodes.filter((n) => n.sourceType === "invoice" || n.sourceType === "refund_payment").map((n) => (n.node as { do: unknown }).do);
    expect(acts).toEqual([
      { kind: "invoice", title: "Premium", description: "A month", amount: "{price}", payload: "p_{user_id}", photo: undefined },
      { kind: "refund", charge: "{payment_charge_id}", user: { from: "sender" } },
    ]);
  });
});
