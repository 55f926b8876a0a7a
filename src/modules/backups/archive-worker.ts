// The backup thread: one per backup, started by writeArchive (archive.ts), which says why.
// Also an entry point of the compiled executable (scripts/build.ts).
import { enterBackground } from "../../lib/priority";
import { buildArchive, type ArchiveJob, type FromBackupThread } from "./archive-build";

declare const self: Worker;

enterBackground();

self.onmessage = async (e: MessageEvent<ArchiveJob>) => {
  try {
    self.postMessage({ ok: true, manifest: await buildArchive(e.data) } satisfies FromBackupThread);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    self.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err), ...(typeof code === "string" ? { code } : {}) } satisfies FromBackupThread);
  }
};
