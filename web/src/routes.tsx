// The app's routes. The server answers index.html for the same prefixes (src/modules/studio).
import { Route, Switch } from "wouter";
import { RequireAuth } from "./auth";
import { Layout } from "./components/Layout";
import { LoginPage } from "./pages/LoginPage";
import { ProjectsPage } from "./pages/ProjectsPage";
import { ProjectPage } from "./pages/project/ProjectPage";
import { NotFoundPage } from "./pages/NotFoundPage";

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route>
        <RequireAuth>
          <Layout>
            <Switch>
              <Route path="/" component={ProjectsPage} />
              <Route path="/projects" component={ProjectsPage} />
              <Route path="/projects/:id/:tab?">{(p) => <ProjectPage id={Number(p.id)} tab={p.tab} />}</Route>
              <Route path="/projects/:id/:tab/*">{(p) => <ProjectPage id={Number(p.id)} tab={p.tab} />}</Route>
              <Route component={NotFoundPage} />
            </Switch>
          </Layout>
        </RequireAuth>
      </Route>
    </Switch>
  );
}
