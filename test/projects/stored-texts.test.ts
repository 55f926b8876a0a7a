// The stored scenarios' texts kept by project and save (src/modules/projects/stored-texts.ts), and
// that generate and a preview start read a project's document only when it was saved since.
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { eq } from "drizzle-orm";
import { projects } from "../../src/db/schema";
import { projectStatements } from "../../src/modules/projects/queries";
import { storedTexts } from "../../src/modules/projects/stored-texts";
import { fingerprintOf } from "../../src/scenario/codegen/program-cache";
import { newProject, OWNER, team, type Team } from "./helpers";

describe("the kept texts", () => {
  /** reads in order: [project, document length, text the database holds] → [text answered, read from the database] */
  const cases: { name: string; limits?: { entries: number; bytes: number }; reads: [number, number, string | undefined, string | undefined, boolean][]; kept: { entries: number; bytes: number } }[] = [
    { name: "the same length answers the kept text without reading", reads: [[1, 3, "one", "one", true], [1, 3, "changed behind", "one", false]], kept: { entries: 1, bytes: 6 } },
    { name: "another length reads again and replaces it", reads: [[1, 3, "one", "one", true], [1, 4, "two!", "two!", true], [1, 4, "x", "two!", false]], kept: { entries: 1, bytes: 8 } },
    { name: "projects apart", reads: [[1, 3, "one", "one", true], [2, 3, "two", "two", true], [1, 3, "x", "one", false]], kept: { entries: 2, bytes: 12 } },
    { name: "beyond the entries the least used goes", limits: { entries: 2, bytes: 1000 }, reads: [[1, 3, "one", "one", true], [2, 3, "two", "two", true], [1, 3, "x", "one", false], [3, 5, "three", "three", true], [2, 3, "again", "again", true], [1, 3, "x", "x", true]], kept: { entries: 2, bytes: 12 } },
    { name: "beyond the bytes the least used goes", limits: { entries: 10, bytes: 14 }, reads: [[1, 3, "one", "one", true], [2, 3, "two", "two", true], [3, 2, "xy", "xy", true], [1, 3, "one", "one", true]], kept: { entries: 2, bytes: 10 } },
    { name: "a text over the bytes is answered, not kept, and pushes out nothing", limits: { entries: 10, bytes: 14 }, reads: [[1, 3, "one", "one", true], [2, 9, "long text", "long text", true], [2, 9, "long text", "long text", true], [1, 3, "x", "one", false]], kept: { entries: 1, bytes: 6 } },
    { name: "a missing row is answered as missing, not kept", reads: [[1, 3, undefined, undefined, true], [1, 3, "now", "now", true]], kept: { entries: 1, bytes: 6 } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const texts = storedTexts<{ text: string }>(c.limits ?? { entries: 8, bytes: 1000 });
      c.reads.forEach(([projectId, bytes, inDb, answered, read], i) => {
        let didRead = false;
        const got = texts.get(projectId, bytes, () => {
          didRead = true;
          return inDb === undefined ? undefined : { text: inDb };
        });
        expect([i, got?.text, didRead]).toEqual([i, answered, read]);
        // the program cache's key is made with the text, once per read
        expect(got?.fingerprint).toBe(answered === undefined ? undefined : fingerprintOf(answered));
      });
      expect(texts.size).toEqual(c.kept);
    });
  }

  test("a forgotten project is read again, whatever its length", () => {
    const texts = storedTexts<{ text: string }>({ entries: 8, bytes: 1000 });
    texts.get(1, 3, () => ({ text: "one" }));
    texts.forget(1);
    texts.forget(2); // never kept: nothing happens
    expect(texts.size).toEqual({ entries: 0, bytes: 0 });
    expect(texts.get(1, 3, () => ({ text: "uno" }))?.text).toBe("uno");
  });

  test("a kept text answers the value made at its read, fingerprint and all", () => {
    const texts = storedTexts<{ text: string }>({ entries: 8, bytes: 1000 });
    const first = texts.get(1, 3, () => ({ text: "one" }));
    expect(texts.get(1, 3, () => ({ text: "never read" }))).toBe(first!);
    expect(first?.fingerprint).toBe(fingerprintOf("one"));
  });
});

describe("generate and previews read the document once per save", () => {
  let s: Team;
  afterEach(() => s?.t.cleanup());

  const doc = (text: string) => ({ sheets: [{ id: "s1", name: "Main", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: text } }], edges: [] }] });

  test("an unchanged project answers from the kept text; a save, an edit of the same length or a direct write of another length reads anew", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: doc("Hello") });
    // every read of a document goes through this statement (projects/service.ts storedScenario)
    const content = projectStatements(s.t.ctx.db).document;
    const own = content.get.bind(content);
    let reads = 0;
    content.get = ((...args: Parameters<typeof own>) => {
      reads++;
      return own(...args);
    }) as typeof content.get;
    /** the program generate answers, and whether the document was read for it */
    const code = async (path = "generate") => {
      const before = reads;
      const r = await s.t.call("POST", `/api/projects/${id}/${path}`, { cookie: s.owner, json: path === "generate" ? {} : undefined });
      expect(r.status).toBe(200);
      return [r.body.code.match(/Hello|Howdy|Good evening/)?.[0], reads > before];
    };
    try {
      expect(await code()).toEqual(["Hello", true]);
      expect(await code()).toEqual(["Hello", false]);
      expect(await code("export")).toEqual(["Hello", false]);

      // a save through the API, of the same length
      const current = (await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body;
      expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: doc("Howdy"), baseUpdatedAt: current.updatedAt } })).status).toBe(200);
      expect(await code()).toEqual(["Howdy", true]);
      expect(await code()).toEqual(["Howdy", false]);

      // a write from outside the service (the product has none) is still seen when the length moves
      s.t.ctx.db.update(projects).set({ data: JSON.stringify(doc("Good evening")) }).where(eq(projects.id, id)).run();
      expect(await code()).toEqual(["Good evening", true]);
      expect(await code()).toEqual(["Good evening", false]);

      // a preview start of the unchanged project reads nothing either
      const before = reads;
      const p = await s.t.call("POST", `/api/projects/${id}/preview`, { cookie: s.owner, json: {} });
      expect([p.status, p.body.status]).toEqual([201, "running"]);
      expect(reads).toBe(before);
      await s.t.call("DELETE", `/api/preview/${p.body.id}`, { cookie: s.owner });
    } finally {
      content.get = own;
    }
  });

  test("two saves of the same length in the same millisecond: the second is what generate reads", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: doc("Hallo") });
    setSystemTime(new Date("2026-11-28T08:00:00.000Z"));
    try {
      const projects = s.t.ctx.projects;
      projects.update(id, OWNER, { data: doc("Hallo") });
      expect(projects.storedScenario(id).data).toContain("Hallo");
      projects.update(id, OWNER, { data: doc("Howdy") });
      expect(projects.storedScenario(id).data).toContain("Howdy");
      // and a change of the user database flag alone
      projects.update(id, OWNER, { userDatabaseEnabled: 0 });
      expect(projects.storedScenario(id).userDatabaseEnabled).toBe(0);
    } finally {
      setSystemTime();
    }
  });
});
