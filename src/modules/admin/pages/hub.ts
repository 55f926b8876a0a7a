import { page } from "./layout";

export function hubPage() {
  return page("Hub", `<h2>Admin hub</h2><p>Platform settings: <a href="/admin/settings">/admin/settings</a>.</p>`, { nav: true });
}
