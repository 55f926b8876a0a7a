// One project in the list: its facts and its actions (rename, duplicate, archive, move; delete for
// its owner, leave for a collaborator).
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { useTranslation } from "react-i18next";
import { post, put } from "../../api/client";
import type { ProjectListItem } from "../../api/types";
import { ErrorLine, useDates } from "../../components/ui";
import { DeleteProjectDialog } from "./DeleteProjectDialog";
import { LeaveProjectDialog } from "./LeaveProjectDialog";
import { useMe } from "../../auth";

interface Props {
  project: ProjectListItem;
  archived: boolean;
  dragging: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onMove: (delta: number) => void;
  onDragStart: () => void;
  onDragEnd: () => void;
  onDropHere: () => void;
}

export function ProjectCard({ project: p, archived, dragging, canMoveUp, canMoveDown, onMove, onDragStart, onDragEnd, onDropHere }: Props) {
  const { t } = useTranslation();
  const { date } = useDates();
  const qc = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const me = useMe();
  const owner = me.data?.id === p.ownerId;
  const refresh = () => void qc.invalidateQueries({ queryKey: ["projects", "list"] });
  const action = useMutation({
    mutationFn: (what: "archive" | "unarchive" | "duplicate") => post(`/api/projects/${p.id}/${what}`),
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationFn: (name: string) => put(`/api/projects/${p.id}`, { name }),
    onSuccess: () => {
      setRenaming(false);
      refresh();
      void qc.invalidateQueries({ queryKey: ["projects", p.id] });
    },
  });
  const onRename = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get("name") ?? "").trim();
    if (name) rename.mutate(name);
  };
  return (
    <li
      className={dragging ? "card project-card dragging" : "card project-card"}
      draggable={!archived && !renaming}
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", String(p.id));
        onDragStart();
      }}
      onDragEnd={onDragEnd}
      onDragOver={(e) => {
        if (!archived && [...e.dataTransfer.types].includes("text/plain")) e.preventDefault();
      }}
      onDrop={(e) => {
        e.preventDefault();
        onDropHere();
      }}
      data-testid={`project-${p.id}`}
    >
      {renaming ? (
        <form onSubmit={onRename} className="row">
          <label className="grow">
            <span className="sr-only">{t("projects.newName")}</span>
            <input name="name" defaultValue={p.name} maxLength={200} autoFocus required />
          </label>
          <button type="submit" className="btn primary" disabled={rename.isPending}>{t("common.save")}</button>
          <button type="button" className="btn" onClick={() => setRenaming(false)}>{t("common.cancel")}</button>
        </form>
      ) : (
        <Link href={`/projects/${p.id}`} className="card-title">{p.name}</Link>
      )}
      {p.description && <p className="small clamp">{p.description}</p>}
      <p className="muted small">
        {t("projects.nodes", { count: p.nodeCount })} · {t("projects.sheets", { count: p.sheetsCount })}
        <br />
        {t("projects.created", { date: date(p.createdAt) })} · {t("projects.updated", { date: date(p.updatedAt) })}
      </p>
      <div className="actions">
        {!renaming && <button type="button" className="btn small-btn" onClick={() => setRenaming(true)}>{t("projects.rename")}</button>}
        <button type="button" className="btn small-btn" onClick={() => action.mutate("duplicate")} disabled={action.isPending}>{t("projects.duplicate")}</button>
        <button type="button" className="btn small-btn" onClick={() => action.mutate(archived ? "unarchive" : "archive")} disabled={action.isPending}>
          {archived ? t("projects.unarchive") : t("projects.archive")}
        </button>
        {owner ? (
          <button type="button" className="btn small-btn danger" onClick={() => setDeleting(true)}>{t("common.delete")}</button>
        ) : (
          me.data && <button type="button" className="btn small-btn danger" onClick={() => setLeaving(true)}>{t("projects.leave")}</button>
        )}
        {!archived && (
          <span className="move">
            <button type="button" className="btn small-btn icon" disabled={!canMoveUp} onClick={() => onMove(-1)} aria-label={t("projects.moveUp", { name: p.name })}>↑</button>
            <button type="button" className="btn small-btn icon" disabled={!canMoveDown} onClick={() => onMove(1)} aria-label={t("projects.moveDown", { name: p.name })}>↓</button>
          </span>
        )}
      </div>
      <ErrorLine error={action.error ?? rename.error} />
      {deleting && <DeleteProjectDialog project={p} onClose={() => setDeleting(false)} />}
      {leaving && <LeaveProjectDialog project={p} onClose={() => setLeaving(false)} />}
    </li>
  );
}
