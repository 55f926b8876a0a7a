// The server renders campaign texts with the bot runtime's own renderer (src/lib/shared-render.ts,
// docs/campaigns.md#the-message): the recipient's built-ins and saved variables, {=expr}, escaping
// per format, and no secrets or environment. Its `cut` is the generator's too: a menu command's
// long description is cut as the bot cuts its texts, never in half an emoji.
import { expect, test } from "bun:test";
import { cut, renderFor } from "../../src/lib/shared-render";
import { compileScenario } from "../../src/scenario/codegen/compile";
import { documentNodesSchema } from "../../src/scenario/model";

const ann = { id: 42, firstName: "Ann <b>", lastName: "Lee", username: "ann" };

test("built-ins and saved variables, the saved ones first", () => {
  expect(renderFor("{first_name} {last_name} @{username} #{user_id} {user_name}", ann, {})).toBe("Ann <b> Lee @ann #42 Ann <b>");
  expect(renderFor("{city}: {first_name}", ann, { city: "Paris", first_name: "Annie" })).toBe("Paris: Annie");
  expect(renderFor("{profile.age} / {tags}", ann, { profile: { age: 30 }, tags: ["a", "b"] })).toBe("30 / a, b");
  expect(renderFor("{missing}|", ann, {})).toBe("|");
});

test("expressions and escaping for the format", () => {
  expect(renderFor("{=1 + 2}", ann, {})).toBe("3");
  expect(renderFor("<b>{first_name}</b>", ann, {}, "html")).toBe("<b>Ann &lt;b&gt;</b>");
  expect(renderFor("*{v}*", ann, { v: "a_b" }, "markdown")).toBe("*a\\_b*");
});

test("no secrets, no environment", () => {
  expect(renderFor("[{bot_token}][{PATH}][{HOME}]", ann, {})).toBe("[][][]");
  expect(renderFor("{=constructor}", ann, {})).not.toContain("function");
});

test("the runtime's cut, which the generator cuts a menu command's description with", () => {
  const d = (n: number) => "d".repeat(n);
  expect(cut(d(254) + "😀 more", 255)).toBe(d(254));
  expect(cut(d(253) + "😀 more", 255)).toBe(d(253) + "😀");
  expect(cut("short", 255)).toBe("short");
  const command = (description: string) => ({ id: "c", type: "command_trigger", position: { x: 0, y: 0 }, data: { command: "/about", description, showInMenu: true, autoTransitionTo: "end" } });
  const end = { id: "end", type: "message", position: { x: 0, y: 0 }, data: { messageText: "x" } };
  const described = (description: string) =>
    compileScenario(documentNodesSchema.parse({ version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes: [command(description), end] }] })).compiled.commands[0]!.description;
  expect(described(d(254) + "😀 more")).toBe(cut(d(254) + "😀 more", 255) + "…");
  expect(described(d(253) + "😀 more")).toBe(d(253) + "😀…");
  expect(described(d(256))).toBe(d(256));
});
