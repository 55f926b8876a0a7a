// The generator's output is pinned byte for byte (codegen-golden.ts says how the hashes were made):
// every compat file, built-in template and synthetic scenario generates exactly the recorded program.
// A program that changed fails with a diff against the recorded one (changed lines with context).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { GOLDEN_FILE, goldenHashes, goldenInputs, goldenPrograms, HAS_COMPAT, hashesOf, recordedProgram } from "./codegen-golden";

const recorded: Record<string, Record<string, string>> = JSON.parse(readFileSync(GOLDEN_FILE, "utf8"));

describe("generated programs are byte-identical to the recorded ones", () => {
  const inputs = goldenInputs();
  const programs = goldenPrograms(inputs);
  const hashes = hashesOf(programs);

  test("every recorded input is generated (compat files only when ../shared/compat exists)", () => {
    const expected = Object.keys(recorded).filter((k) => HAS_COMPAT || !k.startsWith("compat/"));
    expect(Object.keys(hashes).sort()).toEqual(expected.sort());
    if (!HAS_COMPAT) console.warn("compat scenarios not found: their programs are not compared");
  });

  for (const name of Object.keys(recorded)) {
    const run = name.startsWith("compat/") && !HAS_COMPAT ? test.skip : test;
    run(`${name}: same program and warnings for both option sets`, () => {
      for (const [set, hash] of Object.entries(recorded[name]!)) {
        if (hashes[name]?.[set] === hash) continue;
        const before = recordedProgram(name, set);
        // the diff names the changed lines; re-record (codegen-golden.ts) only when meant
        if (before !== null && programs[name]?.[set]) expect(programs[name][set].text).toBe(before);
        const hint = before === null ? "only its hash is recorded: a template's diff shows the change when it reaches one" : "";
        expect({ set, hash: hashes[name]?.[set], hint }).toEqual({ set, hash, hint });
      }
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
