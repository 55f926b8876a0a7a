// The Trash view of the projects page (docs/api.md "Trash"): the user's own deleted projects, who
// deleted them and when they go for good; Restore brings one back with its bots stopped.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get, post } from "../../api/client";
import type { TrashList as Trash } from "../../api/types";
import { ErrorLine, useDates } from "../../components/ui";

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
  const restore = useMutation({
    mutationFn: (id: number) => post(`/api/projects/trash/${id}/restore`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["projects", "list"] }),
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
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
