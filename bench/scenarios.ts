// Scenario documents of a given size for the benchmarks: a /start node, then a chain that mixes
// the Level 1 node kinds (messages with inline and reply keyboards, text triggers, conditions,
// variables, input), spread over sheets of at most 500 nodes like a large real project.

const KINDS = ["message", "message", "message", "text_trigger", "condition", "set_variable", "input", "message"] as const;

function node(id: string, kind: (typeof KINDS)[number], i: number, next: string) {
  const position = { x: (i % 20) * 320, y: Math.floor(i / 20) * 220 };
  switch (kind) {
    case "text_trigger":
      return { id, type: kind, position, data: { textSynonyms: [`go ${i}`, `шаг ${i}`], textMatchType: "exact", autoTransitionTo: next } };
    case "condition":
      return {
        id,
        type: kind,
        position,
        data: { variable: "score", branches: [{ id: `${id}b`, label: "high", operator: "greater_than", value: "5", target: next }], defaultTargetId: next },
      };
    case "set_variable":
      return { id, type: kind, position, data: { assignments: [{ variable: "score", value: "1", mode: "increment" }], autoTransitionTo: next } };
    case "input":
      return { id, type: kind, position, data: { inputVariable: `answer_${i}`, inputType: "text", inputTargetNodeId: next } };
    default:
      return {
        id,
        type: "message",
        position,
        data: {
          messageText: `Step ${i}, {first_name}: ${"lorem ipsum dolor ".repeat(4)}`,
          formatMode: "html",
          keyboardType: i % 2 ? "inline" : "reply",
          resizeKeyboard: true,
          buttons: [
            { id: `${id}k1`, text: `Next ${i}`, action: "goto", target: next },
            { id: `${id}k2`, text: "Home", action: "goto", target: "start" },
          ],
        },
      };
  }
}

/** A valid scenario with `nodes` nodes in total (including the start node). */
export function benchScenario(nodes: number, prefix = "n", perSheet = 500) {
  const ids = Array.from({ length: nodes }, (_, i) => (i === 0 ? "start" : `${prefix}${i}`));
  const kindOf = (i: number) => KINDS[i % KINDS.length];
  // Triggers are entry points, never targets: a transition skips over them.
  const nextOf = (i: number) => {
    let j = i + 1;
    while (j < nodes && kindOf(j) === "text_trigger") j++;
    return ids[j] ?? "start";
  };
  const all = ids.map((id, i) => {
    const next = nextOf(i);
    if (i === 0) {
      return {
        id,
        type: "start",
        position: { x: 0, y: 0 },
        data: { command: "/start", messageText: "Hello, {first_name}!", keyboardType: "inline", buttons: [{ id: "s1", text: "Begin", action: "goto", target: next }] },
      };
    }
    return node(id, kindOf(i), i, next);
  });
  const sheets = [];
  for (let s = 0; s * perSheet < all.length; s++) {
    sheets.push({ id: `sheet-${s + 1}`, name: `Sheet ${s + 1}`, nodes: all.slice(s * perSheet, (s + 1) * perSheet), edges: [] });
  }
  return { version: 2, sheets };
}
