// Magic-byte checks: the declared type is a claim; the first bytes decide. A renamed executable,
// a script or an HTML/SVG page never gets in, whatever the client called it.

const ascii = (b: Uint8Array, at: number, s: string) => {
  if (b.length < at + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
};
const bytes = (b: Uint8Array, at: number, sig: number[]) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

/** What the content really is, when it is something we never accept. */
export function dangerousContent(head: Uint8Array): string | null {
  if (ascii(head, 0, "MZ")) return "a Windows executable";
  if (bytes(head, 0, [0x7f, 0x45, 0x4c, 0x46])) return "an ELF executable";
  for (const sig of [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe]]) {
    if (bytes(head, 0, sig)) return "a Mach-O executable or Java class";
  }
  if (bytes(head, 0, [0x00, 0x61, 0x73, 0x6d])) return "a WebAssembly module";
  let start = bytes(head, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  if (ascii(head, start, "#!")) return "a script";
  while (start < head.length && start < 256 && (head[start] === 0x20 || head[start] === 0x09 || head[start] === 0x0a || head[start] === 0x0d)) start++;
  if (head[start] === 0x3c /* < */) {
    const text = new TextDecoder("utf-8", { fatal: false }).decode(head.subarray(start, start + 2048)).toLowerCase();
    if (/<(?:!doctype|html|head|body|script|svg|iframe|object|embed|meta|form|\?xml)/.test(text)) {
      return "an HTML, SVG or XML page";
    }
  }
  return null;
}

const isoBmff = (h: Uint8Array) => ascii(h, 4, "ftyp") || ascii(h, 4, "moov") || ascii(h, 4, "mdat") || ascii(h, 4, "wide") || ascii(h, 4, "free");
const ebml = (h: Uint8Array) => bytes(h, 0, [0x1a, 0x45, 0xdf, 0xa3]);
const zip = (h: Uint8Array) => bytes(h, 0, [0x50, 0x4b, 0x03, 0x04]) || bytes(h, 0, [0x50, 0x4b, 0x05, 0x06]) || bytes(h, 0, [0x50, 0x4b, 0x07, 0x08]);
const ole = (h: Uint8Array) => bytes(h, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const riff = (h: Uint8Array, form: string) => ascii(h, 0, "RIFF") && ascii(h, 8, form);
const ogg = (h: Uint8Array) => ascii(h, 0, "OggS");
const mp3 = (h: Uint8Array) => ascii(h, 0, "ID3") || (h[0] === 0xff && h.length > 1 && (h[1] & 0xe0) === 0xe0 && (h[1] & 0x06) !== 0);

/** Signature required for a declared type; types without one here get only the dangerous-content check. */
const SIGNATURES: Record<string, (h: Uint8Array) => boolean> = {
  "image/jpeg": (h) => bytes(h, 0, [0xff, 0xd8, 0xff]),
  "image/png": (h) => bytes(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  "image/gif": (h) => ascii(h, 0, "GIF87a") || ascii(h, 0, "GIF89a"),
  "image/webp": (h) => riff(h, "WEBP"),
  "image/bmp": (h) => ascii(h, 0, "BM"),
  "image/tiff": (h) => bytes(h, 0, [0x49, 0x49, 0x2a, 0x00]) || bytes(h, 0, [0x4d, 0x4d, 0x00, 0x2a]),
  "image/heic": isoBmff,
  "image/heif": isoBmff,
  "image/avif": isoBmff,
  "video/mp4": isoBmff,
  "video/quicktime": isoBmff,
  "video/3gpp": isoBmff,
  "video/webm": ebml,
  "video/x-matroska": ebml,
  "video/x-msvideo": (h) => riff(h, "AVI "),
  "video/ogg": ogg,
  "video/mpeg": (h) => bytes(h, 0, [0x00, 0x00, 0x01, 0xba]) || bytes(h, 0, [0x00, 0x00, 0x01, 0xb3]) || h[0] === 0x47,
  "audio/mpeg": mp3,
  "audio/ogg": ogg,
  "audio/opus": ogg,
  "audio/wav": (h) => riff(h, "WAVE"),
  "audio/webm": ebml,
  "audio/aac": (h) => ascii(h, 0, "ID3") || (h[0] === 0xff && (h[1] & 0xf6) === 0xf0),
  "audio/mp4": isoBmff,
  "audio/flac": (h) => ascii(h, 0, "fLaC"),
  "application/pdf": (h) => ascii(h, 0, "%PDF-"),
  "application/zip": zip,
  "application/msword": ole,
  "application/vnd.ms-excel": ole,
  "application/vnd.ms-powerpoint": ole,
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": zip,
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": zip,
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": zip,
  "application/vnd.oasis.opendocument.text": zip,
  "application/vnd.oasis.opendocument.spreadsheet": zip,
  "application/vnd.oasis.opendocument.presentation": zip,
};

export function matchesSignature(type: string, head: Uint8Array): boolean {
  const check = SIGNATURES[type];
  return check ? check(head) : true;
}

/** For parts sent without a usable type or name: the type the bytes unambiguously show. */
export function typeFromContent(head: Uint8Array): string | null {
  for (const type of ["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf", "audio/flac", "audio/wav", "video/x-msvideo"]) {
    if (SIGNATURES[type](head)) return type;
  }
  return null;
}

/** Text types must look like text: no NUL bytes (binary smuggled in as text/plain). */
export function looksLikeText(head: Uint8Array): boolean {
  return !head.includes(0);
}
