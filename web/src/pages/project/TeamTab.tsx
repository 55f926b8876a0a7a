// The project's team: collaborators (add by messenger id, remove) and the bot's admin ids.
import { type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { del, get, post, put } from "../../api/client";
import { useMe } from "../../auth";
import { ErrorLine } from "../../components/ui";

interface Member {
  userId: number;
  name: string;
  photoUrl: string | null;
}

export function TeamTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useMe().data;
  const project = useQuery({ queryKey: ["projects", projectId], queryFn: () => get<{ ownerId: number }>(`/api/projects/${projectId}`) });
  const team = useQuery({ queryKey: ["team", projectId], queryFn: () => get<Member[]>(`/api/projects/${projectId}/collaborators`) });
  const admins = useQuery({ queryKey: ["admin-ids", projectId], queryFn: () => get<{ adminIds: string; items: { id: string }[] }>(`/api/projects/${projectId}/admin-ids`) });
  const refreshTeam = () => void qc.invalidateQueries({ queryKey: ["team", projectId] });
  const refreshAdmins = () => void qc.invalidateQueries({ queryKey: ["admin-ids", projectId] });
  const invite = useMutation({ mutationFn: (userId: number) => post(`/api/bot/projects/${projectId}/collaborators`, { user_id: userId }), onSuccess: refreshTeam });
  const kick = useMutation({ mutationFn: (userId: number) => del(`/api/bot/projects/${projectId}/collaborators/${userId}`), onSuccess: refreshTeam });
  const setAdmins = useMutation({ mutationFn: (adminIds: string) => put(`/api/projects/${projectId}/admin-ids`, { adminIds }), onSuccess: refreshAdmins });
  const removeAdmin = useMutation({ mutationFn: (adminId: string) => post(`/api/projects/${projectId}/admin-ids/remove`, { adminId }), onSuccess: refreshAdmins });

  const onInvite = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const id = Number(new FormData(form).get("userId"));
    if (Number.isSafeInteger(id) && id > 0) invite.mutate(id, { onSuccess: () => form.reset() });
  };
  const onAddAdmin = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const id = String(new FormData(form).get("adminId") ?? "").trim();
    if (!/^\d+$/.test(id)) return;
    const ids = [...(admins.data?.items.map((x) => x.id) ?? []), id];
    setAdmins.mutate([...new Set(ids)].join(","), { onSuccess: () => form.reset() });
  };
  const ownerId = project.data?.ownerId;
  return (
    <div className="two-col">
      <section className="card stack" aria-labelledby="team-title">
        <h2 id="team-title">{t("team.title")}</h2>
        <p className="muted small">{t("team.hint")}</p>
        <ErrorLine error={team.error} />
        <ul className="plain" data-testid="team-list">
          {team.data?.map((m) => (
            <li key={m.userId} className="row between member">
              <span>
                {/* the server names someone who never logged in by their id alone: say so rather than repeat it */}
                {m.name === String(m.userId) ? <strong>{m.userId}</strong> : <><strong>{m.name}</strong> <span className="muted small">{m.userId}</span></>}{" "}
                {m.name === String(m.userId) && <span className="muted small">{t("team.notYet")}</span>} {m.userId === ownerId && <span className="badge">{t("team.owner")}</span>}
                {m.userId === me?.id && <span className="badge">{t("team.you")}</span>}
              </span>
              {m.userId !== ownerId && (
                <button type="button" className="btn small-btn danger" onClick={() => kick.mutate(m.userId)} aria-label={t("team.removeName", { name: m.name })}>{t("common.remove")}</button>
              )}
            </li>
          ))}
        </ul>
        <form className="row" onSubmit={onInvite}>
          <label className="grow">
            {t("team.messengerId")}
            <input name="userId" type="number" min={1} step={1} inputMode="numeric" required />
          </label>
          <button type="submit" className="btn primary" disabled={invite.isPending}>{t("team.add")}</button>
        </form>
        <ErrorLine error={invite.error ?? kick.error} />
      </section>
      <section className="card stack" aria-labelledby="admins-title">
        <h2 id="admins-title">{t("team.adminsTitle")}</h2>
        <p className="muted small">{t("team.adminsHint")}</p>
        <ErrorLine error={admins.error} />
        {admins.data?.items.length === 0 && <p className="muted small">{t("team.noAdmins")}</p>}
        <ul className="plain" data-testid="admin-list">
          {admins.data?.items.map((a) => (
            <li key={a.id} className="row between member">
              <code>{a.id}</code>
              <button type="button" className="btn small-btn danger" onClick={() => removeAdmin.mutate(a.id)} aria-label={t("team.removeName", { name: a.id })}>{t("common.remove")}</button>
            </li>
          ))}
        </ul>
        <form className="row" onSubmit={onAddAdmin}>
          <label className="grow">
            {t("team.adminId")}
            <input name="adminId" inputMode="numeric" pattern="\d+" required />
          </label>
          <button type="submit" className="btn" disabled={setAdmins.isPending}>{t("team.addAdmin")}</button>
        </form>
        <ErrorLine error={setAdmins.error ?? removeAdmin.error} />
      </section>
    </div>
  );
}
