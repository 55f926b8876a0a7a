// The secret masker with many secrets (runtime/secret-forms.ts secretIndex): the server masks the
// token of every running bot, a thousand and more. Past a few secrets the forms are looked up by
// their first units instead of one pattern of them all; the answer must be the one pattern's.
import { describe, expect, test } from "bun:test";
import { foldCase, secretForms, secretIndex, secretMasker } from "../../src/scenario/codegen/runtime/secret-forms";

/** What one pattern of every form, longest first, makes of a text: the reference. */
function reference(secrets: string[], minLength = 8) {
  const forms = [...new Set(secrets.filter((s) => s.length >= minLength).flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi");
  return (text: string) => text.replace(pattern, "***");
}

// a fixed generator: the same texts every run
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T,>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
const token = (i: number) => `${7_100_000_000 + i}:AA${Array.from({ length: 33 }, () => pick([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"])).join("")}`;
const flipCase = (s: string) => [...s].map((c) => (random() < 0.3 ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c)).join("");

describe("many secrets", () => {
  const tokens = Array.from({ length: 1000 }, (_, i) => token(i));
  const extra = ["Пароль-Секрет-42", "Σίγμα-secret-ς-77", "straße-key-Kelvin-K"];
  const all = [...tokens, ...extra];
  const index = secretIndex();
  for (const s of all) index.add(s);
  const ref = reference(all);

  test("every form of any secret, in another case, among words and other alphabets, is masked as one pattern of all would mask it", () => {
    const words = ["hello", "getMe", "[chat 42]", "Привет", "ß", "ς", "%3A", "=", "AAAA", " ", "\n", "🙂"];
    let masked = 0;
    for (let n = 0; n < 400; n++) {
      const parts: string[] = [];
      for (let k = 0; k < 6; k++) {
        if (random() < 0.4) {
          const form = pick(secretForms(pick(random() < 0.2 ? extra : tokens)));
          parts.push(random() < 0.5 ? flipCase(form) : form);
        } else parts.push(pick(words));
      }
      const text = parts.join(random() < 0.5 ? " " : "");
      const out = index.mask(text);
      expect(out).toBe(ref(text));
      if (out !== text) masked++;
    }
    expect(masked).toBeGreaterThan(300); // the texts did hold secrets
  });

  test("a text with no secret comes back as it was; a secret added twice changes nothing", () => {
    const text = "[chat 7] node start: message sent (Привет, Ann!) 7100000001:AB";
    expect(index.mask(text)).toBe(text);
    const before = index.mask(`x ${tokens[5]} y`);
    index.add(tokens[5]!);
    expect(index.mask(`x ${tokens[5]} y`)).toBe(before);
    expect(before).toBe("x *** y");
  });

  test("a short secret is not kept; secretMasker is an index of the secrets it is given", () => {
    const few = secretIndex(6);
    few.add("abc");
    expect(few.mask("abc abc")).toBe("abc abc");
    expect(secretMasker(tokens.slice(0, 3))(`a ${Buffer.from(tokens[1]!).toString("base64")} b`)).toBe(reference(tokens.slice(0, 3))(`a ${Buffer.from(tokens[1]!).toString("base64")} b`));
  });
});

test("case folding keeps the length and folds as the regex i flag does", () => {
  for (const s of ["abcXYZ09", "Привет ß ς σ Σ ſ K k ǆ İ ı 🙂"]) {
    const f = foldCase(s);
    expect(f.length).toBe(s.length);
    for (let i = 0; i < s.length; i++) {
      const a = s[i]!;
      const b = f[i]!;
      // the regex's own judgement: the folded unit matches the original case-insensitively
      expect(new RegExp("^" + b.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$", "i").test(a)).toBe(true);
    }
  }
  // a non-ASCII letter never folds to ASCII (ſ, K) and ß stays one unit
  expect(foldCase("ſK")).toBe("ſK");
  expect(foldCase("ß")).toBe("ß");
});
