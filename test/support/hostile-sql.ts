// The hostile scenario SQL of issue 29 item 1, shared by its tests and bench/project-sql.ts: on
// `/hostile`, psql_query drops one of the bot's tables, recreates it with `rows` rows, then adds a
// generated column costing a 40 MB string per row read (added after the rows, it costs nothing to
// write). Before scenario SQL had a file of its own, every server read of that table computed it.
const at = { x: 0, y: 0 };

export const sqlNode = (id: string, next: string, query: string) => ({ id, type: "psql_query", position: at, data: { query, autoTransitionTo: next } });
export const messageNode = (id: string, text: string) => ({ id, type: "message", position: at, data: { messageText: text } });
export const commandNode = (id: string, command: string, next: string) => ({ id, type: "command_trigger", position: at, data: { command, autoTransitionTo: next } });

const SHAPES = {
  bot_state: { columns: "token_id INTEGER, variables TEXT, waiting TEXT, updated_at TEXT", values: "(token_id, variables, updated_at)", row: "0, '{}', 'x'", key: "chat_id" },
  bot_users: { columns: "id INTEGER PRIMARY KEY, token_id INTEGER, first_name TEXT, username TEXT, first_seen_at TEXT, last_seen_at TEXT", values: "(token_id, first_seen_at, last_seen_at)", row: "1, 'x', 'x'", key: "user_id" },
};

/** Nodes: `/hostile` runs the SQL on `table`, then says "done" (or goes on to `next`). */
export function hostileNodes(table: keyof typeof SHAPES, rows: number, next?: string) {
  const s = SHAPES[table];
  const expensive = `${s.key} AS (CASE WHEN length(hex(zeroblob(20000000 + token_id))) > 0 THEN 'x' END)`;
  return [
    commandNode("hostile", "/hostile", "h1"),
    sqlNode("h1", "h2", `DROP TABLE IF EXISTS ${table}`),
    sqlNode("h2", "h3", `CREATE TABLE IF NOT EXISTS ${table} (${s.columns})`),
    sqlNode("h3", "h4", `INSERT INTO ${table} ${s.values} WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT ${rows}) SELECT ${s.row} FROM c`),
    sqlNode("h4", next ?? "done", `ALTER TABLE ${table} ADD COLUMN ${expensive}`),
    ...(next ? [] : [messageNode("done", "done")]),
  ];
}

/** A one-sheet scenario document of `nodes`. */
export const scenarioOf = (...nodes: object[]) => ({ version: 2, sheets: [{ id: "s", name: "S", edges: [], nodes }] });
