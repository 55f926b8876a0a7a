// The guard for scenario SQL sent to an external PostgreSQL (runtime/pg-guard.ts): it reads a
// statement by PostgreSQL's tokenizer rules, so a forbidden word hidden by E'…' escapes, dollar
// quotes, nested comments or quoted names is still found, and words inside strings are not words.
import { describe, expect, test } from "bun:test";
import { guardPgSql, PgSqlError } from "../../src/scenario/codegen/runtime/pg-guard";

const refused = (sql: string) => {
  try {
    guardPgSql(sql);
  } catch (err) {
    expect(err).toBeInstanceOf(PgSqlError);
    return (err as Error).message;
  }
  return undefined;
};

describe("guardPgSql", () => {
  test("ordinary statements pass, with casts, parameters, strings and dollar quotes holding forbidden words", () => {
    for (const sql of [
      "SELECT id, item FROM orders WHERE user_id = $1 ORDER BY id",
      "INSERT INTO orders (user_id, item) VALUES ($1, $2) RETURNING id;",
      "UPDATE orders SET item = $1 WHERE id = $2::int",
      "SELECT 'pg_read_file(''/etc/passwd'')' AS text, $$ COPY x FROM PROGRAM 'id' $$ AS quoted",
      "SELECT E'it\\'s; SET ROLE x' AS s -- SET ROLE in a comment\n",
      "/* outer /* nested; DROP ROLE x */ still comment */ SELECT 1",
      "WITH t AS (DELETE FROM orders WHERE id = $1 RETURNING *) SELECT count(*) FROM t",
      "CREATE TABLE IF NOT EXISTS visits (id serial PRIMARY KEY, at timestamptz DEFAULT now())",
      "SELECT \"role\", \"user\" FROM members",
      "DROP TABLE old_orders",
      // transaction-level forms end with the statement; temp as a plain name is a name
      "SELECT pg_advisory_xact_lock(42), pg_try_advisory_xact_lock_shared($1)",
      "INSERT INTO temp (reading) VALUES ($1)",
      "SELECT temp, temporary FROM readings",
      "CREATE TABLE temp_log (x int)",
      "EXPLAIN ANALYZE SELECT * FROM orders",
      "NOTIFY new_order, 'x'",
    ]) expect(refused(sql)).toBeUndefined();
  });

  // [statement, a part of the reason it is refused with]
  const cases: Record<string, [string, string][]> = {
    "file, program, connection and hidden-SQL functions are refused, however they are spelled": [
      ["SELECT pg_read_file('/etc/passwd')", "pg_read_file"],
      ["SELECT PG_CATALOG.PG_LS_DIR('.')", "pg_ls_dir"],
      ['SELECT "pg_read_binary_file"(\'x\')', "pg_read_binary_file"],
      ["SELECT E'\\'', pg_stat_file('x') --'", "pg_stat_file"],
      ["SELECT lo_import('/etc/passwd')", "large-object"],
      ["SELECT lo_export(1, '/tmp/x')", "large-object"],
      ["SELECT * FROM dblink('host=x', 'select 1') AS t(a int)", "dblink"],
      ["SELECT query_to_xml('select pg_read_file(''x'')', true, true, '')", "query_to_xml"],
      ["SELECT set_config('role', 'pgadmin', false)", "set_config"],
      ["SELECT pg_terminate_backend(1)", "pg_terminate_backend"],
      ['SELECT U&"\\0070g_read_file"(\'x\')', "Unicode escapes"],
    ],
    "statements that change the session, the role, the server or its code are refused": [
      ["SET ROLE pgadmin", "SET"],
      ["set session authorization pgadmin", "SET"],
      ["RESET ROLE", "RESET"],
      ["COPY orders FROM '/etc/passwd'", "COPY"],
      ["COPY (SELECT 1) TO PROGRAM 'id'", "COPY"],
      ["ALTER SYSTEM SET shared_buffers = '1GB'", "ALTER SYSTEM"],
      ["CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$", "CREATE FUNCTION"],
      ["CREATE EXTENSION dblink", "CREATE EXTENSION"],
      ["ALTER ROLE shopbot SUPERUSER", "ALTER ROLE"],
      ["GRANT pg_read_server_files TO shopbot", "GRANT"],
      ["DO $$ BEGIN PERFORM 1; END $$", "DO"],
      ["LOAD 'evil'", "LOAD"],
      ["BEGIN", "transactions"],
      ["CREATE SCHEMA s AUTHORIZATION pgadmin", "AUTHORIZATION"],
    ],
    "what would stay on a pooled connection for other users' turns, or read what an earlier one left, is refused": [
      ["SELECT pg_advisory_lock(42)", "pg_advisory_lock keeps its lock"],
      ["SELECT pg_catalog.PG_TRY_ADVISORY_LOCK_SHARED(1, 2)", "pg_try_advisory_lock_shared keeps its lock"],
      ['SELECT "pg_advisory_lock_shared"(42)', "pg_advisory_lock_shared keeps its lock"],
      ["SELECT pg_advisory_unlock_all()", "releases session locks"],
      ["SELECT pg_advisory_unlock(42)", "releases session locks"],
      ["LISTEN orders", "LISTEN"],
      ["UNLISTEN *", "UNLISTEN"],
      ["PREPARE q AS SELECT 1", "PREPARE"],
      ["EXECUTE q", "EXECUTE runs a statement prepared earlier"],
      ["EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE q", "EXECUTE runs a statement prepared earlier"],
      ["DEALLOCATE ALL", "DEALLOCATE"],
      ["LOCK TABLE orders IN ACCESS EXCLUSIVE MODE", "LOCK holds only until the transaction ends"],
      ["SET statement_timeout = 0", "SET changes the session"],
      ["SET LOCAL statement_timeout = 0", "SET changes the session"],
      ["RESET ALL", "RESET changes the session"],
      ["DECLARE c CURSOR WITH HOLD FOR SELECT * FROM orders", "DECLARE opens a cursor"],
      ["FETCH ALL FROM c", "FETCH reads a cursor"],
      ["CLOSE ALL", "CLOSE closes a cursor"],
      ["CREATE TEMP TABLE scratch (x int)", "temporary tables"],
      ["create local temporary view v as select 1", "temporary tables"],
      ["CREATE TABLE pg_temp.scratch (x int)", "temporary tables"],
      ["SELECT * INTO TEMP TABLE copy FROM orders", "temporary tables"],
      ["SELECT 1 AS x INTO LOCAL TEMPORARY copy", "temporary tables"],
      ["EXPLAIN ANALYZE CREATE TEMP TABLE copy AS SELECT 1", "temporary tables"],
      ["SELECT currval('orders_id_seq')", "currval reads what an earlier statement"],
      ["SELECT lastval()", "lastval reads what an earlier statement"],
    ],
    "bad input: several statements, unterminated quotes and comments, empty text, NUL": [
      ["SELECT 1; SELECT 2", "one SQL statement"],
      ["SELECT $$;DROP TABLE x;$$; DROP TABLE orders", "one SQL statement"],
      ["SELECT 'open", "unterminated quote"],
      ["SELECT $tag$ open", "unterminated dollar quote"],
      ["SELECT 1 /* open /* nested */", "unterminated comment"],
      ['SELECT "open', "unterminated quoted name"],
      ["   ", "empty SQL"],
      ["SELECT 1\u0000", "NUL"],
    ],
  };
  for (const [name, list] of Object.entries(cases)) {
    test(name, () => {
      for (const [sql, why] of list) expect([sql, refused(sql)]).toEqual([sql, expect.stringContaining(why)]);
    });
  }
});
