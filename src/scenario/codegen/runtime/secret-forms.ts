// The forms a secret takes once a bot or the platform has handled it: percent-encoded (URLs,
// forms), base64 at any alignment (basic auth "name:secret"), hex, JSON-, HTML- and
// Markdown-escaped; matched case-insensitively, so a changed case (lower/upper of a key, %3a vs
// %3A) is masked too. One masker for the server (src/log.ts, src/bots/output.ts, through
// src/lib/shared-runtime.ts) and the bot runtime: runtime-text.ts embeds this file like every
// runtime file (docs/runtime.md).
// See docs/security.md "Secrets".

// ─── Secret forms (what the log masker hides) ─────────────────────────────────

/** Every printable form of one secret (longest first). */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms = [
    secret,
    encodeURIComponent(secret),
    encodeURI(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    secret.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
    secret.replace(/([_*[\]`\\])/g, "\\$1"),
    bytes.toString("hex"),
  ];
  // base64 of the secret inside a longer value: the 4-character groups made of its bytes alone,
  // at each of the three alignments, and with the value's end (padding) when it ends the value
  for (let shift = 0; shift < 3; shift++) {
    const shifted = Buffer.concat([Buffer.alloc(shift), bytes]);
    const first = shift === 0 ? 0 : 4;
    const whole = Math.floor(shifted.length / 3) * 4;
    for (const b64 of [shifted.toString("base64"), shifted.toString("base64url")]) forms.push(b64.slice(first, whole), b64.slice(first));
  }
  return [...new Set(forms)].filter((f) => f.length >= 6).sort((a, b) => b.length - a.length);
}

/** A function that replaces every form of the given secrets (those of at least minLength characters) with "***". */
export function secretMasker(secrets: string[], minLength = 8): (text: string) => string {
  const forms = [...new Set(secrets.filter((s) => s.length >= minLength).flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi");
  return (text) => text.replace(pattern, "***");
}
