// A collaborator leaves a project they were added to (POST /api/projects/{id}/leave).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { post } from "../../api/client";
import type { ProjectListItem } from "../../api/types";
import { ConfirmDialog, ErrorLine } from "../../components/ui";

export function LeaveProjectDialog({ project, onClose }: { project: ProjectListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const leave = useMutation({
    mutationFn: () => post(`/api/projects/${project.id}/leave`),
    onSuccess: () => {
      onClose();
      void qc.invalidateQueries({ queryKey: ["projects", "list"] });
    },
  });
  return (
    <ConfirmDialog open title={t("projects.leaveTitle", { name: project.name })} confirmLabel={t("projects.leaveConfirm")} danger busy={leave.isPending} onConfirm={() => leave.mutate()} onCancel={onClose}>
      <p>{t("projects.leaveIntro")}</p>
      <ErrorLine error={leave.error} />
    </ConfirmDialog>
  );
}
