// Node types of the logic and data family (docs/nodes/logic.md, docs/nodes/data.md) that the
// generated bot runs. Kept apart from model.ts so each family's list changes in its own file.

/** Logic and data nodes that become rows of the node table. */
export const LOGIC_TYPES = ["http_request", "loop", "parallel_split", "convert_file", "bot_table", "psql_query", "ai_answer"] as const;
