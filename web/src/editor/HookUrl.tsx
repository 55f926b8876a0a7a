// A webhook_trigger's URL and secret (docs/hooks.md): the URL once the node has one, and a button
// that makes the first secret or a new one, shown once like a personal access token.
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, get, post } from "../api/client";
import type { HookItem, HookSecret } from "../api/types";
import { CopyButton } from "../components/ui";

const absolute = (h: { url: string | null; path: string | null }) => h.url ?? (h.path ? window.location.origin + h.path : "");

export function HookUrl({ projectId, nodeId }: { projectId: number; nodeId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const key = ["hooks", projectId];
  const hooks = useQuery({ queryKey: key, queryFn: () => get<{ items: HookItem[] }>(`/api/projects/${projectId}/hooks`) });
  const [made, setMade] = useState<HookSecret | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const hook = hooks.data?.items.find((h) => h.nodeId === nodeId);
  const url = made ? absolute(made) : hook ? absolute(hook) : "";
  const create = async () => {
    setBusy(true);
    setError("");
    try {
      setMade(await post<HookSecret>(`/api/projects/${projectId}/hooks/${encodeURIComponent(nodeId)}/secret`));
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ed-field" data-testid="hook-url">
      <label>{t("editor.hook.url")}</label>
      {url ? (
        <div className="row">
          <code className="secret grow" data-testid="hook-address">{url}</code>
          <CopyButton text={url} />
        </div>
      ) : (
        <p className="muted small">{hooks.isSuccess && !hook ? t("editor.hook.saveFirst") : t("editor.hook.none")}</p>
      )}
      <button type="button" onClick={() => void create()} disabled={busy || (hooks.isSuccess && !hook)}>
        {hook?.hasSecret || made ? t("editor.hook.rotate") : t("editor.hook.create")}
      </button>
      {made && (
        <div className="notice stack" role="status" data-testid="hook-secret">
          <strong>{t("editor.hook.once")}</strong>
          <div className="row">
            <code className="secret grow">{made.secret}</code>
            <CopyButton text={made.secret} />
          </div>
          <p className="muted small">{t("editor.hook.how")}</p>
          <button type="button" onClick={() => setMade(null)}>{t("editor.hook.done")}</button>
        </div>
      )}
      {error && <p className="error small" role="alert">{error}</p>}
      <p className="muted small">{t("editor.hook.note")}</p>
    </div>
  );
}
