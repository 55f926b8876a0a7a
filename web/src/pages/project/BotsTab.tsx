// Bots of a project: add a token (the platform asks the messenger who the bot is), each bot's
// settings, lifecycle and env variables, and the project's launch history.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get, post } from "../../api/client";
import type { TokenItem } from "../../api/types";
import { ErrorLine } from "../../components/ui";
import { LaunchHistory } from "./bots/LaunchHistory";
import { TokenPanel } from "./bots/TokenPanel";

export const tokensKey = (projectId: number) => ["tokens", projectId] as const;

export function BotsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [added, setAdded] = useState<number | null>(null);
  const tokens = useQuery({ queryKey: tokensKey(projectId), queryFn: () => get<{ items: TokenItem[]; count: number }>(`/api/bot/projects/${projectId}/tokens`) });
  const add = useMutation({
    mutationFn: (body: { token: string; name?: string }) => post<{ id: number; name: string }>(`/api/bot/projects/${projectId}/tokens`, body),
    onSuccess: (r) => {
      setAdded(r.id);
      void qc.invalidateQueries({ queryKey: tokensKey(projectId) });
    },
  });
  const onAdd = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const token = String(data.get("token") ?? "").trim();
    const name = String(data.get("name") ?? "").trim();
    if (!token) return;
    add.mutate({ token, ...(name ? { name } : {}) }, { onSuccess: () => form.reset() });
  };
  const newBot = tokens.data?.items.find((x) => x.id === added);
  return (
    <div className="stack">
      <form className="card stack" onSubmit={onAdd} aria-labelledby="add-token-title">
        <h2 id="add-token-title">{t("bots.addTitle")}</h2>
        <p className="muted small">{t("bots.addHint")}</p>
        <div className="row">
          <label className="grow">
            {t("bots.token")}
            <input name="token" type="password" autoComplete="off" spellCheck={false} required placeholder="123456789:AA…" />
          </label>
          <label className="grow">
            {t("bots.nameOptional")}
            <input name="name" maxLength={200} />
          </label>
          <button type="submit" className="btn primary" disabled={add.isPending}>{add.isPending ? t("bots.checking") : t("bots.add")}</button>
        </div>
        <ErrorLine error={add.error} />
        {newBot && (
          <p className="notice" role="status" data-testid="getme-result">
            {t("bots.added", { name: newBot.botFirstName ?? newBot.name, username: newBot.botUsername ?? "—" })}
          </p>
        )}
      </form>
      {tokens.isPending && <p>{t("common.loading")}</p>}
      <ErrorLine error={tokens.error} />
      {tokens.data?.count === 0 && <p className="muted">{t("bots.none")}</p>}
      {tokens.data?.items.map((tk) => <TokenPanel key={tk.id} projectId={projectId} token={tk} />)}
      <LaunchHistory projectId={projectId} />
    </div>
  );
}
