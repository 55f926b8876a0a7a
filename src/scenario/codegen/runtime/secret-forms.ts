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

/** The regex `i` flag's case folding (Canonicalize without the `u` flag), unit by unit: as long as `text`. */
export function foldCase(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text.toUpperCase();
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const up = ch.toUpperCase();
    out += up.length === 1 && (ch.charCodeAt(0) < 128 || up.charCodeAt(0) >= 128) ? up : ch;
  }
  return out;
}

/** Every form is at least this long (secretForms): a text is looked up by each run of this many units. */
const FORM_KEY = 6;
/**
 * Up to this many forms, one pattern of them all reads a text fastest. The server masks every
 * running bot's token: a pattern of 1,000 tokens' forms took seconds a minute of its event loop
 * with bots logging, and was built again at each start (docs/performance.md).
 */
const ONE_PATTERN_FORMS = 128;

const patternOf = (forms: Iterable<string>) =>
  new RegExp([...forms].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi");

/**
 * Secrets to mask, added one at a time (the server adds a bot's token when it starts): each form
 * is kept once, case-folded, under its first FORM_KEY units. Adding costs one secret's forms; a
 * text is read once for the forms it holds, however many secrets there are, and what it holds is
 * replaced as one pattern of every form would (longest first).
 */
export function secretIndex(minLength = 8) {
  const secrets = new Set<string>();
  const forms = new Set<string>();
  const byKey = new Map<string, string[]>();
  let pattern: RegExp | null | undefined; // every form in one (undefined: to be built; null: too many)
  return {
    add(secret: string) {
      if (secret.length < minLength || secrets.has(secret)) return;
      secrets.add(secret);
      for (const form of secretForms(secret)) {
        const folded = foldCase(form);
        if (forms.has(folded)) continue;
        forms.add(folded);
        const key = folded.slice(0, FORM_KEY);
        const list = byKey.get(key);
        if (list) list.push(folded);
        else byKey.set(key, [folded]);
      }
      pattern = undefined;
    },
    mask(text: string): string {
      if (forms.size === 0) return text;
      if (pattern === undefined) pattern = forms.size <= ONE_PATTERN_FORMS ? patternOf(forms) : null;
      if (pattern) return text.replace(pattern, "***");
      const folded = foldCase(text);
      const present = new Set<string>();
      for (let i = 0; i + FORM_KEY <= folded.length; i++) {
        const list = byKey.get(folded.slice(i, i + FORM_KEY));
        if (list) for (const f of list) if (folded.startsWith(f, i)) present.add(f);
      }
      return present.size === 0 ? text : text.replace(patternOf(present), "***");
    },
  };
}

/** A function that replaces every form of the given secrets (those of at least minLength characters) with "***". */
export function secretMasker(secrets: string[], minLength = 8): (text: string) => string {
  const index = secretIndex(minLength);
  for (const s of secrets) index.add(s);
  return (text) => index.mask(text);
}
