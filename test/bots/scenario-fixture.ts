// A small scenario in today's format, used by the runtime tests: /start greets with an inline
// button; pressing it (or typing "дальше") leads to a second message with a reply keyboard.
export const greeterScenario = {
  version: 2,
  sheets: [
    {
      id: "sheet-1",
      name: "Main",
      nodes: [
        {
          id: "start",
          type: "start",
          position: { x: 0, y: 0 },
          data: { command: "/start", messageText: "Привет, {first_name}!", keyboardType: "inline", buttons: [{ id: "b1", text: "Дальше", action: "goto", target: "second" }] },
        },
        { id: "trigger", type: "text_trigger", position: { x: 0, y: 200 }, data: { textSynonyms: ["дальше"], textMatchType: "exact", autoTransitionTo: "second" } },
        {
          id: "second",
          type: "message",
          position: { x: 300, y: 0 },
          data: { messageText: "Второй шаг", keyboardType: "reply", resizeKeyboard: true, buttons: [{ id: "b2", text: "Снова", action: "goto", target: "start" }] },
        },
      ],
      edges: [],
    },
  ],
};

const at = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: { x: 0, y: 0 }, data });
const query = (id: string, sql: string) => at(id, "psql_query", { query: sql, resultFormat: "first_row", saveResultTo: "r", autoTransitionTo: "done" });

/**
 * Faults for shared runners (test/bots/runners.test.ts, bench/runner-faults.ts): /start greets,
 * /env shows {SHARED_NAME}, /block runs a query that would take minutes (it blocks its runner's
 * event loop), /grow builds a string of nearly 1 GB.
 */
export const faultScenario = {
  version: 2,
  sheets: [
    {
      id: "s",
      name: "Main",
      edges: [],
      nodes: [
        at("start", "start", { command: "/start", messageText: "hello {first_name}" }),
        at("env", "command", { command: "/env", messageText: "env=[{SHARED_NAME}]" }),
        at("block", "command_trigger", { command: "/block", autoTransitionTo: "q1" }),
        query("q1", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) AS n FROM c"),
        at("grow", "command_trigger", { command: "/grow", autoTransitionTo: "q2" }),
        query("q2", "SELECT length(group_concat(printf('%0500d', x))) AS n FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1900000) SELECT x FROM c)"),
        at("done", "message", { messageText: "done {r.n}" }),
      ],
    },
  ],
};
