// The scenario of the input-timeout tests (bot-waits.test.ts, e2e/input-timeout.test.ts):
// /ask asks a name that expires after `seconds` without an answer; /ping answers at once.
import { doc, node } from "./harness";

export const inputTimeoutScenario = (seconds: number) =>
  doc(
    node("cmd-ask", "command_trigger", { command: "/ask", autoTransitionTo: "ask" }),
    node("ask", "input", { inputPrompt: "Your name?", inputVariable: "name", inputTargetNodeId: "thanks", inputTimeout: seconds, inputTimeoutTarget: "late" }),
    node("thanks", "message", { messageText: "Thanks, {name}" }),
    node("late", "message", { messageText: "Too late, {first_name}" }),
    node("cmd-ping", "command_trigger", { command: "/ping", autoTransitionTo: "pong" }),
    node("pong", "message", { messageText: "pong" }),
  );
