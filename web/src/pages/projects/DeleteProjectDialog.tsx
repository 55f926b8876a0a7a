// Deleting a project stops its bots and moves it to the owner's trash (docs/api.md "Trash"); what
// the purge later removes with it (tokens, media, bot users, logs) is named here first.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { del, get } from "../../api/client";
import type { MediaItem, ProjectListItem, TokenItem } from "../../api/types";
import { ConfirmDialog, ErrorLine } from "../../components/ui";
import { useTrash } from "./TrashList";

export function DeleteProjectDialog({ project, onClose }: { project: ProjectListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const tokens = useQuery({ queryKey: ["tokens", project.id], queryFn: () => get<{ items: TokenItem[] }>(`/api/bot/projects/${project.id}/tokens`) });
  const trash = useTrash();
  const media = useQuery({ queryKey: ["media", project.id], queryFn: () => get<MediaItem[]>(`/api/projects/${project.id}/media`) });
  const remove = useMutation({
    mutationFn: () => del(`/api/projects/${project.id}`),
    onSuccess: () => {
      onClose();
      void qc.invalidateQueries({ queryKey: ["projects", "list"] });
    },
  });
  const bots = tokens.data?.items ?? [];
  const running = bots.filter((b) => b.status === "running").length;
  return (
    <ConfirmDialog open title={t("projects.deleteTitle", { name: project.name })} confirmLabel={t("projects.deleteConfirm")} danger busy={remove.isPending || tokens.isPending || media.isPending || trash.isPending} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p>{t("projects.deleteBotsStop")}</p>
      <p>{t("projects.deleteIntro", { days: trash.data?.retentionDays ?? "…" })}</p>
      <ul className="small" data-testid="delete-summary">
        <li>{t("projects.deleteBots", { count: bots.length })}{bots.length > 0 && `: ${bots.map((b) => (b.botUsername ? `@${b.botUsername}` : b.name)).join(", ")}`}</li>
        {running > 0 && <li>{t("projects.deleteRunning", { count: running })}</li>}
        <li>{t("projects.deleteTokens", { count: bots.length })}</li>
        <li>{t("projects.deleteMedia", { count: media.data?.length ?? 0 })}</li>
        <li>{t("projects.deleteRest")}</li>
      </ul>
      <ErrorLine error={tokens.error ?? media.error ?? trash.error ?? remove.error} />
    </ConfirmDialog>
  );
}
