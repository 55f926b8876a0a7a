// The inspector forms of ai_answer and psql_query: the AI node's fields write its data (the key as
// an env variable's name, the error exit as a node picker); psql_query offers the env variable of
// an external PostgreSQL only once that connection is chosen, and never a connection string field;
// an input offers its "no answer" exit once it has a timeout. Screenshots of these forms:
// test/browser/ai-psql-screenshots.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { haveChromium, warnIfNoChromium } from "../support/browser";
import { aiPsqlScenario as data } from "./ai-psql-fixture";
import { editorEnv, newProject, nodeEl, openEditor, pick, type EditorEnv } from "./editor-support";

warnIfNoChromium("editor ai_answer and psql_query forms");


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
    // each card says what its node does: the query and where its rows go, the model
    expect(await nodeEl(page, "orders").locator(".ed-body").innerText()).toBe("SELECT * FROM orders → rows");
    expect(await nodeEl(page, "keep").locator(".ed-body").innerText()).toBe("insert orders → saved");
    await pick(page, "ask");
    const props = page.getByRole("complementary", { name: "Properties" });
    await props.getByLabel("Model", { exact: true }).fill("llama3.1");
    await nodeEl(page, "ask").locator(".ed-body").getByText("llama3.1").waitFor();
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
});
