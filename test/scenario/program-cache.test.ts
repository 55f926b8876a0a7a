import { describe, expect, test } from "bun:test";
import { fingerprintOf, programCache } from "../../src/scenario/codegen/program-cache";

/** A cache of strings sized by their length, and a maker that counts its calls and settles on demand. */
function setup(limits = { entries: 3, bytes: 100 }) {
  const cache = programCache<string>(limits, (r) => r.length);
  const calls: string[] = [];
  const make = (result: string) => () => {
    calls.push(result);
    return Promise.resolve(result);
  };
  return { cache, calls, make, keep: () => true };
}

describe("the program cache", () => {
  test("parallel calls for one source share one generation; later calls answer from the cache", async () => {
    const { cache, calls, keep } = setup();
    const gate = Promise.withResolvers<string>();
    let made = 0;
    const make = () => {
      made++;
      return gate.promise;
    };
    const key = cache.keyOf("project 1", fingerprintOf("{\"sheets\":[]}"), { a: 1 });
    const answers = Array.from({ length: 8 }, () => cache.get(key, make, keep));
    gate.resolve("program");
    expect(await Promise.all(answers)).toEqual(Array(8).fill("program"));
    expect(made).toBe(1);
    expect(await cache.get(key, make, keep)).toBe("program");
    expect(made).toBe(1);
    expect(calls).toEqual([]);
  });

  test("the key is the scope, the source and the settings", () => {
    const { cache } = setup();
    const text = '{"sheets":[{"id":"a"}]}';
    const key = cache.keyOf("project 1", fingerprintOf(text), { flags: 1 });
    expect(cache.keyOf("project 1", fingerprintOf(text), { flags: 1 })).toBe(key);
    expect(cache.keyOf("project 2", fingerprintOf(text), { flags: 1 })).not.toBe(key);
    expect(cache.keyOf("project 1", fingerprintOf(text.replace("a", "b")), { flags: 1 })).not.toBe(key);
    expect(cache.keyOf("project 1", fingerprintOf(text + " "), { flags: 1 })).not.toBe(key);
    expect(cache.keyOf("project 1", fingerprintOf(text), { flags: 0 })).not.toBe(key);
  });

  test("the least recently used programs leave beyond the entries or bytes allowed; one too big is never kept", async () => {
    const { cache, calls, make, keep } = setup({ entries: 2, bytes: 10 });
    const k = (n: number) => cache.keyOf("s", fingerprintOf(String(n)), null);
    await cache.get(k(1), make("aaaa"), keep);
    await cache.get(k(2), make("bbbb"), keep);
    await cache.get(k(1), make("aaaa"), keep); // 1 is now the newest use
    await cache.get(k(3), make("cccc"), keep); // three entries: 2 leaves
    expect(cache.size).toEqual({ entries: 2, bytes: 8 });
    await cache.get(k(1), make("aaaa"), keep);
    await cache.get(k(2), make("bbbb"), keep);
    expect(calls).toEqual(["aaaa", "bbbb", "cccc", "bbbb"]);
    // 2 came back, 3 (least recently used) left; 1 stays
    await cache.get(k(4), make("dddddddd"), keep); // 8 bytes: 1 and 2 must leave for it
    expect(cache.size).toEqual({ entries: 1, bytes: 8 });
    await cache.get(k(5), make("x".repeat(11)), keep);
    expect(cache.size).toEqual({ entries: 1, bytes: 8 });
    await cache.get(k(5), make("x".repeat(11)), keep);
    expect(calls.filter((c) => c.length === 11)).toHaveLength(2);
  });

  test("a failure or a result not worth keeping is not kept: the next call generates again", async () => {
    const { cache } = setup();
    const key = cache.keyOf("s", fingerprintOf("doc"), null);
    let made = 0;
    const failing = () => {
      made++;
      return Promise.reject(new Error("worker died"));
    };
    await expect(cache.get(key, failing, () => true)).rejects.toThrow("worker died");
    await expect(cache.get(key, failing, () => true)).rejects.toThrow("worker died");
    expect(made).toBe(2);
    const issues = () => {
      made++;
      return Promise.resolve("issues");
    };
    await cache.get(key, issues, () => false);
    await cache.get(key, issues, () => false);
    expect(made).toBe(4);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});
