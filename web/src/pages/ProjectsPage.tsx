// The signed-in user's projects (GET /api/projects/list) and a quick create.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import { useTranslation } from "react-i18next";
import { errorText, get, post } from "../api/client";
import type { ProjectListItem } from "../api/types";

export const projectsKey = ["projects", "list"] as const;

export function ProjectsPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const list = useQuery({ queryKey: projectsKey, queryFn: () => get<ProjectListItem[]>("/api/projects/list") });
  const create = useMutation({
    mutationFn: (n: string) => post<{ id: number }>("/api/projects", { name: n }),
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: projectsKey });
      navigate(`/projects/${p.id}`);
    },
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  };
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language);
  return (
    <section className="page">
      <h1>{t("projects.title")}</h1>
      <form className="row" onSubmit={onCreate}>
        <label className="grow">
          <span className="sr-only">{t("projects.newName")}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={t("projects.newName")} maxLength={200} />
        </label>
        <button className="btn primary" type="submit" disabled={create.isPending}>{t("projects.create")}</button>
      </form>
      {create.isError && <p className="error" role="alert">{errorText(create.error)}</p>}
      {list.isPending && <p>{t("common.loading")}</p>}
      {list.isError && <p className="error" role="alert">{errorText(list.error)}</p>}
      {list.data?.length === 0 && <p className="muted">{t("projects.empty")}</p>}
      <ul className="cards">
        {list.data?.map((p) => (
          <li key={p.id} className="card project-card">
            <Link href={`/projects/${p.id}`} className="card-title">{p.name}</Link>
            <p className="muted small">
              {t("projects.nodes", { count: p.nodeCount })} · {t("projects.sheets", { count: p.sheetsCount })} · {t("projects.updated", { date: date(p.updatedAt) })}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
