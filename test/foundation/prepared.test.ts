// statements() (src/db/prepared.ts, docs/database.md "One way to prepare statements"): one set per
// connection, each statement built on its first read and kept, a failed build tried again.
import { expect, test } from "bun:test";
import { statements } from "../../src/db/prepared";

test("each statement is built on first read, once per connection; a failed build is tried again", () => {
  const built: string[] = [];
  let failNext = true;
  const of = statements((conn: { name: string }) => ({
    a: () => (built.push(`${conn.name}.a`), { conn: conn.name }),
    b: () => {
      if (failNext) {
        failNext = false;
        throw new Error("no such table");
      }
      built.push(`${conn.name}.b`);
      return 2;
    },
  }));
  const one = { name: "one" };
  const two = { name: "two" };
  expect(of(one)).toBe(of(one));
  expect(of(one)).not.toBe(of(two));
  expect(built).toEqual([]);
  expect(of(one).a).toEqual({ conn: "one" });
  expect(of(one).a).toBe(of(one).a);
  expect(() => of(one).b).toThrow("no such table");
  expect(of(one).b).toBe(2);
  expect(of(one).b).toBe(2);
  expect(of(two).a).toEqual({ conn: "two" });
  expect(built).toEqual(["one.a", "one.b", "two.a"]);
});
