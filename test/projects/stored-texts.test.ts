// The stored scenarios' texts kept by project and save (src/modules/projects/stored-texts.ts), and
// that generate and a preview start read a project's document only when it was saved since.
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { projects } from "../../src/db/schema";
import { projectStatements } from "../../src/modules/projects/queries";
import { storedTexts } from "../../src/modules/projects/stored-texts";
import { newProject, team, type Team } from "./helpers";

describe("the kept texts", () => {
  /** reads in order: [project, stamp, text the database holds] → [text answered, read from the database] */
  const cases: { name: string; limits?: { entries: number; bytes: number }; reads: [number, string, string | undefined, string | undefined, boolean][]; kept: { entries: number; bytes: number } }[] = [
    { name: "the same stamp answers the kept text without reading", reads: [[1, "a", "one", "one", true], [1, "a", "changed behind", "one", false]], kept: { entries: 1, bytes: 6 } },
    { name: "a new stamp reads again and replaces it", reads: [[1, "a", "one", "one", true], [1, "b", "two!", "two!", true], [1, "b", "x", "two!", false]], kept: { entries: 1, bytes: 8 } },
    { name: "projects apart", reads: [[1, "a", "one", "one", true], [2, "a", "two", "two", true], [1, "a", "x", "one", false]], kept: { entries: 2, bytes: 12 } },
    { name: "beyond the entries the least used goes", limits: { entries: 2, bytes: 1000 }, reads: [[1, "a", "one", "one", true], [2, "a", "two", "two", true], [1, "a", "x", "one", false], [3, "a", "three", "three", true], [2, "a", "again", "again", true], [1, "a", "x", "x", true]], kept: { entries: 2, bytes: 12 } },
    { name: "beyond the bytes the least used goes", limits: { entries: 10, bytes: 14 }, reads: [[1, "a", "one", "one", true], [2, "a", "two", "two", true], [3, "a", "xy", "xy", true], [1, "a", "one", "one", true]], kept: { entries: 2, bytes: 10 } },
    { name: "a text over the bytes is answered, not kept", limits: { entries: 10, bytes: 4 }, reads: [[1, "a", "long text", "long text", true], [1, "a", "long text", "long text", true]], kept: { entries: 0, bytes: 0 } },
    { name: "a missing row is answered as missing, not kept", reads: [[1, "a", undefined, undefined, true], [1, "a", "now", "now", true]], kept: { entries: 1, bytes: 6 } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const texts = storedTexts(c.limits ?? { entries: 8, bytes: 1000 });
      c.reads.forEach(([projectId, stamp, inDb, answered, read], i) => {
        let didRead = false;
        const got = texts.get(projectId, stamp, () => {
          didRead = true;
          return inDb;
        });
        expect([i, got, didRead]).toEqual([i, answered, read]);
      });
      expect(texts.size).toEqual(c.kept);
    });
  }
});

describe("generate and previews read the document once per save", () => {
  let s: Team;
  afterEach(() => s?.t.cleanup());

  const doc = (text: string) => ({ sheets: [{ id: "s1", name: "Main", nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: text } }], edges: [] }] });

  test("an unchanged project answers from the kept text; a save, an edit of the same length or a direct write of another length reads anew", async () => {
    s = await team();
    const id = await newProject(s.t, s.owner, { data: doc("Hello") });
    // every read of a document goes through this statement (projects/service.ts storedScenario)
    const content = projectStatements(s.t.ctx.db).content;
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

      // a save through the API: the same length, a new time
      const current = (await s.t.call("GET", `/api/projects/${id}`, { cookie: s.owner })).body;
      expect((await s.t.call("PUT", `/api/projects/${id}`, { cookie: s.owner, json: { data: doc("Howdy"), baseUpdatedAt: current.updatedAt } })).status).toBe(200);
      expect(await code()).toEqual(["Howdy", true]);
      expect(await code()).toEqual(["Howdy", false]);

      // a write that keeps the time (the product has none) is still seen when the length moves
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
});
