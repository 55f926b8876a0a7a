// Every file the fake hands out (user media, sent media, avatars) gets a file_id that getFile
// resolves and /file/bot<token>/<path> serves, so bots can round-trip media like on Telegram.
import { Upload } from "./params";

// 1x1 transparent PNG: fixed bytes so tests can compare downloads exactly
export const PNG_BYTES = new Uint8Array(Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
));

export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_size: number;
  file_path: string;
  bytes: Uint8Array;
  mime_type: string;
  file_name?: string;
}

// Telegram file ids start with a kind-specific prefix; keep that so ids look familiar in logs
const PREFIX: Record<string, string> = {
  photo: "AgAC", document: "BQAC", video: "BAAC", audio: "CQAC", voice: "AwAC", sticker: "CAAC", animation: "CgAC",
};
const FOLDER: Record<string, string> = {
  photo: "photos", document: "documents", video: "videos", audio: "music", voice: "voice", sticker: "stickers", animation: "animations",
};

export class FileStore {
  private byId = new Map<string, StoredFile>();
  private byPath = new Map<string, StoredFile>();
  private n = 0;

  /** `fixedId` adopts an id the fake never issued (tests invent ids; Telegram would refuse them). */
  create(kind: string, source?: Upload, fileName?: string, fixedId?: string): StoredFile {
    const n = ++this.n;
    const name = source?.fileName ?? fileName;
    const ext = name?.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : kind === "photo" ? "png" : "dat";
    const bytes = source?.bytes ?? PNG_BYTES;
    const file: StoredFile = {
      file_id: fixedId ?? `${PREFIX[kind] ?? "BQAC"}AgADfake${String(n).padStart(6, "0")}`,
      file_unique_id: `AQADfake${n}`,
      file_size: bytes.length,
      file_path: `${FOLDER[kind] ?? "documents"}/file_${n}.${ext}`,
      bytes,
      mime_type: source?.mimeType && source.mimeType !== "application/octet-stream" ? source.mimeType : mimeOf(ext),
      file_name: name,
    };
    this.byId.set(file.file_id, file);
    this.byPath.set(file.file_path, file);
    return file;
  }

  get(fileId: string) {
    return this.byId.get(fileId);
  }

  atPath(path: string) {
    return this.byPath.get(path);
  }

  /** A photo as Telegram sends it: several sizes, largest last. */
  photoSizes(source?: Upload): Record<string, any>[] {
    return [[90, 90], [320, 320], [800, 800]].map(([width, height]) => {
      const f = this.create("photo", source);
      return { file_id: f.file_id, file_unique_id: f.file_unique_id, file_size: f.file_size, width, height };
    });
  }
}

function mimeOf(ext: string): string {
  const known: Record<string, string> = {
    png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", pdf: "application/pdf",
    txt: "text/plain", mp4: "video/mp4", mp3: "audio/mpeg", ogg: "audio/ogg", json: "application/json", zip: "application/zip",
  };
  return known[ext] ?? "application/octet-stream";
}
