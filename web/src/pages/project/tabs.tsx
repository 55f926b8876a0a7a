// The tabs of a project page, in order. Each tab is one component that receives the project id;
// features add their tab here (the editor inserts "scenario" first, the preview adds "preview").
// Every tab is its own lazy chunk, so the shell ships none of them.
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
const LogsTab = lazy(() => import("./LogsTab").then((m) => ({ default: m.LogsTab })));
const DialogsTab = lazy(() => import("./DialogsTab").then((m) => ({ default: m.DialogsTab })));
const AnalyticsTab = lazy(() => import("./AnalyticsTab").then((m) => ({ default: m.AnalyticsTab })));
const CampaignsTab = lazy(() => import("./CampaignsTab").then((m) => ({ default: m.CampaignsTab })));
const UsersTab = lazy(() => import("./UsersTab").then((m) => ({ default: m.UsersTab })));
const TablesTab = lazy(() => import("./TablesTab").then((m) => ({ default: m.TablesTab })));
const MediaTab = lazy(() => import("./MediaTab").then((m) => ({ default: m.MediaTab })));
const VersionsTab = lazy(() => import("./VersionsTab").then((m) => ({ default: m.VersionsTab })));
const TeamTab = lazy(() => import("./TeamTab").then((m) => ({ default: m.TeamTab })));
const ExportTab = lazy(() => import("./ExportTab").then((m) => ({ default: m.ExportTab })));
const PreviewTab = lazy(() => import("../../preview").then((m) => ({ default: m.PreviewTab })));

export const PROJECT_TABS: ProjectTab[] = [
  { id: "scenario", label: "project.tabs.scenario", component: ScenarioTab },
  { id: "bots", label: "project.tabs.bots", component: BotsTab },
  { id: "preview", label: "preview.tab", component: PreviewTab },
  { id: "logs", label: "project.tabs.logs", component: LogsTab },
  { id: "dialogs", label: "project.tabs.dialogs", component: DialogsTab },
  { id: "users", label: "project.tabs.users", component: UsersTab },
  { id: "campaigns", label: "project.tabs.campaigns", component: CampaignsTab },
  { id: "analytics", label: "project.tabs.analytics", component: AnalyticsTab },
  { id: "tables", label: "project.tabs.tables", component: TablesTab },
  { id: "media", label: "project.tabs.media", component: MediaTab },
  { id: "versions", label: "project.tabs.versions", component: VersionsTab },
  { id: "team", label: "project.tabs.team", component: TeamTab },
  { id: "export", label: "project.tabs.export", component: ExportTab },
];
