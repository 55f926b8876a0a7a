// Every change an agent makes is a version that says so (agentEdit, the MCP session, the client).
import type { ProjectPatch } from "../../modules/projects/service";
import type { ToolContext } from "../tool";

export function agentMeta(tc: ToolContext, commitMessage: string): Pick<ProjectPatch, "agentEdit" | "agentSessionId" | "agentDisplayName" | "commitMessage"> {
  return { agentEdit: 1, agentSessionId: tc.sessionId(), agentDisplayName: tc.clientName(), commitMessage };
}
