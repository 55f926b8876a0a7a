// Media types (docs/api.md#media): images, video, audio, PDF, plain text, JSON, ZIP and
// Office documents. Everything else — executables, scripts, HTML, SVG — is refused with 415.
import { z } from "zod";

export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;

export type MediaKind = "photo" | "video" | "audio" | "document";

/** Allowed MIME type → file extension used for generated object names. */
export const ALLOWED_TYPES: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/bmp": "bmp",
  "image/tiff": "tiff",
  "image/heic": "heic",
  "image/heif": "heif",
  "image/avif": "avif",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
  "video/x-matroska": "mkv",
  "video/mpeg": "mpeg",
  "video/3gpp": "3gp",
  "video/x-msvideo": "avi",
  "video/ogg": "ogv",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/opus": "opus",
  "audio/wav": "wav",
  "audio/webm": "weba",
  "audio/aac": "aac",
  "audio/mp4": "m4a",
  "audio/flac": "flac",
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/csv": "csv",
  "application/json": "json",
  "application/zip": "zip",
  "application/msword": "doc",
  "application/vnd.ms-excel": "xls",
  "application/vnd.ms-powerpoint": "ppt",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/vnd.oasis.opendocument.spreadsheet": "ods",
  "application/vnd.oasis.opendocument.presentation": "odp",
};

/** Other spellings clients send for the same types. */
export const TYPE_ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/x-png": "image/png",
  "image/x-ms-bmp": "image/bmp",
  "video/avi": "video/x-msvideo",
  "video/msvideo": "video/x-msvideo",
  "audio/mp3": "audio/mpeg",
  "audio/x-mp3": "audio/mpeg",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/x-aac": "audio/aac",
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "audio/x-flac": "audio/flac",
  "application/x-zip-compressed": "application/zip",
  "application/x-zip": "application/zip",
  "text/json": "application/json",
};

/** Extension of a client's file name → type, for parts sent as application/octet-stream. */
export const EXTENSION_TYPES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(ALLOWED_TYPES).map(([type, ext]) => [ext, type])),
  jpeg: "image/jpeg",
  jpe: "image/jpeg",
  tif: "image/tiff",
  m4v: "video/mp4",
  mpg: "video/mpeg",
  oga: "audio/ogg",
  text: "text/plain",
  log: "text/plain",
  md: "text/plain",
};

/** Names that are refused whatever type they claim (executables, scripts, markup that runs). */
export const FORBIDDEN_EXTENSIONS = new Set([
  "exe", "dll", "com", "bat", "cmd", "msi", "scr", "pif", "cpl", "sys", "vbs", "vbe", "wsf", "hta", "ps1", "psm1",
  "sh", "bash", "zsh", "csh", "ksh", "command", "app", "dmg", "pkg", "deb", "rpm", "apk", "jar", "class",
  "js", "mjs", "cjs", "ts", "py", "pyc", "pl", "rb", "php", "phtml", "asp", "aspx", "jsp", "cgi", "lua",
  "html", "htm", "xhtml", "shtml", "svg", "svgz", "xml", "xsl", "swf", "elf", "so", "dylib", "bin", "run",
]);

export function kindOf(type: string): MediaKind {
  if (type.startsWith("image/")) return "photo";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  return "document";
}

/** docs/api.md#media record. */
export const mediaViewSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  url: z.string(),
  storageConfigId: z.string().nullable(),
  createdAt: z.string(),
});
export type MediaView = z.output<typeof mediaViewSchema>;
