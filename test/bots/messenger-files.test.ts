// The platform's download of a bot user's file (docs/dialogs.md "Media"): refused before the
// download when getFile says it is over the cap, and cut when more bytes come than announced.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FILE_TOO_LARGE, MessengerClient } from "../../src/messenger/client";
import { MessengerError } from "../../src/errors";
import { startFakeMessenger, type FakeMessenger } from "../support/fake-messenger";

let fake: FakeMessenger;
let liar: { port: number; stop: (closeActive?: boolean) => void };
const TOKEN = "123456:" + "A".repeat(35);

beforeAll(async () => {
  fake = await startFakeMessenger();
  // a Bot API that announces no size and sends 100 bytes in chunks without a content-length
  // (raw HTTP: Bun.serve would count the bytes and send a content-length)
  liar = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(sock, data) {
        if (data.toString().split("\r\n")[0]!.includes("/getFile")) {
          const json = JSON.stringify({ ok: true, result: { file_id: "x", file_path: "documents/x.bin" } });
          sock.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\nconnection: close\r\n\r\n${json}`);
          return;
        }
        const chunk = `a\r\n${"z".repeat(10)}\r\n`;
        sock.end(`HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n${chunk.repeat(10)}0\r\n\r\n`);
      },
    },
  });
});
afterAll(async () => {
  liar?.stop(true);
  await fake?.stop();
});

test("a file within the cap comes as a stream with the messenger's content type", async () => {
  const bot = fake.addBot();
  const update = fake.sendDocument(bot.token, { id: 5501, first_name: "Ann" }, { fileName: "a.txt", mimeType: "text/plain", bytes: new TextEncoder().encode("hello file") });
  const fileId = (update as any).message.document.file_id as string;
  const client = new MessengerClient({ apiRoot: fake.url });
  const f = await client.openFile(bot.token, fileId, 1000);
  expect(f.contentType).toStartWith("text/plain");
  expect(await new Response(f.body).text()).toBe("hello file");
  // getFile says 10 bytes: a cap of 5 refuses before any download
  const calls = fake.calls(bot.token, "downloadFile").length;
  const refused = await client.openFile(bot.token, fileId, 5).catch((e) => e);
  expect(refused).toBeInstanceOf(MessengerError);
  expect(refused.message).toBe(FILE_TOO_LARGE);
  expect(fake.calls(bot.token, "downloadFile").length).toBe(calls);
});

test("more bytes than the cap: the stream is cut, the whole download is refused", async () => {
  const client = new MessengerClient({ apiRoot: `http://127.0.0.1:${liar.port}` });
  const f = await client.openFile(TOKEN, "x", 50);
  expect(await new Response(f.body).arrayBuffer().catch((e) => e)).toBeInstanceOf(Error);
  const whole = await client.downloadFile(TOKEN, "x", 50).catch((e) => e);
  expect([whole instanceof MessengerError, whole.message]).toEqual([true, FILE_TOO_LARGE]);
  expect((await client.downloadFile(TOKEN, "x", 100)).bytes.byteLength).toBe(100);
});
