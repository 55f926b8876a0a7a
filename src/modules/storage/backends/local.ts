// A folder on the server's disk: the built-in UPLOADS_DIR or a `local` storage config.
import { mkdir, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve, sep } from "node:path";
import type { TestResult } from "../model";
import { isSafeKey, type StorageBackend, type StoredObject } from "./types";

export class LocalBackend implements StorageBackend {
  readonly kind = "local" as const;

  readonly root: string;

  constructor(rootPath: string) {
    this.root = resolve(rootPath);
  }

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error("unsafe object key");
    return join(this.root, ...key.split("/"));
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Written beside and renamed, so a reader never sees half a file. The dot keeps the
    // temporary name unservable (isSafeKey refuses dot segments).
    const tmp = join(dirname(path), `.tmp-${randomBytes(8).toString("hex")}`);
    try {
      await writeFile(tmp, data, { flag: "wx" });
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => {});
      throw e;
    }
  }

  async read(key: string): Promise<StoredObject | null> {
    if (!isSafeKey(key)) return null;
    const path = this.pathOf(key);
    try {
      // Symlinks inside the root must not lead out of it.
      const [realRoot, realFile] = await Promise.all([realpath(this.root), realpath(path)]);
      if (!realFile.startsWith(realRoot + sep)) return null;
      const st = await stat(realFile);
      if (!st.isFile()) return null;
      return { body: Bun.file(realFile), size: st.size };
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** docs/api.md#storage-rules rule 6: writable, or creatable — proven by writing and removing a probe file. */
  async test(): Promise<TestResult> {
    const probe = join(this.root, `.botloom-probe-${randomBytes(6).toString("hex")}`);
    try {
      await mkdir(this.root, { recursive: true });
      const st = await stat(this.root);
      if (!st.isDirectory()) return { ok: false, message: `${this.root} is not a folder` };
      await writeFile(probe, "probe", { flag: "wx" });
      await rm(probe, { force: true });
      return { ok: true, message: `Folder ${this.root} is writable` };
    } catch (e) {
      await rm(probe, { force: true }).catch(() => {});
      const code = (e as NodeJS.ErrnoException)?.code;
      return { ok: false, message: `Folder ${this.root} is not writable${code ? ` (${code})` : ""}` };
    }
  }

  publicUrl(): string | null {
    return null;
  }

  close() {}
}
