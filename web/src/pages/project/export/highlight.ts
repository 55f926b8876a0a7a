// A small TypeScript tokenizer for the code view: comments, strings, keywords, numbers. One regex
// pass; tokens become React text (never HTML), so the generated code cannot inject markup.
const KEYWORDS = new Set(
  "as async await break case catch class const continue default delete do else export extends false finally for from function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while yield type interface".split(" "),
);

const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\b(\d+(?:\.\d+)?)\b|\b([A-Za-z_$][\w$]*)\b/g;

export type Token = { kind: "comment" | "string" | "number" | "keyword" | "text"; text: string };

export function tokenize(code: string): Token[] {
  const out: Token[] = [];
  let last = 0;
  const push = (kind: Token["kind"], text: string) => {
    const prev = out[out.length - 1];
    if (prev && prev.kind === kind && kind === "text") prev.text += text;
    else out.push({ kind, text });
  };
  for (const m of code.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    if (at > last) push("text", code.slice(last, at));
    if (m[1]) push("comment", m[1]);
    else if (m[2]) push("string", m[2]);
    else if (m[3]) push("number", m[3]);
    else push(KEYWORDS.has(m[4]!) ? "keyword" : "text", m[0]);
    last = at + m[0].length;
  }
  if (last < code.length) push("text", code.slice(last));
  return out;
}
