// The tabs of a project page, in order. Each tab is one component that receives the project id;
// features add their tab here (the editor adds "scenario", the preview adds "preview").
import type { ComponentType } from "react";
import { lazy } from "react";

export interface ProjectTab {
  id: string;
  /** i18n key of the tab's label */
  label: string;
  component: ComponentType<{ projectId: number }>;
}

// The editor chunk carries React Flow and elkjs; the shell loads it only when the tab opens.
const ScenarioTab = lazy(() => import("../../editor/ScenarioTab").then((m) => ({ default: m.ScenarioTab })));
const BotsTab = lazy(() => import("./BotsTab").then((m) => ({ default: m.BotsTab })));
const PreviewTab = lazy(() => import("../../preview").then((m) => ({ default: m.PreviewTab })));

export const PROJECT_TABS: ProjectTab[] = [
  { id: "scenario", label: "project.tabs.scenario", component: ScenarioTab },
  { id: "bots", label: "project.tabs.bots", component: BotsTab },
  { id: "preview", label: "preview.tab", component: PreviewTab },
];
