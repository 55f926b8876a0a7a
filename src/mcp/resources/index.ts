// Resources an agent reads before building: the scenario format and the node catalogue.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { isRunnableType, RUNNABLE_TYPES } from "../../scenario/model";
import { NODE_DESCRIPTIONS } from "../../scenario/node-descriptions";
import { OUT_OF_SCOPE } from "../../scenario/types-messaging";
// @ts-expect-error TS1192: the default export of a text import is the file's text
import scenarioText from "./scenario.md" with { type: "text" };

/** Every node type the engine knows: whether the bot runs it, or why it is left out. */
export function nodeCatalogue() {
  const known = [...new Set<string>([...RUNNABLE_TYPES, ...Object.keys(OUT_OF_SCOPE)])];
  return {
    types: known.map((type) => {
      const description = NODE_DESCRIPTIONS[type];
      return isRunnableType(type) ? { type, runs: true, ...(description ? { description } : {}) } : { type, runs: false, reason: OUT_OF_SCOPE[type]! };
    }),
  };
}

export function registerResources(server: McpServer) {
  server.registerResource(
    "scenario-format",
    "botloom://docs/scenario",
    { title: "Scenario format", description: "How a Botloom scenario document is built: sheets, nodes, transitions in node data, variables, common node types.", mimeType: "text/markdown" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: scenarioText as string }] }),
  );
  server.registerResource(
    "node-catalogue",
    "botloom://nodes/catalogue",
    { title: "Node catalogue", description: "Every node type the scenario engine knows.", mimeType: "application/json" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(nodeCatalogue(), null, 2) }] }),
  );
}
