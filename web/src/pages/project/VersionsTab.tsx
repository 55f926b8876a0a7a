// Versions of the project's scenario: who saved (a person or an agent, by name), node counts, what
// a version changed on a read-only canvas, its document, and restore (stored as a new version by
// the server). docs/editor.md "Versions".
import { lazy, Suspense, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { get, post } from "../../api/client";
import type { ScenarioDoc } from "../../api/types";
import { ConfirmDialog, ErrorLine, useDates } from "../../components/ui";

// React Flow comes with the canvas, only when a version is opened
const VersionDiffView = lazy(() => import("./VersionDiff").then((m) => ({ default: m.VersionDiffView })));
/** The message the server gives a project's first version, in English whatever the reader's language. */
const CREATED = "Project created";

interface Version {
  id: number;
  createdAt: string;
  commitMessage: string | null;
  authorId: number | null;
  authorName: string | null;
  agentEdit: number | boolean;
  agentDisplayName: string | null;
  nodesCount: number;
}

export function VersionsTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const qc = useQueryClient();
  const [viewing, setViewing] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<Version | null>(null);
  const list = useQuery({ queryKey: ["versions", projectId], queryFn: () => get<Version[]>(`/api/projects/${projectId}/versions`, { query: { limit: 100 } }) });
  const restore = useMutation({
    mutationFn: (id: number) => post(`/api/projects/${projectId}/versions/${id}/restore`),
    onSuccess: () => {
      setRestoring(null);
      void qc.invalidateQueries({ queryKey: ["versions", projectId] });
      void qc.invalidateQueries({ queryKey: ["projects"] });
    },
  });
  return (
    <div className="stack">
      <ErrorLine error={list.error} />
      {list.data?.length === 0 && <p className="muted">{t("versions.none")}</p>}
      <ul className="plain version-list" data-testid="version-list">
        {list.data?.map((v, i) => (
          <li key={v.id} className="card stack">
            <div className="row between">
              <div>
                <strong>{v.commitMessage === CREATED ? t("versions.created") : v.commitMessage || t("versions.noMessage")}</strong>
                <div className="muted small">
                  {dateTime(v.createdAt)} · {v.agentEdit ? t("versions.agent", { name: v.agentDisplayName ?? "—" }) : t("versions.author", { name: v.authorName ?? (v.authorId ? `#${v.authorId}` : "—") })} · {t("projects.nodes", { count: v.nodesCount })}
                </div>
              </div>
              <div className="actions">
                <button type="button" className="btn small-btn" aria-expanded={viewing === v.id} onClick={() => setViewing(viewing === v.id ? null : v.id)}>{viewing === v.id ? t("versions.hide") : t("versions.view")}</button>
                <button type="button" className="btn small-btn" onClick={() => setRestoring(v)}>{t("versions.restore")}</button>
              </div>
            </div>
            {viewing === v.id && <VersionView projectId={projectId} versionId={v.id} previousId={list.data?.[i + 1]?.id ?? null} onRestore={() => setRestoring(v)} />}
          </li>
        ))}
      </ul>
      <ConfirmDialog open={restoring !== null} title={t("versions.restoreTitle")} confirmLabel={t("versions.restore")} busy={restore.isPending} onConfirm={() => restoring && restore.mutate(restoring.id)} onCancel={() => setRestoring(null)}>
        <p>{t("versions.restoreText", { date: restoring ? dateTime(restoring.createdAt) : "" })}</p>
        <ErrorLine error={restore.error} />
      </ConfirmDialog>
    </div>
  );
}

function VersionView({ projectId, versionId, previousId, onRestore }: { projectId: number; versionId: number; previousId: number | null; onRestore: () => void }) {
  const { t } = useTranslation();
  const read = (id: number) => get<{ data: ScenarioDoc }>(`/api/projects/${projectId}/versions/${id}`);
  const v = useQuery({ queryKey: ["version", projectId, versionId], queryFn: () => read(versionId) });
  const prev = useQuery({ queryKey: ["version", projectId, previousId], queryFn: () => read(previousId!), enabled: previousId !== null });
  if (v.isPending || (previousId !== null && prev.isPending)) return <p>{t("common.loading")}</p>;
  if (v.isError) return <ErrorLine error={v.error} />;
  if (prev.isError) return <ErrorLine error={prev.error} />;
  return (
    <div className="stack">
      <Suspense fallback={<p>{t("common.loading")}</p>}>
        <VersionDiffView before={previousId === null ? null : prev.data?.data ?? null} after={v.data.data} />
      </Suspense>
      <div className="row wrap">
        <button type="button" className="btn small-btn" onClick={onRestore}>{t("versions.restoreThis")}</button>
      </div>
      <details>
        <summary>{t("versions.document")}</summary>
        <pre className="code small">{JSON.stringify(v.data.data, null, 2)}</pre>
      </details>
    </div>
  );
}
