// The Trash view of the projects page (docs/api.md "Trash"): the user's own deleted projects, who
// deleted them and when they go for good; Restore brings one back with its bots stopped, Delete
// forever purges it now (after a confirmation).
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { del, get, post } from "../../api/client";
import type { TrashItem, TrashList as Trash } from "../../api/types";
import { ConfirmDialog, ErrorLine, useDates } from "../../components/ui";

/** Under the list key: the live "projects-changed" refresh reaches it too. */
export const trashKey = ["projects", "list", "trash"] as const;

export function useTrash() {
  return useQuery({ queryKey: trashKey, queryFn: () => get<Trash>("/api/projects/trash") });
}

export function TrashList() {
  const { t } = useTranslation();
  const { date } = useDates();
  const qc = useQueryClient();
  const trash = useTrash();
  const [purging, setPurging] = useState<TrashItem | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ["projects", "list"] });
  const restore = useMutation({ mutationFn: (id: number) => post(`/api/projects/trash/${id}/restore`), onSuccess: refresh });
  const purge = useMutation({
    mutationFn: (id: number) => del(`/api/projects/trash/${id}`),
    onSuccess: () => {
      setPurging(null);
      refresh();
    },
  });
  const items = trash.data?.items ?? [];
  return (
    <div data-testid="trash">
      {trash.data && <p className="muted small">{t("trash.hint", { days: trash.data.retentionDays })}</p>}
      {trash.isPending && <p>{t("common.loading")}</p>}
      <ErrorLine error={trash.error ?? restore.error} />
      {trash.data && items.length === 0 && <p className="muted">{t("trash.empty")}</p>}
      <ul className="cards" data-testid="trash-list">
        {items.map((p) => (
          <li key={p.id} className="card project-card trashed" data-testid={`trashed-${p.id}`}>
            <span className="card-title">{p.name}</span>
            {p.description && <p className="small clamp">{p.description}</p>}
            <p className="muted small">
              {t("trash.deleted", { date: date(p.deletedAt), name: p.deletedBy.name })}
              <br />
              {t("trash.purge", { date: date(p.purgeAt) })}
            </p>
            <div className="actions">
              <button type="button" className="btn small-btn primary" disabled={restore.isPending} onClick={() => restore.mutate(p.id)}>
                {t("trash.restore")}
              </button>
              <button type="button" className="btn small-btn danger" disabled={purge.isPending} onClick={() => setPurging(p)}>
                {t("trash.purgeNow")}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {purging && (
        <ConfirmDialog open title={t("trash.purgeTitle", { name: purging.name })} confirmLabel={t("trash.purgeNow")} danger busy={purge.isPending} onConfirm={() => purge.mutate(purging.id)} onCancel={() => setPurging(null)}>
          <p>{t("trash.purgeText")}</p>
          <ErrorLine error={purge.error} />
        </ConfirmDialog>
      )}
    </div>
  );
}
