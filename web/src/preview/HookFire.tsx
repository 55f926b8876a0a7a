// "Fire webhook" of the preview (docs/hooks.md "In the preview"): the selected webhook_trigger runs
// in the preview chat with a JSON body typed here, and the answer the hook would give is shown.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../api/client";
import { previewApi, type PreviewHookAnswer } from "./api";

const SAMPLE = '{\n  "order": "A-17",\n  "total": 12.5\n}';

export function HookFire({ sessionId, nodeId }: { sessionId: string; nodeId: string }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(SAMPLE);
  const [answer, setAnswer] = useState<PreviewHookAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fire = async () => {
    let body: unknown;
    try {
      body = JSON.parse(draft);
    } catch {
      body = null;
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) return setError(t("preview.hookJson"));
    setError(null);
    try {
      setAnswer(await previewApi.fireHook(sessionId, nodeId, body as Record<string, unknown>));
    } catch (e) {
      setAnswer(null);
      setError(errorText(e));
    }
  };
  return (
    <details className="pv-hook" open data-testid="pv-hook">
      <summary>{t("preview.hookTitle")}</summary>
      <label className="small muted" htmlFor="pv-hook-body">{t("preview.hookBody")}</label>
      <textarea id="pv-hook-body" className="ed-code" rows={4} spellCheck={false} value={draft} onChange={(e) => setDraft(e.target.value)} />
      <button type="button" className="btn small" onClick={() => void fire()}>⇲ {t("preview.hookFire")}</button>
      {answer && <p className="small muted" data-testid="pv-hook-answer">{t("preview.hookAnswer", { status: answer.status })} <code>{answer.body}</code></p>}
      {error && <p className="error small" role="alert">{error}</p>}
    </details>
  );
}
