// The SQL of the scenario tables (docs/tables.md): the tables `bot_table` and `psql_query` keep in a
// project's `<id>-tables.db`, which the project's bots write at the same moment (WAL, busy_timeout).
// Names come from the file itself and are quoted as identifiers; values are always bound. The
// server never computes a generated column and never writes a table whose schema would run code on
// a write (docs/tables.md "What the server refuses").
export { closeTablesFiles, inSnapshot } from "./files";
export { plainColumns, tablesOf, type Cell, type ColumnInfo, type Row, type TableInfo } from "./schema";
export { countRows, pageRows, SEARCH_COUNT_CAP, type PageQuery } from "./pages";
export { allRows, deleteRow, insertRow, rowById, updateRow } from "./rows";
export { importRows, RowRefused } from "./import";
