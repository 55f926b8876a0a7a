// One project: its name and the tab bar; the active tab is the second path segment
// (/projects/5/logs), so every tab has a link of its own.
import { Suspense, useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { useTranslation } from "react-i18next";
import { get } from "../../api/client";
import { useLiveProjects } from "../../api/events";
import { ErrorLine } from "../../components/ui";
import { SaveAsTemplate } from "./SaveAsTemplate";
import { PROJECT_TABS } from "./tabs";

export function ProjectPage({ id, tab }: { id: number; tab?: string }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  useLiveProjects();
  const project = useQuery({ queryKey: ["projects", id], queryFn: () => get<{ id: number; name: string }>(`/api/projects/${id}`), enabled: Number.isInteger(id) && id > 0 });
  const active = PROJECT_TABS.find((x) => x.id === tab) ?? PROJECT_TABS[0]!;
  const Tab = active.component;
  const tabsRef = useRef<HTMLElement>(null);
  // On a phone the tab bar scrolls sideways: keep the open tab in sight.
  useEffect(() => {
    tabsRef.current?.querySelector<HTMLElement>("[aria-current=page]")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [active.id]);
  if (project.isError) return <section className="page"><ErrorLine error={project.error} /><Link href="/projects">{t("nav.projects")}</Link></section>;
  return (
    <section className="page project-page">
      <header className="project-head">
        <Link href="/projects" className="muted small">← {t("nav.projects")}</Link>
        <div className="row between">
          <h1>{project.data?.name ?? t("common.loading")}</h1>
          {project.data && !saving && <button type="button" className="btn small-btn" onClick={() => setSaving(true)}>{t("saveTemplate.title")}</button>}
        </div>
        {saving && project.data && <SaveAsTemplate projectId={id} name={project.data.name} onClose={() => setSaving(false)} />}
      </header>
      <nav ref={tabsRef} className="tabs" aria-label={t("project.tabsLabel")}>
        {PROJECT_TABS.map((x) => (
          <Link key={x.id} href={`/projects/${id}/${x.id}`} className={x === active ? "tab active" : "tab"} aria-current={x === active ? "page" : undefined}>
            {t(x.label)}
          </Link>
        ))}
      </nav>
      <div className="tab-body">
        <Suspense fallback={<p>{t("common.loading")}</p>}>{project.data && <Tab projectId={id} />}</Suspense>
      </div>
    </section>
  );
}
