// One bot: identity and status (polled while the tab is open), start/stop/restart, settings, env.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { del, get, patch, post } from "../../../api/client";
import type { BotStatus, TokenItem } from "../../../api/types";
import { ConfirmDialog, ErrorLine } from "../../../components/ui";
import { BotProfile } from "./BotProfile";
import { EnvVars } from "./EnvVars";

const FLAGS = ["catchAllHandlers", "protectContent", "contentCache"] as const;

/** Whole seconds up, worded in the app's language (the answer's own `uptime` is English: "2m 5s"). */
function upFor(t: TFunction, total: number): string {
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return t("bots.upFor.d", { d, h });
  if (h > 0) return t("bots.upFor.h", { h, m });
  if (m > 0) return t("bots.upFor.m", { m, s });
  return t("bots.upFor.s", { s });
}

export function TokenPanel({ projectId, token: tk }: { projectId: number; token: TokenItem }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [removing, setRemoving] = useState(false);
  const status = useQuery({
    queryKey: ["bot-status", tk.id],
    queryFn: () => get<BotStatus>(`/api/bot/tokens/${tk.id}/status`),
    refetchInterval: 3000,
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["bot-status", tk.id] });
    void qc.invalidateQueries({ queryKey: ["tokens", projectId] });
    void qc.invalidateQueries({ queryKey: ["launches", projectId] });
  };
  const life = useMutation({ mutationFn: (what: "start" | "stop" | "restart") => post<BotStatus>(`/api/bot/tokens/${tk.id}/${what}`), onSettled: refresh });
  const save = useMutation({ mutationFn: (body: Record<string, unknown>) => patch(`/api/bot/tokens/${tk.id}`, body), onSuccess: refresh });
  const remove = useMutation({ mutationFn: () => del(`/api/bot/tokens/${tk.id}`), onSuccess: refresh });
  const st = status.data?.status ?? tk.status;
  const running = st === "running" || st === "starting";
  const onSave = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const body: Record<string, unknown> = { name: String(f.get("name") ?? "").trim() || tk.name, launchMode: f.get("launchMode") };
    for (const k of FLAGS) body[k] = f.get(k) ? 1 : 0;
    save.mutate(body);
  };
  return (
    <section className="card stack" aria-labelledby={`bot-${tk.id}`} data-testid={`bot-${tk.id}`}>
      <header className="row between">
        <div>
          <h2 id={`bot-${tk.id}`} className="inline-h">{tk.name}</h2> {tk.botUsername && <span className="muted">@{tk.botUsername}</span>}
        </div>
        <div className="row">
          <span className={`badge status-${st}`} data-testid="bot-status">{t(`bots.status.${st}`, { defaultValue: st })}</span>
          {running && status.data?.instance.uptimeSeconds != null && <span className="muted small" data-testid="bot-uptime">{t("bots.uptime", { uptime: upFor(t, status.data.instance.uptimeSeconds) })}</span>}
        </div>
      </header>
      <div className="row">
        <button type="button" className="btn primary" disabled={life.isPending || running} onClick={() => life.mutate("start")}>{t("bots.start")}</button>
        <button type="button" className="btn" disabled={life.isPending || !running} onClick={() => life.mutate("stop")}>{t("bots.stop")}</button>
        <button type="button" className="btn" disabled={life.isPending} onClick={() => life.mutate("restart")}>{t("bots.restart")}</button>
      </div>
      <ErrorLine error={life.error} />
      <details>
        <summary>{t("bots.settings")}</summary>
        {/* "Saved" says the form is what is stored: an edit after it makes that untrue */}
        <form className="stack settings" onSubmit={onSave} onChange={() => save.isSuccess && save.reset()}>
          <div className="row">
            <label className="grow">
              {t("bots.name")}
              <input name="name" defaultValue={tk.name} maxLength={200} />
            </label>
            <label>
              {t("bots.mode")}
              <select name="launchMode" defaultValue={tk.launchMode}>
                <option value="polling">{t("bots.polling")}</option>
                <option value="webhook">{t("bots.webhook")}</option>
              </select>
            </label>
          </div>
          {FLAGS.map((k) => (
            <label key={k} className="check">
              <input type="checkbox" name={k} defaultChecked={tk[k] === 1} />
              <span>
                {t(`bots.flags.${k}`)} <span className="muted small">{t(`bots.flagHints.${k}`)}</span>
              </span>
            </label>
          ))}
          <div className="row">
            <button type="submit" className="btn primary" disabled={save.isPending}>{t("common.save")}</button>
            {save.isSuccess && <span className="ok small" role="status">{t("common.saved")}</span>}
            <button type="button" className="btn danger push-end" onClick={() => setRemoving(true)}>{t("bots.remove")}</button>
          </div>
          <ErrorLine error={save.error ?? remove.error} />
        </form>
      </details>
      <details>
        <summary>{t("bots.profile.title")}</summary>
        <BotProfile tokenId={tk.id} />
      </details>
      <details>
        <summary>{t("env.title")}</summary>
        <EnvVars tokenId={tk.id} />
      </details>
      <ConfirmDialog open={removing} title={t("bots.removeTitle", { name: tk.name })} confirmLabel={t("bots.remove")} danger busy={remove.isPending} onConfirm={() => remove.mutate(undefined, { onSettled: () => setRemoving(false) })} onCancel={() => setRemoving(false)}>
        <p>{t("bots.removeText")}</p>
      </ConfirmDialog>
    </section>
  );
}
