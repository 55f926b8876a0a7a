// Which messenger file a message carries: the bot records it with the message (record.ts) and the
// platform with an operator's send (src/lib/shared-runtime.ts runs this text too), so the Dialogs
// view can show the file (docs/dialogs.md "Media"). Pure: no imports, no globals.

// ─── The file of a message ─────────────────────────────────────────────────────

type MessageFileRef = { file_id?: unknown; width?: unknown };

/** The file id of a message's media (the largest photo size), or null for a message without one. */
export function messageFileId(message: object | null | undefined): string | null {
  if (!message || typeof message !== "object") return null;
  const m = message as Record<string, unknown>;
  const sizes = m.photo;
  if (Array.isArray(sizes) && sizes.length > 0) {
    const largest = (sizes as MessageFileRef[]).reduce((a, b) => (Number(b.width) > Number(a.width) ? b : a));
    return typeof largest.file_id === "string" ? largest.file_id : null;
  }
  for (const key of ["video", "animation", "document", "voice", "audio", "video_note", "sticker"]) {
    const f = m[key] as MessageFileRef | undefined;
    if (f && typeof f.file_id === "string") return f.file_id;
  }
  return null;
}
