// The preview API end to end: a real preview bot (the generated program, its own process) against
// the in-product emulator, driven through the HTTP API like the Studio does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { kotikDocument, PreviewDriver } from "./support";

const doc = kotikDocument();
let t: TestApp;
let cookie: string;
let projectId: number;

beforeAll(async () => {
  t = createTestApp();
  await setUp(t);
  cookie = await loginAs(t, 501);
  const r = await t.call("POST", "/api/projects", { cookie, json: { name: "Kotik", data: doc ?? undefined } });
  projectId = r.body.id;
});

afterAll(async () => {
  await t.ctx.preview.stopAll();
  t.cleanup();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(doc === null)("kotik questionnaire in a preview", () => {
  test("walks to the end, each answer substituted; stop frees process, port and folder", async () => {
    const created = await t.call("POST", `/api/projects/${projectId}/preview`, { cookie, json: {} });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("running");
    const chat = new PreviewDriver(t, cookie, created.body.id);
    const res = (await t.ctx.preview.resourcesOf(created.body.id))!;
    expect(res.pid).toBeGreaterThan(0);

    await chat.act({ type: "text", text: "/start" });
    const ask = await chat.botSays((m) => m.includes("Сколько тебе лет?"));
    expect(ask.find((e) => e.text === "Сколько тебе лет?")!.node).toBeTruthy();

    await chat.act({ type: "text", text: "27" });
    const gender = await chat.botSays((m) => m.some((x) => x.includes("определимся с полом")));
    expect(JSON.stringify(gender.at(-1)!.replyMarkup)).toContain("Я парень");
    await chat.act({ type: "text", text: "Я парень" });
    await chat.botSays((m) => m.includes("Кто тебе интересен?"));
    await chat.act({ type: "text", text: "Все равно" });
    await chat.botSays((m) => m.includes("Из какого ты города?"));
    await chat.act({ type: "text", text: "Тверь" });
    await chat.botSays((m) => m.includes("Как мне тебя называть?"));
    await chat.act({ type: "text", text: "Барсик" });
    await chat.botSays((m) => m.some((x) => x.startsWith("Расскажи о себе")));
    await chat.act({ type: "text", text: "Люблю рыбу и сон" });
    await chat.botSays((m) => m.some((x) => x.startsWith("Теперь пришли фото")));
    await chat.act({ type: "photo" });
    const card = await chat.botSays((m) => m.includes("Все верно?"));
    expect(card.map((e) => e.text?.trim())).toContain("Барсик, 27, Тверь - Люблю рыбу и сон");

    // a client that keeps the chat asks only for what changed after its version
    const whole = await chat.transcript();
    const changes = await t.call("GET", `/api/preview/${chat.id}/transcript?after=${whole.version - 1}&changes=1`, { cookie });
    expect(changes.body.entries).toEqual([whole.entries.at(-1)]);
    expect((await t.call("GET", `/api/preview/${chat.id}/transcript?after=${whole.version}&changes=1`, { cookie })).body.entries).toEqual([]);

    const vars = await t.call("GET", `/api/preview/${chat.id}/variables`, { cookie });
    expect(vars.body.variables).toMatchObject({ age: "27", city: "Тверь", name: "Барсик", info: "Люблю рыбу и сон" });

    // the preview never counts as the project's bot users
    expect(existsSync(res.dir!)).toBe(true);
    const stopped = await t.call("DELETE", `/api/preview/${chat.id}`, { cookie });
    expect(stopped.status).toBe(200);
    expect(alive(res.pid!)).toBe(false);
    expect(existsSync(res.dir!)).toBe(false);
    const port = await fetch(`http://127.0.0.1:${res.port}/`).then(() => "open", () => "closed");
    expect(port).toBe("closed");
    expect((await t.call("GET", `/api/preview/${chat.id}`, { cookie })).status).toBe(404);
  }, 60_000);
});
