// An S3-compatible bucket (docs/storage.md): path-style addressing for S3-compatible servers and
// checksums only WHEN_REQUIRED, because the SDK's default checksum trailers corrupt uploads on many
// of them. Bodies are sent as Buffers with an explicit ContentLength.
import { open } from "node:fs/promises";
import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import type { Credentials, ObjstoreConfig, TestResult } from "../model";
import { isSafeKey, type StorageBackend, type StoredObject } from "./types";

type Sdk = typeof import("@aws-sdk/client-s3");
let sdkLoad: Promise<Sdk> | null = null;
/** The SDK is the largest module of the server (about a sixth of its start time): loaded on first use only. */
const sdk = () => (sdkLoad ??= import("@aws-sdk/client-s3"));

/** A multipart upload's part: S3 wants 5 MiB at least (but for the last); what an upload holds in memory. */
const PART_BYTES = 8 * 1024 * 1024;

/** The test endpoint must answer quickly even when the endpoint swallows packets. */
export const TEST_TIMEOUT_MS = 4000;

function clientConfig(cfg: ObjstoreConfig, creds: Credentials | null, maxAttempts: number): S3ClientConfig {
  return {
    region: cfg.region,
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    // A custom endpoint is nearly always a server that only understands path-style URLs.
    forcePathStyle: cfg.forcePathStyle ?? Boolean(cfg.endpoint),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts,
    requestHandler: { connectionTimeout: TEST_TIMEOUT_MS, requestTimeout: 120_000 },
    // Without stored credentials requests go unsigned (public buckets). The SDK's default
    // credential chain (environment, ~/.aws, instance metadata) is deliberately never consulted.
    // (Empty static credentials stop the chain; the no-op signer leaves the request unsigned.)
    ...(creds
      ? { credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey } }
      : { credentials: async () => ({ accessKeyId: "", secretAccessKey: "" }), signer: { sign: async (request: any) => request } }),
  };
}

const statusOf = (e: any): number | undefined => e?.$metadata?.httpStatusCode;
const isMissing = (e: any) => statusOf(e) === 404 || e?.name === "NoSuchKey" || e?.name === "NotFound";

export class ObjectStoreBackend implements StorageBackend {
  readonly kind = "objstore" as const;
  private client: Promise<{ s3: Sdk; client: S3Client }> | null = null;

  constructor(
    private readonly cfg: ObjstoreConfig,
    private readonly creds: Credentials | null,
  ) {}

  private api() {
    return (this.client ??= sdk().then((s3) => ({ s3, client: new s3.S3Client(clientConfig(this.cfg, this.creds, 3)) })));
  }

  private get host(): string {
    return this.cfg.endpoint ? new URL(this.cfg.endpoint).host : `s3.${this.cfg.region}.amazonaws.com`;
  }

  async put(key: string, data: Uint8Array, contentType: string): Promise<void> {
    if (!isSafeKey(key)) throw new Error("unsafe object key");
    const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const { s3, client } = await this.api();
    await client.send(new s3.PutObjectCommand({ Bucket: this.cfg.bucket, Key: key, Body: body, ContentLength: body.length, ContentType: contentType }));
  }

  /**
   * Uploads a file from the disk one part at a time (S3's multipart upload), so a large file (a
   * backup archive) costs one part of memory, not its size; a file of one part or less goes in one
   * PutObject. A file that changes size meanwhile fails the upload, and a failed one is aborted so
   * the bucket keeps no orphaned parts.
   */
  async putFile(key: string, path: string, contentType: string): Promise<void> {
    if (!isSafeKey(key)) throw new Error("unsafe object key");
    const file = await open(path, "r");
    try {
      const size = (await file.stat()).size;
      const part = async (offset: number) => {
        const buf = Buffer.allocUnsafe(Math.min(PART_BYTES, size - offset));
        const { bytesRead } = await file.read(buf, 0, buf.length, offset);
        if (bytesRead !== buf.length) throw new Error(`${path} changed while it was uploaded`);
        return buf;
      };
      const { s3, client } = await this.api();
      const at = { Bucket: this.cfg.bucket, Key: key };
      if (size <= PART_BYTES) {
        const body = await part(0);
        await client.send(new s3.PutObjectCommand({ ...at, Body: body, ContentLength: body.length, ContentType: contentType }));
        return;
      }
      const { UploadId } = await client.send(new s3.CreateMultipartUploadCommand({ ...at, ContentType: contentType }));
      try {
        const parts: { ETag: string | undefined; PartNumber: number }[] = [];
        for (let offset = 0, n = 1; offset < size; offset += PART_BYTES, n++) {
          const body = await part(offset);
          const { ETag } = await client.send(new s3.UploadPartCommand({ ...at, UploadId, PartNumber: n, Body: body, ContentLength: body.length }));
          parts.push({ ETag, PartNumber: n });
        }
        await client.send(new s3.CompleteMultipartUploadCommand({ ...at, UploadId, MultipartUpload: { Parts: parts } }));
      } catch (e) {
        await client.send(new s3.AbortMultipartUploadCommand({ ...at, UploadId })).catch(() => {});
        throw e;
      }
    } finally {
      await file.close();
    }
  }

  async read(key: string): Promise<StoredObject | null> {
    if (!isSafeKey(key)) return null;
    try {
      const { s3, client } = await this.api();
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
      if (!out.Body) return null;
      return { body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: out.ContentLength ?? null };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async remove(key: string): Promise<void> {
    if (!isSafeKey(key)) return;
    try {
      const { s3, client } = await this.api();
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
    } catch (e) {
      if (!isMissing(e)) throw e;
    }
  }

  /** docs/api.md#storage-rules rule 6: HeadBucket, falling back to ListObjectsV2 (keys allowed to list but not to head). */
  async test(): Promise<TestResult> {
    const s3 = await sdk();
    const probe = new s3.S3Client(clientConfig(this.cfg, this.creds, 1));
    const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
    try {
      try {
        await probe.send(new s3.HeadBucketCommand({ Bucket: this.cfg.bucket }), { abortSignal: signal });
        return { ok: true, message: `Bucket "${this.cfg.bucket}" is reachable at ${this.host}` };
      } catch (e) {
        if (signal.aborted || !statusOf(e)) return { ok: false, message: this.describe(e, signal.aborted) };
      }
      try {
        await probe.send(new s3.ListObjectsV2Command({ Bucket: this.cfg.bucket, MaxKeys: 1 }), { abortSignal: signal });
        return { ok: true, message: `Bucket "${this.cfg.bucket}" is reachable at ${this.host} (listing allowed)` };
      } catch (e) {
        return { ok: false, message: this.describe(e, signal.aborted) };
      }
    } finally {
      probe.destroy();
    }
  }

  /**
   * A message built only from facts we choose (status, error code, host): the server's own error
   * text may echo the access key id, so it is never passed on.
   */
  describe(e: any, timedOut = false): string {
    if (timedOut || e?.name === "AbortError" || e?.name === "TimeoutError") {
      return `No answer from ${this.host} within ${TEST_TIMEOUT_MS / 1000} s`;
    }
    const status = statusOf(e);
    const name = typeof e?.name === "string" && /^[A-Za-z]{1,64}$/.test(e.name) && e.name !== "Unknown" && e.name !== "UnknownError" ? e.name : null;
    if (status === 404 || name === "NoSuchBucket") return `Bucket "${this.cfg.bucket}" does not exist at ${this.host}`;
    if (status === 401 || status === 403) {
      return `Access denied by ${this.host} (HTTP ${status}${name ? `, ${name}` : ""}): check the access key, the secret and the bucket permissions`;
    }
    if (status) return `${this.host} answered HTTP ${status}${name ? ` (${name})` : ""}`;
    const code = typeof e?.code === "string" && /^[A-Za-z_]{2,40}$/.test(e.code) ? e.code : null;
    if (code) return `Cannot reach ${this.host} (${code})`;
    return `The request to ${this.host} failed${name ? ` (${name})` : ""}`;
  }

  publicUrl(key: string): string | null {
    return this.cfg.publicUrlBase ? `${this.cfg.publicUrlBase.replace(/\/+$/, "")}/${key}` : null;
  }

  close() {
    void this.client?.then(({ client }) => client.destroy());
  }
}
