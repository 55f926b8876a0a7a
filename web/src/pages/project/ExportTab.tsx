// Export: the project's document as project.json, and the generated bot program (highlighted,
// downloadable as bot.ts; it runs on its own after the install line of export/run-line.ts).
import { useMemo } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get, post } from "../../api/client";
import { CopyButton, downloadText, ErrorLine } from "../../components/ui";
import { tokenize } from "./export/highlight";
import { INSTALL_LINE } from "./export/run-line";

export function ExportTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const json = useMutation({
    mutationFn: () => get<{ data: string; fileName: string; mimeType: string }>(`/api/bot/projects/${projectId}/export`),
    onSuccess: (r) => {
      // base64 → UTF-8 text
      const bytes = Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
      downloadText(r.fileName || "project.json", new TextDecoder().decode(bytes), "application/json");
    },
  });
  const code = useMutation({ mutationFn: () => post<{ code: string; lines: number }>(`/api/projects/${projectId}/generate`, {}) });
  const tokens = useMemo(() => (code.data ? tokenize(code.data.code) : []), [code.data]);
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="export-json">
        <h2 id="export-json">{t("export.jsonTitle")}</h2>
        <p className="muted small">{t("export.jsonHint")}</p>
        <div><button type="button" className="btn primary" onClick={() => json.mutate()} disabled={json.isPending}>{t("export.download")}</button></div>
        <ErrorLine error={json.error} />
      </section>
      <section className="card stack" aria-labelledby="export-code">
        <h2 id="export-code">{t("export.codeTitle")}</h2>
        <p className="muted small">{t("export.codeHint")} <code data-testid="install-line">{INSTALL_LINE}</code></p>
        <div className="row">
          <button type="button" className="btn primary" onClick={() => code.mutate()} disabled={code.isPending}>{code.data ? t("export.regenerate") : t("export.generate")}</button>
          {code.data && (
            <>
              <button type="button" className="btn" onClick={() => downloadText("bot.ts", code.data.code, "text/typescript")}>{t("export.downloadCode")}</button>
              <CopyButton text={code.data.code} />
              <span className="muted small">{t("export.lines", { count: code.data.lines })}</span>
            </>
          )}
        </div>
        <ErrorLine error={code.error} />
        {code.data && (
          <pre className="code" data-testid="code-view" tabIndex={0} aria-label={t("export.codeTitle")}>
            <code>{tokens.map((tk, i) => (tk.kind === "text" ? tk.text : <span key={i} className={`tok-${tk.kind}`}>{tk.text}</span>))}</code>
          </pre>
        )}
      </section>
    </div>
  );
}
