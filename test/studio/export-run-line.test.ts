// The Export tab's install line names exactly the packages a generated program imports.
import { expect, test } from "bun:test";
import { BOT_MODULES } from "../../src/bots/bot-modules";
import { INSTALL_LINE } from "../../web/src/pages/project/export/run-line";
import { generateBot } from "../../src/scenario";

test("the install line lists the packages bots get, which the program's own header names too", () => {
  expect(INSTALL_LINE).toBe(`bun add ${Object.keys(BOT_MODULES).join(" ")}`);
  const { code } = generateBot({ version: 2, sheets: [{ id: "s", name: "S", nodes: [], edges: [] }] }, { projectName: "P", userDatabaseEnabled: false });
  expect(code).toContain(`// Run: ${INSTALL_LINE} &&`);
});
