// Files a rename puts in place of others, on disk first (docs/cli.md "restore FILE"): after a
// power cut the new name must not point at data the kernel had not written yet, nor the rename
// itself be lost while the old file is already gone.
import { closeSync, fsyncSync, openSync } from "node:fs";

/** Writes the file's data (or a folder's entries: renames and new files in it) to disk. */
export function syncToDisk(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
