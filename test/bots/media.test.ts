// Bots send the platform's media: files of the built-in folder are uploaded from disk, files of
// other storage configs are fetched through the platform's /uploads route; the file id the
// messenger returns is remembered per token, so the next start sends it by id (docs/api.md#project-rules rule 6).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { projectMediaFileIds } from "../../src/db/project-schema";
import { createApp } from "../../src/app";
import { startFakeMessenger, type FakeMessenger, type FakeUser } from "../support/fake-messenger";
import { createTestApp, loginAs, setUp, type TestApp } from "../support/app";
import { freePort } from "../support/process";

let fake: FakeMessenger;
let t: TestApp;
let stopServer: () => void;
let cookie: string;
const user: FakeUser = { id: 6001, first_name: "Mia" };
// A 1×1 PNG: the media module checks that the bytes match the declared type.
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (c) => c.charCodeAt(0));

beforeAll(async () => {
  fake = await startFakeMessenger();
  const port = await freePort();
  t = createTestApp({ fileDb: true, env: { MESSENGER_API_ROOT: fake.url } });
  await setUp(t, { operators: [91] });
  const app = createApp(t.ctx).listen({ port, hostname: "127.0.0.1" });
  t.ctx.state.localUrl = `http://127.0.0.1:${port}`;
  stopServer = () => app.server?.stop(true);
  cookie = await loginAs(t, 91);
});

afterAll(async () => {
  await t.ctx.bots.shutdown();
  stopServer?.();
  await fake.stop();
  t.cleanup();
});

async function upload(projectId: number) {
  const fd = new FormData();
  fd.append("file", new File([PNG], "pixel.png", { type: "image/png" }));
  const r = await t.call("POST", `/api/projects/${projectId}/media`, { cookie, body: fd });
  expect(r.status).toBe(201);
  return r.body as { id: number; url: string };
}

async function botWithPhoto(name: string, useStorageConfig: boolean) {
  const project = await t.call("POST", "/api/projects", { cookie, json: { name } });
  const projectId = project.body.id as number;
  if (useStorageConfig) {
    const root = join(t.dir, `store-${name}`);
    mkdirSync(root, { recursive: true });
    const cfg = await t.call("POST", "/api/storage-configs", { cookie, json: { name: `disk ${name}`, backend: "local", config: { rootPath: root } } });
    expect((await t.call("PATCH", `/api/storage-configs/${cfg.body.id}`, { cookie, json: { isActive: true } })).status).toBe(200);
  }
  const media = await upload(projectId);
  const data = { sheets: [{ id: "s", name: "S", edges: [], nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { command: "/start", messageText: "", imageUrl: media.url, mediaCaption: "A pixel" } }] }] };
  expect((await t.call("PUT", `/api/projects/${projectId}`, { cookie, json: { data } })).status).toBe(200);
  const bot = fake.addBot();
  const token = await t.call("POST", `/api/bot/projects/${projectId}/tokens`, { cookie, json: { token: bot.token } });
  return { projectId, tokenId: token.body.id as number, bot, media };
}

/** The file ids the bots recorded for a media URL in the project's own database, keyed "t<tokenId>". */
function storedIds(projectId: number, url: string): Record<string, string> {
  const rows = t.ctx.projectFiles.existing(projectId)?.select().from(projectMediaFileIds).where(eq(projectMediaFileIds.mediaUrl, url)).all() ?? [];
  return Object.fromEntries(rows.map((r) => [`t${r.tokenId}`, r.fileId]));
}

describe("media in bots", () => {
  for (const [label, useStorageConfig] of [["built-in folder (read from disk)", false], ["a storage config (fetched through /uploads/s/…)", true]] as const) {
    test(`${label}: uploaded once, then sent by the remembered file id`, async () => {
      const { projectId, tokenId, bot, media } = await botWithPhoto(useStorageConfig ? "Remote" : "Local", useStorageConfig);
      expect(media.url.startsWith(useStorageConfig ? "/uploads/s/" : "/uploads/")).toBe(true);
      expect((await t.call("POST", `/api/bot/tokens/${tokenId}/start`, { cookie })).status).toBe(200);
      fake.sendText(bot.token, user, "/start");
      const [first] = await fake.waitForSent(bot.token, user.id, 1, 15_000);
      expect(first.method).toBe("sendPhoto");
      expect(first.params.caption).toBe("A pixel");
      expect(first.params.photo).toMatchObject({ size: PNG.length }); // a multipart upload
      const fileId = await (async () => {
        for (let i = 0; i < 100; i++) {
          const id = storedIds(projectId, media.url)[`t${tokenId}`];
          if (id) return id;
          await Bun.sleep(50);
        }
        throw new Error("the bot did not remember the file id");
      })();
      // Within the same process the id is reused at once; after a restart it comes from the program.
      expect((await t.call("POST", `/api/bot/tokens/${tokenId}/restart`, { cookie })).status).toBe(200);
      fake.sendText(bot.token, user, "/start");
      const [second] = await fake.waitForSent(bot.token, user.id, 1, 15_000);
      expect(second.params.photo).toBe(fileId);
      await t.call("POST", `/api/bot/tokens/${tokenId}/stop`, { cookie });
    }, 60_000);
  }
});
