// The "Scenario" tab of a project: loads the record fresh and opens the editor on it.
// Lazy-loaded by the tab registry, so React Flow and elkjs stay out of the app shell.
import "@xyflow/react/dist/style.css";
import "./editor.css";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorText, get } from "../api/client";
import { registerEditorStrings } from "./i18n";
import { Editor } from "./Editor";
import type { ProjectRecord } from "./useSave";

registerEditorStrings();

export function ScenarioTab({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const project = useQuery({ queryKey: ["editor", projectId], queryFn: () => get<ProjectRecord>(`/api/projects/${projectId}`), staleTime: Infinity, gcTime: 0 });
  if (project.isPending) return <p>{t("common.loading")}</p>;
  if (project.isError) return <p className="error" role="alert">{errorText(project.error)}</p>;
  return <Editor key={projectId} project={project.data} />;
}
