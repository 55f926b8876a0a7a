// Env variables of one bot: list (secrets masked by the server), add, edit the value, delete, and
// reveal a secret on request (GET /api/bot/env/{id}/reveal; the value stays in this component only).
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { del, get, patch, post } from "../../../api/client";
import { ErrorLine } from "../../../components/ui";

interface EnvVar {
  id: number;
  key: string;
  value: string;
  isSecret: number;
}

export function EnvVars({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ["env", tokenId];
  const list = useQuery({ queryKey: key, queryFn: () => get<{ items: EnvVar[] }>(`/api/bot/tokens/${tokenId}/env`) });
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const create = useMutation({ mutationFn: (b: { key: string; value: string; isSecret: 0 | 1 }) => post(`/api/bot/tokens/${tokenId}/env`, b), onSuccess: refresh });
  const onCreate = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    create.mutate({ key: String(f.get("key") ?? "").trim(), value: String(f.get("value") ?? ""), isSecret: f.get("isSecret") ? 1 : 0 }, { onSuccess: () => form.reset() });
  };
  return (
    <div className="stack env">
      <ErrorLine error={list.error} />
      {list.data?.items.length === 0 && <p className="muted small">{t("env.none")}</p>}
      <ul className="plain">
        {list.data?.items.map((v) => <EnvRow key={v.id} v={v} onChange={refresh} />)}
      </ul>
      <form className="row" onSubmit={onCreate}>
        <label>
          {t("env.key")}
          <input name="key" required pattern="[A-Z][A-Z0-9_]*" title={t("env.keyRule")} placeholder="API_KEY" maxLength={100} />
        </label>
        <label className="grow">
          {t("env.value")}
          <input name="value" autoComplete="off" />
        </label>
        <label className="check">
          <input type="checkbox" name="isSecret" />
          <span>{t("env.secret")}</span>
        </label>
        <button type="submit" className="btn" disabled={create.isPending}>{t("env.add")}</button>
      </form>
      <ErrorLine error={create.error} />
    </div>
  );
}

function EnvRow({ v, onChange }: { v: EnvVar; onChange: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const reveal = useMutation({ mutationFn: () => get<{ value: string }>(`/api/bot/env/${v.id}/reveal`), onSuccess: (r) => setRevealed(r.value) });
  const update = useMutation({
    mutationFn: (value: string) => patch(`/api/bot/env/${v.id}`, { value }),
    onSuccess: () => {
      setEditing(false);
      setRevealed(null);
      onChange();
    },
  });
  const remove = useMutation({ mutationFn: () => del(`/api/bot/env/${v.id}`), onSuccess: onChange });
  const onSave = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    update.mutate(String(new FormData(e.currentTarget).get("value") ?? ""));
  };
  return (
    <li className="env-row">
      <code>{v.key}</code>
      {editing ? (
        <form className="row grow" onSubmit={onSave}>
          <label className="grow">
            <span className="sr-only">{t("env.value")}</span>
            <input name="value" defaultValue={v.isSecret ? (revealed ?? "") : v.value} autoFocus autoComplete="off" />
          </label>
          <button type="submit" className="btn small-btn primary" disabled={update.isPending}>{t("common.save")}</button>
          <button type="button" className="btn small-btn" onClick={() => setEditing(false)}>{t("common.cancel")}</button>
        </form>
      ) : (
        <>
          <span className="env-value grow">{v.isSecret ? (revealed ?? v.value) : v.value}</span>
          {v.isSecret === 1 && <span className="badge">{t("env.secret")}</span>}
          {v.isSecret === 1 && (revealed === null
            ? <button type="button" className="btn small-btn" onClick={() => reveal.mutate()}>{t("env.reveal")}</button>
            : <button type="button" className="btn small-btn" onClick={() => setRevealed(null)}>{t("env.hide")}</button>)}
          <button type="button" className="btn small-btn" onClick={() => setEditing(true)}>{t("common.edit")}</button>
          <button type="button" className="btn small-btn danger" onClick={() => remove.mutate()} aria-label={t("env.deleteKey", { key: v.key })}>{t("common.delete")}</button>
        </>
      )}
      <ErrorLine error={reveal.error ?? update.error ?? remove.error} />
    </li>
  );
}
