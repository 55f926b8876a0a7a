// The generated program (read-only, highlighted) with its warnings and a download, and the
// project.json the editor would save.
import { useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { GeneratedWarning } from "../api/types";
import type { Doc } from "./document";

export interface Warning {
  nodeId?: string;
  sheetId?: string;
  code?: string;
  message: string;
}

export interface Generated {
  code: string;
  lines?: number;
  warnings?: GeneratedWarning[];
}

const TOKEN = /(\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\b(?:const|let|var|function|return|if|else|for|while|await|async|import|from|export|new|try|catch|throw|switch|case|break|of|in|typeof|null|undefined|true|false)\b|\b\d+(?:\.\d+)?\b)/g;

/** Comments, strings, keywords and numbers in their own colours; the rest stays text. */
function highlight(code: string) {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of code.matchAll(TOKEN)) {
    if (m.index! > last) out.push(code.slice(last, m.index));
    const tok = m[0];
    const cls = tok.startsWith("//") ? "c" : /^["'`]/.test(tok) ? "s" : /^\d/.test(tok) ? "n" : "k";
    out.push(<span key={i++} className={`hl-${cls}`}>{tok}</span>);
    last = m.index! + tok.length;
  }
  out.push(code.slice(last));
  return out;
}

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function WarningList({ warnings, onPick }: { warnings: Warning[]; onPick: (nodeId: string) => void }) {
  const { t } = useTranslation();
  if (!warnings.length) return <p className="muted small" data-testid="no-warnings">{t("editor.code.noWarnings")}</p>;
  return (
    <ul className="ed-warnings" aria-label={t("editor.code.warnings")}>
      {warnings.map((w, i) => (
        <li key={i}>
          {w.nodeId ? <button type="button" className="link" onClick={() => onPick(w.nodeId!)}>⚠ {w.message}</button> : <span>⚠ {w.message}</span>}
        </li>
      ))}
    </ul>
  );
}

export function CodeView({ generated, warnings, error, doc, onRefresh, onPick, busy }: { generated: Generated | null; warnings: Warning[]; error: string; doc: Doc; onRefresh: () => void; onPick: (id: string) => void; busy: boolean }) {
  const { t } = useTranslation();
  const [view, setView] = useState<"code" | "json">("code");
  const json = useMemo(() => (view === "json" ? JSON.stringify(doc, null, 2) : ""), [doc, view]);
  const code = generated?.code ?? "";
  const lit = useMemo(() => (code.length < 400_000 ? highlight(code) : code), [code]);
  return (
    <div className="ed-codeview">
      <div className="ed-toolbar">
        <button type="button" className={view === "code" ? "active" : ""} onClick={() => setView("code")}>{t("editor.code.program")}</button>
        <button type="button" className={view === "json" ? "active" : ""} onClick={() => setView("json")}>project.json</button>
        <button type="button" onClick={onRefresh} disabled={busy}>{t("editor.code.refresh")}</button>
        {view === "code" && code && <button type="button" onClick={() => download("bot.ts", code, "text/typescript")}>{t("editor.code.download")}</button>}
        {view === "json" && <button type="button" onClick={() => download("project.json", json, "application/json")}>{t("editor.code.download")}</button>}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {view === "code" && <WarningList warnings={warnings} onPick={onPick} />}
      <pre className="ed-code-block" data-testid={view === "code" ? "generated-code" : "project-json"}>{view === "code" ? lit : json}</pre>
    </div>
  );
}
