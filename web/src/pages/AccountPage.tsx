// The signed-in user and their personal access tokens (list, create — shown once —, revoke).
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { del, get, post } from "../api/client";
import { displayName, useMe } from "../auth";
import { ConfirmDialog, CopyButton, ErrorLine, useDates } from "../components/ui";

interface Pat {
  id: number;
  name: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export function AccountPage() {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const qc = useQueryClient();
  const me = useMe().data;
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<Pat | null>(null);
  const pats = useQuery({ queryKey: ["pats"], queryFn: () => get<{ items: Pat[] }>("/api/auth/pats") });
  const create = useMutation({
    mutationFn: (name: string) => post<{ name: string; token: string }>("/api/auth/pats", { name }),
    onSuccess: (r) => {
      setCreated({ name: r.name, token: r.token });
      void qc.invalidateQueries({ queryKey: ["pats"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => del(`/api/auth/pats/${id}`),
    onSuccess: () => {
      setRevoking(null);
      void qc.invalidateQueries({ queryKey: ["pats"] });
    },
  });
  const onCreate = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (name) create.mutate(name, { onSuccess: () => form.reset() });
  };
  return (
    <section className="page stack">
      <h1>{t("account.title")}</h1>
      {me && (
        <div className="card row">
          {me.photoUrl && <img src={me.photoUrl} alt="" width={56} height={56} className="avatar" />}
          <dl className="facts">
            <dt>{t("account.name")}</dt>
            <dd>{displayName(me)}</dd>
            {me.username && (<><dt>{t("users.username")}</dt><dd>@{me.username}</dd></>)}
            <dt>{t("account.id")}</dt>
            <dd>{me.id}</dd>
          </dl>
        </div>
      )}
      <section className="card stack" aria-labelledby="pats-title">
        <h2 id="pats-title">{t("account.patsTitle")}</h2>
        <p className="muted small">{t("account.patsHint")}</p>
        <form className="row" onSubmit={onCreate}>
          <label className="grow">
            {t("account.patName")}
            <input name="name" maxLength={100} required />
          </label>
          <button type="submit" className="btn primary" disabled={create.isPending}>{t("account.patCreate")}</button>
        </form>
        <ErrorLine error={create.error} />
        {created && (
          <div className="notice stack" role="status" data-testid="new-pat">
            <strong>{t("account.patOnce", { name: created.name })}</strong>
            <div className="row">
              <code className="secret grow">{created.token}</code>
              <CopyButton text={created.token} />
              <button type="button" className="btn small-btn" onClick={() => setCreated(null)}>{t("account.patDone")}</button>
            </div>
          </div>
        )}
        <ErrorLine error={pats.error} />
        {pats.data?.items.length === 0 && <p className="muted small">{t("account.noPats")}</p>}
        {!!pats.data?.items.length && (
          <div className="table-wrap">
            <table className="table" data-testid="pat-list">
              <thead>
                <tr>
                  <th>{t("account.patName")}</th>
                  <th>{t("account.created")}</th>
                  <th>{t("account.lastUsed")}</th>
                  <th><span className="sr-only">{t("account.revoke")}</span></th>
                </tr>
              </thead>
              <tbody>
                {pats.data.items.map((p) => (
                  <tr key={p.id}>
                    <td>{p.name} {p.scopes.map((s) => <span key={s} className="badge">{s}</span>)}</td>
                    <td>{dateTime(p.createdAt)}</td>
                    <td>{p.lastUsedAt ? dateTime(p.lastUsedAt) : t("account.never")}</td>
                    <td><button type="button" className="btn small-btn danger" onClick={() => setRevoking(p)}>{t("account.revoke")}</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog open={revoking !== null} title={t("account.revokeTitle", { name: revoking?.name ?? "" })} confirmLabel={t("account.revoke")} danger busy={revoke.isPending} onConfirm={() => revoking && revoke.mutate(revoking.id)} onCancel={() => setRevoking(null)}>
        <p>{t("account.revokeText")}</p>
        <ErrorLine error={revoke.error} />
      </ConfirmDialog>
    </section>
  );
}
