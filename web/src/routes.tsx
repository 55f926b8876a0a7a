// The app's routes. The server answers index.html for the same prefixes (src/modules/studio).
import { Route, Switch } from "wouter";
// before any route subscribes to popstate: a refused Back must not reach the router
import "./leave-guard";
import { RequireAuth } from "./auth";
import { Layout } from "./components/Layout";
import { LoginPage } from "./pages/LoginPage";
import { ProjectsPage } from "./pages/ProjectsPage";
import { ProjectPage } from "./pages/project/ProjectPage";
import { PROJECT_TABS } from "./pages/project/tabs";
import { NotFoundPage } from "./pages/NotFoundPage";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";

// Pages off the first screen load on demand: the shell stays small.
const TemplatesPage = lazy(() => import("./pages/TemplatesPage").then((m) => ({ default: m.TemplatesPage })));
const AccountPage = lazy(() => import("./pages/AccountPage").then((m) => ({ default: m.AccountPage })));

function Loading() {
  const { t } = useTranslation();
  return <p className="page-status">{t("common.loading")}</p>;
}

/** A path's id, when it is one (a positive integer): /projects/x/… names no project, it is not found (where it loaded forever). */
const idOf = (segment: string) => (/^[1-9]\d{0,15}$/.test(segment) ? Number(segment) : undefined);
/** A project's address: its id and, if any, one of its tabs. A tab it does not have, or anything under
 * a tab, is not found (docs/studio.md "Addresses the app does not have"): it opened the first tab. */
const project = (segment: string, tab?: string) => {
  const id = idOf(segment);
  return id && (tab === undefined || PROJECT_TABS.some((x) => x.id === tab)) ? <ProjectPage id={id} tab={tab} /> : <NotFoundPage />;
};

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route>
        <RequireAuth>
          <Layout>
            <Suspense fallback={<Loading />}>
            <Switch>
              <Route path="/" component={ProjectsPage} />
              <Route path="/projects" component={ProjectsPage} />
              <Route path="/projects/:id/:tab?">{(p) => project(p.id, p.tab)}</Route>
              <Route path="/templates">{() => <TemplatesPage />}</Route>
              <Route path="/templates/:id">{(p) => (idOf(p.id) ? <TemplatesPage id={idOf(p.id)} /> : <NotFoundPage />)}</Route>
              <Route path="/account" component={AccountPage} />
              <Route component={NotFoundPage} />
            </Switch>
            </Suspense>
          </Layout>
        </RequireAuth>
      </Route>
    </Switch>
  );
}
