// The inspector forms of ai_answer and psql_query: the AI node's fields write its data (the key as
// an env variable's name, the error exit as a node picker); psql_query offers the env variable of
// an external PostgreSQL only once that connection is chosen, and never a connection string field;
// an input offers its "no answer" exit once it has a timeout.
// With SHOTS_DIR set, it also shoots both forms at 1280 and 390 px, light and dark, for review by eye.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { editorEnv, newProject, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor ai_answer and psql_query forms");

const data = {
  sheets: [
    {
      id: "s1",
      name: "Main",
      nodes: [
        { id: "ask", type: "ai_answer", position: { x: 0, y: 0 }, data: { aiBaseUrl: "https://api.openai.com/v1", aiModel: "gpt-4o-mini", aiApiKeyEnv: "", aiSystemPrompt: "You help {first_name}.", aiMemoryTurns: 5, aiSendAnswer: true } },
        { id: "orders", type: "psql_query", position: { x: 0, y: 300 }, data: { query: "SELECT * FROM orders", connectionSource: "builtin", saveResultTo: "rows" } },
        { id: "oops", type: "message", position: { x: 400, y: 0 }, data: { messageText: "Sorry: {ai_error}" } },
        { id: "name", type: "input", position: { x: 400, y: 300 }, data: { inputPrompt: "Your name?", inputVariable: "name" } },
      ],
      edges: [],
    },
  ],
};

describe.skipIf(!haveChromium)("ai_answer and psql_query forms", () => {
  const envs: EditorEnv[] = [];
  afterAll(async () => {
    for (const e of envs) await e.close();
  });

  test("the fields write the node data; the external database asks for an env variable's name", async () => {
    const env = await editorEnv();
    envs.push(env);
    const projectId = await newProject(env, "Assistant", data);
    const { page } = env.b;
    await openEditor(page, env.base, projectId);
    await page.getByRole("button", { name: "Fit View" }).click();
    await pick(page, "ask");
    const props = page.getByRole("complementary", { name: "Properties" });
    await props.getByLabel("Model", { exact: true }).fill("llama3.1");
    await props.getByLabel("API key: name of a secret env variable", { exact: true }).fill("OPENAI_API_KEY");
    await props.getByLabel("Remember last turns", { exact: true }).fill("3");
    await props.getByLabel("Formatting", { exact: true }).selectOption("markdown");
    await props.getByLabel("On error go to", { exact: true }).selectOption("oops");

    await pick(page, "orders");
    expect(await props.getByLabel("Connection string: name of a secret env variable", { exact: true }).count()).toBe(0);
    await props.getByLabel("Database", { exact: true }).selectOption("env");
    await props.getByLabel("Connection string: name of a secret env variable", { exact: true }).fill("SHOP_DB");
    expect(await props.getByLabel(/connectionString/i).count()).toBe(0);
    await props.getByLabel("On error go to", { exact: true }).selectOption("oops");

    // an input's timeout: its exit is offered once it has seconds
    await pick(page, "name");
    expect(await props.getByLabel("No answer in time: go to", { exact: true }).count()).toBe(0);
    await props.getByLabel("Time to answer, s (0: no limit)", { exact: true }).fill("60");
    await props.getByLabel("No answer in time: go to", { exact: true }).selectOption("oops");
    await page.locator('.react-flow__node[data-id="name"] .react-flow__handle[data-handleid="timeout"]').waitFor();

    await page.keyboard.press("Control+s");
    await page.getByTestId("save-status").filter({ hasText: /^Saved$/ }).waitFor();
    const stored = (await env.t.call("GET", `/api/projects/${projectId}`, { cookie: env.cookie })).body;
    const byId = (id: string) => stored.data.sheets[0].nodes.find((n: { id: string }) => n.id === id).data;
    expect(byId("ask")).toMatchObject({ aiModel: "llama3.1", aiApiKeyEnv: "OPENAI_API_KEY", aiMemoryTurns: 3, aiFormatMode: "markdown", errorTransitionTo: "oops" });
    expect(byId("orders")).toMatchObject({ connectionSource: "env", connectionEnvVar: "SHOP_DB", errorTransitionTo: "oops" });
    expect(byId("name")).toMatchObject({ inputTimeout: 60, inputTimeoutTarget: "oops" });
    // the error exit is a slot of the canvas too: its edge is drawn
    await page.locator('.react-flow__edge[data-id*="ask"]').first().waitFor();
    expect(env.b.errors).toEqual([]);
  }, 90_000);

  test.skipIf(!process.env.SHOTS_DIR)("screenshots: 1280 and 390 px, light and dark", async () => {
    const out = process.env.SHOTS_DIR!;
    mkdirSync(out, { recursive: true });
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        const env = await editorEnv({ viewport: { width, height: 900 }, colorScheme });
        envs.push(env);
        // the phone is read-only: the external connection is in the data from the start
        const external = structuredClone(data);
        Object.assign(external.sheets[0]!.nodes[1]!.data, { connectionSource: "env", connectionEnvVar: "SHOP_DB", errorTransitionTo: "oops" });
        const projectId = await newProject(env, "Assistant", external);
        const { page } = env.b;
        await openEditor(page, env.base, projectId);
        for (const id of ["ask", "orders", "name"]) {
          await pick(page, id);
          await page.screenshot({ path: join(out, `${id}-${width}-${colorScheme}.png`) });
          await page.getByRole("complementary", { name: "Properties" }).screenshot({ path: join(out, `${id}-${width}-${colorScheme}-panel.png`) });
        }
      }
    }
  }, 180_000);
});
