// English strings. Keys are grouped by screen; ru.ts mirrors this object (its type checks the keys).
// Counts are written as "Label: {{count}}" in both languages, so no plural forms are needed.
export const en = {
  app: { name: "Botloom Studio", skip: "Skip to content" },
  nav: { projects: "Projects", templates: "Templates", logout: "Log out", language: "Language", theme: "Theme", light: "Light", dark: "Dark", system: "System", account: "Account" },
  common: {
    loading: "Loading…", save: "Save", saved: "Saved", cancel: "Cancel", delete: "Delete", remove: "Remove", edit: "Edit", create: "Create", close: "Close", retry: "Try again",
    error: "Something went wrong", notFound: "Page not found", back: "Back", copy: "Copy", copied: "Copied", prev: "← Previous", next: "Next →",
  },
  login: {
    title: "Log in to Botloom",
    notSetUp: "This server is not set up yet. An administrator must finish setup at /admin/settings.",
    devHint: "Developer login: pick any user id (for trusted setups only).",
    userId: "User id",
    firstName: "First name",
    submit: "Log in",
    widgetHint: "Log in with your Telegram account.",
    checking: "Checking your Telegram login…",
    noMode: "No login mode is configured.",
  },
  projects: {
    title: "Projects", empty: "No projects yet. Create one, import a project.json or start from a template.", noArchived: "No archived projects.", newName: "Project name", create: "New project",
    fromTemplate: "Start from a template", view: "Which projects", active: "Active", archived: "Archived",
    nodes: "Nodes: {{count}}", sheets: "Sheets: {{count}}", created: "Created {{date}}", updated: "Updated {{date}}",
    rename: "Rename", duplicate: "Duplicate", archive: "Archive", unarchive: "Unarchive", moveUp: "Move {{name}} up", moveDown: "Move {{name}} down",
    reorderHint: "Drag a card, or use the ↑ ↓ buttons, to change the order.",
    deleteTitle: "Delete “{{name}}”?", deleteConfirm: "Delete for good", deleteIntro: "This cannot be undone. Deleted with the project:",
    deleteBots: "Bots: {{count}}", deleteRunning: "Running now, will be stopped: {{count}}", deleteTokens: "Bot tokens and their env variables: {{count}}", deleteMedia: "Media files: {{count}}",
    deleteRest: "Bot users, their variables, logs, launch history and versions",
  },
  import: {
    hint: "Import a project.json: drop the file here or", pick: "Choose a file", busy: "Importing…", tooBig: "The file is larger than 10 MB.",
    notJson: "“{{name}}” is not a JSON file.", failed: "Import failed: {{reason}}",
  },
  project: { tabsLabel: "Project sections", tabs: { bots: "Bots", logs: "Logs", users: "Users", media: "Media", versions: "Versions", team: "Team", export: "Export" } },
  bots: {
    addTitle: "Add a bot", addHint: "Paste the token @BotFather gave you. The platform asks the messenger who the bot is before saving it.", token: "Bot token", nameOptional: "Name (optional)",
    add: "Add bot", checking: "Checking…", added: "Added: {{name}} (@{{username}})", none: "No bots yet: add a token above.",
    start: "Start", stop: "Stop", restart: "Restart", uptime: "up {{uptime}}", settings: "Settings", name: "Name", mode: "Launch mode", polling: "Polling", webhook: "Webhook",
    flags: { catchAllHandlers: "Catch-all handlers", protectContent: "Protect content", contentCache: "Content cache" },
    flagHints: { catchAllHandlers: "answer messages no node handles", protectContent: "users cannot forward or save the bot's messages", contentCache: "reuse uploaded media instead of sending it again" },
    remove: "Remove bot", removeTitle: "Remove the bot “{{name}}”?", removeText: "The bot is stopped and its token, env variables and users are removed from this project.",
    status: { label: "Status", running: "Running", starting: "Starting", stopped: "Stopped", error: "Error", crashed: "Crashed" },
    launches: "Launch history", noLaunches: "No launches yet.", startedAt: "Started", stoppedAt: "Stopped", error: "Error",
  },
  env: {
    title: "Env variables", none: "No variables.", key: "Key", keyRule: "Capital letters, digits and _, starting with a letter", value: "Value", secret: "Secret",
    add: "Add variable", reveal: "Reveal", hide: "Hide", deleteKey: "Delete {{key}}",
  },
  logs: {
    bot: "Bot", allBots: "All bots", level: "Level", allLevels: "All levels", search: "Search", pause: "Pause", resume: "Resume",
    downloadText: "Download .txt", downloadJson: "Download .json", live: "Live: refreshed every {{seconds}} s", paused: "Paused", count: "Lines: {{count}}", empty: "No log lines.",
  },
  users: {
    noBots: "Add a bot on the Bots tab: its users appear here.", stats: "Statistics", total: "Users in total", active24h: "Active in 24 h", active7d: "Active in 7 days", newToday: "New today",
    newPerDay: "New users per day", chartLabel: "Chart of new users per day, {{total}} in 30 days", title: "Users", search: "Search by name, @username or id",
    none: "Nobody has written to this bot yet.", noMatch: "Nobody matches.", range: "{{from}}–{{to}} of {{count}}",
    id: "Id", username: "Username", firstSeen: "First seen", lastSeen: "Last seen", interactions: "Interactions", variables: "Variables", noVariables: "No variables stored.",
  },
  media: {
    upload: "Upload files", hint: "Images, video, audio, PDF and documents up to 50 MB.", uploading: "Uploading {{name}}…", progress: "Upload progress",
    failed: "“{{name}}” was not uploaded: {{reason}}", none: "No media yet.", copyUrl: "Copy URL", open: "Open", deleteTitle: "Delete “{{name}}”?", deleteText: "The file is removed from storage; bots and messages that use its URL lose it.", deleteName: "Delete {{name}}",
  },
  versions: {
    none: "No versions yet: every save of the scenario is kept here.", noMessage: "Saved", agent: "by agent {{name}}", author: "by user {{id}}", view: "View", hide: "Hide",
    restore: "Restore", restoreTitle: "Restore this version?", restoreText: "The scenario becomes the one saved {{date}}. The current one stays in the history.", document: "Document (JSON)",
  },
  team: {
    title: "Team", hint: "Collaborators can edit the project and run its bots. They log in with their messenger account.", owner: "owner", you: "you", removeName: "Remove {{name}}",
    messengerId: "Messenger user id", add: "Add collaborator", adminsTitle: "Bot admin ids", adminsHint: "Messenger user ids the bot treats as its administrators (ADMIN_IDS).",
    noAdmins: "No admin ids.", adminId: "Admin id", addAdmin: "Add admin id",
  },
  export: {
    jsonTitle: "project.json", jsonHint: "The scenario as a file: import it on another Botloom server or keep it as a backup.", download: "Download project.json",
    codeTitle: "Generated code", codeHint: "The bot as an ordinary grammY program: it runs on its own with `bun add grammy`.", generate: "Generate code", regenerate: "Generate again",
    downloadCode: "Download bot.ts", lines: "Lines: {{count}}",
  },
  templates: {
    title: "Templates", search: "Search templates", category: "Category", allCategories: "All categories", language: "Language", allLanguages: "All languages",
    featuredOnly: "Featured only", featured: "Featured", none: "No templates match.", uses: "Used: {{count}}", page: "Page {{page}} of {{pages}}",
    rating: "Rating {{rating}} of 5, votes: {{count}}", rateLabel: "Your rating:", rateN: "Rate {{n}} of 5", thanks: "Thanks for your vote",
    sheets: "Sheets", nodeCount: "Nodes", commands: "Commands", kinds: "Node kinds", tags: "Tags", projectName: "Name of the new project", use: "Use this template",
    categories: { business: "Business", support: "Support", entertainment: "Entertainment", community: "Community", ecommerce: "Shop", marketing: "Marketing", education: "Education", custom: "Custom", utility: "Utility" },
    difficulty: { easy: "easy", medium: "medium", hard: "hard" },
  },
  saveTemplate: { title: "Save as template", name: "Template name", description: "What the bot does", public: "Visible to everyone", save: "Save template", saved: "Saved.", open: "Open it" },
  account: {
    title: "Account", name: "Name", id: "Messenger id", patsTitle: "Personal access tokens",
    patsHint: "A token lets a script or an agent use the API as you (header Authorization: Bearer …). It is shown once; keep it secret.",
    patName: "Token name", patCreate: "Create token", patOnce: "Token “{{name}}”: copy it now, it will not be shown again.", patDone: "Done",
    noPats: "No tokens.", created: "Created", lastUsed: "Last used", never: "never", revoke: "Revoke", revokeTitle: "Revoke “{{name}}”?", revokeText: "Scripts that use this token stop working at once.",
  },
};

export type Strings = typeof en;
