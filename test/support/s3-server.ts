// A real S3-compatible server for tests: s3rver on 127.0.0.1, a random port, a temporary folder.
// s3rver verifies request signatures against the key pairs it knows ("S3RVER"/"S3RVER" by
// default); each server here gets its own random pair too, so secret scans look for strings that
// cannot appear by accident.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);

export interface S3TestServer {
  /** e.g. http://127.0.0.1:41234 */
  endpoint: string;
  port: number;
  dir: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Objects written, in order, and how: s3rver's event name ("ObjectCreated:Put", or "ObjectCreated:Post" for a completed multipart upload). */
  created: { key: string; how: string }[];
  stop(): Promise<void>;
}

/** Starts s3rver with the given buckets already created. */
export async function startS3Server(opts: { buckets?: string[] } = {}): Promise<S3TestServer> {
  const S3rver = require("s3rver");
  const { DUMMY_ACCOUNT } = require("s3rver/lib/models/account");
  const accessKeyId = `AKTEST${randomBytes(8).toString("hex").toUpperCase()}`;
  const secretAccessKey = randomBytes(24).toString("base64url");
  DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  const dir = mkdtempSync(join(tmpdir(), "botloom-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: (opts.buckets ?? []).map((name) => ({ name, configs: [] })),
  });
  const created: { key: string; how: string }[] = [];
  server.on("event", (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
    for (const r of e.Records) if (r.eventName.startsWith("ObjectCreated:")) created.push({ key: r.s3.object.key, how: r.eventName });
  });
  const info: { port: number } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${info.port}`,
    port: info.port,
    dir,
    accessKeyId,
    secretAccessKey,
    created,
    async stop() {
      await server.close();
      DUMMY_ACCOUNT.revokeAccessKey(accessKeyId);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}
