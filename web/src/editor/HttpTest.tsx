// "Send test request" of an http_request node: the server sends it as written (variables are not
// substituted) and the answer is shown under the form.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText, post } from "../api/client";
import type { Data } from "./document";

interface Answer {
  status: number;
  statusText: string;
  body: string;
  truncated: boolean;
  durationMs: number;
}

export function HttpTest({ projectId, data }: { projectId: number; data: Data }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState("");
  const send = async () => {
    setBusy(true);
    setError("");
    setAnswer(null);
    try {
      const timeout = Number(data.httpRequestTimeout);
      setAnswer(
        await post<Answer>(`/api/projects/${projectId}/http-test`, {
          url: String(data.httpRequestUrl ?? ""),
          method: String(data.httpRequestMethod ?? "GET").toUpperCase(),
          headers: typeof data.httpRequestHeaders === "string" || (data.httpRequestHeaders && typeof data.httpRequestHeaders === "object") ? data.httpRequestHeaders : undefined,
          body: typeof data.httpRequestBody === "string" ? data.httpRequestBody : undefined,
          timeoutSeconds: timeout > 0 && timeout <= 30 ? timeout : 10,
          bearerToken: data.httpRequestAuthType === "bearer" && typeof data.httpRequestAuthBearerToken === "string" ? data.httpRequestAuthBearerToken : undefined,
        }),
      );
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ed-field" data-testid="http-test">
      <button type="button" onClick={() => void send()} disabled={busy || !data.httpRequestUrl}>{busy ? t("editor.http.sending") : t("editor.http.send")}</button>
      <p className="muted small">{t("editor.http.note")}</p>
      {error && <p className="error small" role="alert">{error}</p>}
      {answer && (
        <div className="ed-http-answer">
          <strong data-testid="http-status">{answer.status} {answer.statusText}</strong> <span className="muted small">{answer.durationMs} ms{answer.truncated ? ` · ${t("editor.http.truncated")}` : ""}</span>
          <pre className="ed-code">{answer.body}</pre>
        </div>
      )}
    </div>
  );
}
