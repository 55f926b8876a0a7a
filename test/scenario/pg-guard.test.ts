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
      "CREATE TEMP TABLE scratch (x int)",
      "SELECT \"role\", \"user\" FROM members",
      "DROP TABLE old_orders",
    ]) expect(refused(sql)).toBeUndefined();
  });

  test("file, program, connection and hidden-SQL functions are refused, however they are spelled", () => {
    expect(refused("SELECT pg_read_file('/etc/passwd')")).toContain("pg_read_file");
    expect(refused("SELECT PG_CATALOG.PG_LS_DIR('.')")).toContain("pg_ls_dir");
    expect(refused('SELECT "pg_read_binary_file"(\'x\')')).toContain("pg_read_binary_file");
    expect(refused("SELECT E'\\'', pg_stat_file('x') --'")).toContain("pg_stat_file");
    expect(refused("SELECT lo_import('/etc/passwd')")).toContain("large-object");
    expect(refused("SELECT lo_export(1, '/tmp/x')")).toContain("large-object");
    expect(refused("SELECT * FROM dblink('host=x', 'select 1') AS t(a int)")).toContain("dblink");
    expect(refused("SELECT query_to_xml('select pg_read_file(''x'')', true, true, '')")).toContain("query_to_xml");
    expect(refused("SELECT set_config('role', 'pgadmin', false)")).toContain("set_config");
    expect(refused("SELECT pg_terminate_backend(1)")).toContain("pg_terminate_backend");
    expect(refused('SELECT U&"\\0070g_read_file"(\'x\')')).toContain("Unicode escapes");
  });

  test("statements that change the session, the role, the server or its code are refused", () => {
    expect(refused("SET ROLE pgadmin")).toContain("SET");
    expect(refused("set session authorization pgadmin")).toContain("SET");
    expect(refused("RESET ROLE")).toContain("RESET");
    expect(refused("COPY orders FROM '/etc/passwd'")).toContain("COPY");
    expect(refused("COPY (SELECT 1) TO PROGRAM 'id'")).toContain("COPY");
    expect(refused("ALTER SYSTEM SET shared_buffers = '1GB'")).toContain("ALTER SYSTEM");
    expect(refused("CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$")).toContain("CREATE FUNCTION");
    expect(refused("CREATE EXTENSION dblink")).toContain("CREATE EXTENSION");
    expect(refused("ALTER ROLE shopbot SUPERUSER")).toContain("ALTER ROLE");
    expect(refused("GRANT pg_read_server_files TO shopbot")).toContain("GRANT");
    expect(refused("DO $$ BEGIN PERFORM 1; END $$")).toContain("DO");
    expect(refused("LOAD 'evil'")).toContain("LOAD");
    expect(refused("BEGIN")).toContain("transactions");
    expect(refused("CREATE SCHEMA s AUTHORIZATION pgadmin")).toContain("AUTHORIZATION");
  });

  test("bad input: several statements, unterminated quotes and comments, empty text, NUL", () => {
    expect(refused("SELECT 1; SELECT 2")).toContain("one SQL statement");
    expect(refused("SELECT $$;DROP TABLE x;$$; DROP TABLE orders")).toContain("one SQL statement");
    expect(refused("SELECT 'open")).toContain("unterminated quote");
    expect(refused("SELECT $tag$ open")).toContain("unterminated dollar quote");
    expect(refused("SELECT 1 /* open /* nested */")).toContain("unterminated comment");
    expect(refused('SELECT "open')).toContain("unterminated quoted name");
    expect(refused("   ")).toBe("empty SQL");
    expect(refused("SELECT 1\u0000")).toContain("NUL");
  });
});
