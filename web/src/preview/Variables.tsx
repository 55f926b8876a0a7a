// The current preview chat's variables: read after each change of the chat, editable as JSON.
import { Fragment, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../api/client";
import { previewApi } from "./api";

/** A key with a line-break chance after each `_` and `.`, the only places a person reads as its breaks. */
function Key({ name }: { name: string }) {
  const parts = name.split(/(?<=[_.])/);
  return <dt title={name}>{parts.map((p, i) => <Fragment key={i}>{i > 0 && <wbr />}{p}</Fragment>)}</dt>;
}

export function Variables({ sessionId, version, chatId }: { sessionId: string; version: number; chatId: number }) {
  const { t } = useTranslation();
  const [vars, setVars] = useState<Record<string, unknown> | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (draft !== null) return; // never overwrite what the user is editing
    let live = true;
    previewApi.variables(sessionId).then((r) => live && setVars(r.variables), (e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [sessionId, version, chatId, draft]);

  const save = async () => {
    if (draft === null) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(draft);
    } catch {
      return setError(t("preview.variablesJson"));
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return setError(t("preview.variablesJson"));
    try {
      setVars((await previewApi.setVariables(sessionId, parsed as Record<string, unknown>)).variables);
      setDraft(null);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <section className="pv-vars" aria-label={t("preview.variables")}>
      <h3>{t("preview.variables")}</h3>
      {error && <p className="error small" role="alert">{error}</p>}
      {draft === null ? (
        <>
          {vars && Object.keys(vars).length > 0 ? (
            <dl data-testid="pv-variables">
              {Object.entries(vars).map(([k, v]) => (
                <div key={k} className="pv-var">
                  <Key name={k} />
                  <dd>{typeof v === "string" ? v : JSON.stringify(v)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="muted small">{t("preview.noVariables")}</p>
          )}
          <button type="button" className="btn small" onClick={() => setDraft(JSON.stringify(vars ?? {}, null, 2))}>{t("preview.editVariables")}</button>
        </>
      ) : (
        <>
          <textarea className="pv-vars-edit" value={draft} onChange={(e) => setDraft(e.target.value)} rows={8} aria-label={t("preview.variables")} />
          <div className="row">
            <button type="button" className="btn primary small" onClick={() => void save()}>{t("common.save")}</button>
            <button type="button" className="btn small" onClick={() => setDraft(null)}>{t("common.cancel")}</button>
          </div>
        </>
      )}
    </section>
  );
}
