// Resources an agent reads before building: the scenario format and the node catalogue.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LEVEL1_TYPES, LEVEL2_TYPES } from "../../scenario/model";
// @ts-expect-error TS1192: the default export of a text import is the file's text
import scenarioText from "./scenario.md" with { type: "text" };

/** Every node type the engine knows, each with whether the bot runs it in this version. */
export function nodeCatalogue() {
  return {
    types: [
      ...LEVEL1_TYPES.map((type) => ({ type, level: 1 })),
      ...LEVEL2_TYPES.map((type) => ({ type, level: 2 })),
    ],
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
