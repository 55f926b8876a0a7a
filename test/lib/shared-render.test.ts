// The server renders campaign texts with the bot runtime's own renderer (src/lib/shared-render.ts,
// docs/campaigns.md#the-message): the recipient's built-ins and saved variables, {=expr}, escaping
// per format, and no secrets or environment.
import { expect, test } from "bun:test";
import { renderFor } from "../../src/lib/shared-render";

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
