// English strings. Keys are grouped by screen; ru.ts mirrors this object (its type checks the keys).
export const en = {
  app: { name: "Botloom Studio", skip: "Skip to content" },
  nav: { projects: "Projects", templates: "Templates", logout: "Log out", language: "Language", theme: "Theme", light: "Light", dark: "Dark", system: "System" },
  common: { loading: "Loading…", save: "Save", cancel: "Cancel", delete: "Delete", create: "Create", close: "Close", retry: "Try again", error: "Something went wrong", notFound: "Page not found", back: "Back" },
  login: {
    title: "Log in to Botloom",
    notSetUp: "This server is not set up yet. An administrator must finish setup at /admin/settings.",
    devHint: "Developer login: pick any user id (for trusted setups only).",
    userId: "User id",
    firstName: "First name",
    submit: "Log in",
    widgetHint: "Log in with your Telegram account.",
    noMode: "No login mode is configured.",
  },
  projects: { title: "Projects", empty: "No projects yet. Create one or start from a template.", newName: "Project name", create: "New project", nodes: "{{count}} nodes", sheets: "{{count}} sheets", updated: "Updated {{date}}" },
  project: { tabs: { scenario: "Scenario", bots: "Bots", logs: "Logs", users: "Users", media: "Media", versions: "Versions", team: "Team", export: "Export" } },
};

export type Strings = typeof en;
