// Media of a project: upload with a progress bar, the list with previews, copy URL, delete.
import { useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { del, errorText, get, upload } from "../../api/client";
import type { MediaItem } from "../../api/types";
import { ConfirmDialog, CopyButton, ErrorLine, formatSize, useDates } from "../../components/ui";

export function MediaTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { date } = useDates();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<MediaItem | null>(null);
  const key = ["media", projectId];
  const list = useQuery({ queryKey: key, queryFn: () => get<MediaItem[]>(`/api/projects/${projectId}/media`) });
  const remove = useMutation({
    mutationFn: (id: number) => del(`/api/projects/${projectId}/media/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
    onSettled: () => setDeleting(null),
  });

  const send = async (files: FileList | null) => {
    setError(null);
    for (const file of files ? [...files] : []) {
      const form = new FormData();
      form.append("file", file);
      setProgress({ name: file.name, fraction: 0 });
      try {
        await upload(`/api/projects/${projectId}/media`, form, (fraction) => setProgress({ name: file.name, fraction }));
      } catch (e) {
        setError(t("media.failed", { name: file.name, reason: errorText(e) }));
      }
    }
    setProgress(null);
    if (input.current) input.current.value = "";
    void qc.invalidateQueries({ queryKey: key });
  };

  return (
    <div className="stack">
      <div className="card stack">
        <div className="row">
          <label className="btn primary file-btn">
            {t("media.upload")}
            <input ref={input} type="file" multiple className="sr-only" onChange={(e) => void send(e.target.files)} disabled={progress !== null} />
          </label>
          <span className="muted small">{t("media.hint")}</span>
        </div>
        {progress && (
          <div className="stack" role="status">
            <span className="small">{t("media.uploading", { name: progress.name })}</span>
            <progress max={1} value={progress.fraction} aria-label={t("media.progress")} />
          </div>
        )}
        {error && <p className="error" role="alert">{error}</p>}
      </div>
      <ErrorLine error={list.error ?? remove.error} />
      {list.data?.length === 0 && <p className="muted">{t("media.none")}</p>}
      <ul className="cards media-grid" data-testid="media-list">
        {list.data?.map((m) => {
          const url = new URL(m.url, location.origin).href;
          return (
            <li key={m.id} className="card stack media-card">
              {m.mimeType.startsWith("image/") ? <img src={m.url} alt={m.fileName} loading="lazy" className="thumb" /> : <div className="thumb file-thumb" aria-hidden>{m.mimeType.split("/")[1] ?? "file"}</div>}
              <strong className="ellipsis" title={m.fileName}>{m.fileName}</strong>
              <span className="muted small">{m.mimeType} · {formatSize(m.size)} · {date(m.createdAt)}</span>
              <div className="actions">
                <CopyButton text={url} label={t("media.copyUrl")} />
                <a className="btn small-btn" href={m.url} target="_blank" rel="noreferrer">{t("media.open")}</a>
                <button type="button" className="btn small-btn danger" onClick={() => setDeleting(m)} aria-label={t("media.deleteName", { name: m.fileName })}>{t("common.delete")}</button>
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog open={deleting !== null} title={t("media.deleteTitle", { name: deleting?.fileName ?? "" })} confirmLabel={t("common.delete")} danger busy={remove.isPending} onConfirm={() => deleting && remove.mutate(deleting.id)} onCancel={() => setDeleting(null)}>
        <p>{t("media.deleteText")}</p>
      </ConfirmDialog>
    </div>
  );
}
