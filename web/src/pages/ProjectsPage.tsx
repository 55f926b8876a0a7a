// The signed-in user's projects (GET /api/projects/list): create, import, the archived view, the
// trash (their own deleted projects, restorable), drag (or move buttons) to reorder. The list refreshes itself from the live events socket.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import { useTranslation } from "react-i18next";
import { get, post, put } from "../api/client";
import { useLiveProjects } from "../api/events";
import type { ProjectListItem } from "../api/types";
import { ErrorLine } from "../components/ui";
import { ImportProject } from "./projects/ImportProject";
import { ProjectCard } from "./projects/ProjectCard";
import { TrashList } from "./projects/TrashList";

type View = "active" | "archived" | "trash";

export const projectsKey = ["projects", "list"] as const;

export function ProjectsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [view, setView] = useState<View>("active");
  const archived = view === "archived";
  const [dragId, setDragId] = useState<number | null>(null);
  useLiveProjects();
  const key = [...projectsKey, archived ? "archived" : "active"];
  const list = useQuery({ queryKey: key, enabled: view !== "trash", queryFn: () => get<ProjectListItem[]>("/api/projects/list", { query: { archived } }) });
  const create = useMutation({
    mutationFn: (n: string) => post<{ id: number }>("/api/projects", { name: n }),
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: projectsKey });
      navigate(`/projects/${p.id}`);
    },
  });
  const reorder = useMutation({
    mutationFn: (ids: number[]) => put("/api/projects/reorder", { projectIds: ids }),
    onMutate: async (ids) => {
      // Show the new order at once; the answer (or the live event) confirms it. A refetch already
      // under way (a live event, a tab switch) would land after this with the old order: cancelled.
      await qc.cancelQueries({ queryKey: key });
      const old = qc.getQueryData<ProjectListItem[]>(key);
      if (old) qc.setQueryData(key, ids.map((id) => old.find((p) => p.id === id)!).filter(Boolean));
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: projectsKey }),
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  };
  const items = list.data ?? [];
  const move = (id: number, to: number) => {
    const ids = items.map((p) => p.id).filter((x) => x !== id);
    ids.splice(Math.max(0, Math.min(to, ids.length)), 0, id);
    if (ids.join() !== items.map((p) => p.id).join()) reorder.mutate(ids);
  };
  return (
    <section className="page">
      <div className="row between">
        <h1>{t("projects.title")}</h1>
        <Link href="/templates" className="btn">{t("projects.fromTemplate")}</Link>
      </div>
      <form className="row" onSubmit={onCreate}>
        <label className="grow">
          <span className="sr-only">{t("projects.newName")}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={t("projects.newName")} maxLength={200} />
        </label>
        {/* a project needs a name: the button says so rather than doing nothing */}
        <button className="btn primary" type="submit" disabled={create.isPending || !name.trim()} title={name.trim() ? undefined : t("projects.nameFirst")}>{t("projects.create")}</button>
      </form>
      <ErrorLine error={create.error} />
      <ImportProject onImported={(id) => navigate(`/projects/${id}`)} />
      <div className="segmented" role="tablist" aria-label={t("projects.view")}>
        {(["active", "archived", "trash"] as const).map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className={view === v ? "seg active" : "seg"} onClick={() => setView(v)}>
            {t(`projects.${v}`)}
          </button>
        ))}
      </div>
      {view === "trash" ? (
        <TrashList />
      ) : (
        <>
          {list.isPending && <p>{t("common.loading")}</p>}
          <ErrorLine error={list.error} />
          <ErrorLine error={reorder.error} />
          {list.data?.length === 0 && <p className="muted">{archived ? t("projects.noArchived") : t("projects.empty")}</p>}
          {!archived && items.length > 1 && <p className="muted small">{t("projects.reorderHint")}</p>}
          <ul className="cards" data-testid="project-list">
            {items.map((p, i) => (
              <ProjectCard
                key={p.id}
                project={p}
                archived={archived}
                dragging={dragId === p.id}
                canMoveUp={!archived && i > 0}
                canMoveDown={!archived && i < items.length - 1}
                onMove={(delta) => move(p.id, i + delta)}
                onDragStart={() => setDragId(p.id)}
                onDragEnd={() => setDragId(null)}
                onDropHere={() => {
                  if (dragId !== null && dragId !== p.id) move(dragId, i);
                  setDragId(null);
                }}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
