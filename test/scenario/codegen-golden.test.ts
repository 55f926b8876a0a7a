// The generator's output is pinned byte for byte (codegen-golden.ts says how the hashes were made):
// every compat file, built-in template and synthetic scenario generates exactly the recorded program.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { GOLDEN_FILE, goldenHashes, goldenInputs, HAS_COMPAT } from "./codegen-golden";

const recorded: Record<string, Record<string, string>> = JSON.parse(readFileSync(GOLDEN_FILE, "utf8"));

describe("generated programs are byte-identical to the recorded ones", () => {
  const inputs = goldenInputs();
  const hashes = goldenHashes(inputs);

  test("every recorded input is generated (compat files only when ../shared/compat exists)", () => {
    const expected = Object.keys(recorded).filter((k) => HAS_COMPAT || !k.startsWith("compat/"));
    expect(Object.keys(hashes).sort()).toEqual(expected.sort());
    if (!HAS_COMPAT) console.warn("compat scenarios not found: their programs are not compared");
  });

  for (const name of Object.keys(recorded)) {
    const run = name.startsWith("compat/") && !HAS_COMPAT ? test.skip : test;
    run(`${name}: same program and warnings for both option sets`, () => {
      expect(hashes[name]).toEqual(recorded[name]!);
    });
  }

  test("a one-character change of a scenario string changes the hash (the comparison can fail)", () => {
    const doc = JSON.parse(inputs["template/faq-en.json"] as string);
    const changed = JSON.stringify(doc).replace("Shipping", "Shipp1ng");
    expect(changed).not.toBe(JSON.stringify(doc));
    const name = "template/faq-en.json"; // the project name is part of the program
    expect(goldenHashes({ [name]: changed })[name]!.plain).not.toBe(recorded[name]!.plain);
    expect(goldenHashes({ [name]: JSON.stringify(doc) })[name]).toEqual(recorded[name]!);
  });
});
