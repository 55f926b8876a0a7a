// Screenshots of the ai_answer, psql_query (external PostgreSQL) and input-timeout forms at 1280 and
// 390 px, light and dark, for review by eye: `bun test/browser/ai-psql-screenshots.ts [outDir]`
// (default /tmp/ai-psql-shots). Not part of the suite. The phone is read-only, so the external
// connection and the timeout are in the data from the start.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { aiPsqlScenario } from "./ai-psql-fixture";
import { editorEnv, newProject, openEditor, pick } from "./editor-support";

const out = process.argv[2] ?? "/tmp/ai-psql-shots";
mkdirSync(out, { recursive: true });
const data = structuredClone(aiPsqlScenario);
const [, orders, , name] = data.sheets[0]!.nodes;
Object.assign(orders!.data, { connectionSource: "env", connectionEnvVar: "SHOP_DB", errorTransitionTo: "oops" });
Object.assign(name!.data, { inputTimeout: 60, inputTimeoutTarget: "oops" });
for (const colorScheme of ["light", "dark"] as const) {
  for (const width of [1280, 390]) {
    const env = await editorEnv({ viewport: { width, height: 900 }, colorScheme });
    try {
      const projectId = await newProject(env, "Assistant", data);
      const { page } = env.b;
      await openEditor(page, env.base, projectId);
      for (const id of ["ask", "orders", "name"]) {
        await pick(page, id);
        await page.screenshot({ path: join(out, `${id}-${width}-${colorScheme}.png`) });
        await page.getByRole("complementary", { name: "Properties" }).screenshot({ path: join(out, `${id}-${width}-${colorScheme}-panel.png`) });
      }
    } finally {
      await env.close();
    }
  }
}
console.log("screenshots in " + out);
