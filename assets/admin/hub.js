// Admin hub behaviour: plain browser JavaScript, no build step, no dependencies. Everything from
// the API is put into the page with textContent (never innerHTML), so names cannot inject markup.
const $ = (id) => document.getElementById(id);

function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v != null) el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c != null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** A status line (role=status, aria-live): kind "error" or "ok" colours it. */
function say(id, text, kind = "") {
  const el = $(id);
  el.replaceChildren(...(Array.isArray(text) ? text : [text]));
  el.className = `status${kind ? ` ${kind}` : ""}`;
}

/** fetch + JSON; `message` is the API's own error message (or a fallback). */
async function api(method, path, body) {
  const init = { method, headers: { accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, data: null, message: "The server could not be reached. Check the connection and try again." };
  }
  let data = null;
  try {
    data = await res.json();
  } catch {}
  if (res.status === 401 && data && data.error === "ADMIN_UNAUTHORIZED" && path.startsWith("/admin/")) {
    location.assign("/admin/login");
  }
  const message = (data && typeof data.message === "string" && data.message) || `Request failed (HTTP ${res.status})`;
  return { ok: res.ok, status: res.status, data, message };
}

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const when = (iso) => {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : DATE.format(d);
};
/** A table cell that names its column: narrow screens show each row as a card labelled this way. */
const cell = (label, ...children) => h("td", { "data-label": label }, ...children);
const actions = (...buttons) => h("td", { class: "actions" }, h("div", { class: "buttons" }, ...buttons));
const fullName = (u) => [u.firstName, u.lastName].filter((s) => s && String(s).trim()).join(" ") || "(no name)";

// --- version and updates ---------------------------------------------------------------------------

/**
 * A version as people write it: the API's four parts (docs/api.md) lose a last ".0", which only
 * counts re-releases of the same version ("0.1.0.0" → "0.1.0", "0.1.0.2" stays).
 */
const shownVersion = (v) => String(v).replace(/^(\d+\.\d+\.\d+)\.0$/, "$1");

async function loadVersion(refresh = false) {
  const v = await api("GET", "/admin/api/version");
  $("version-current").textContent = v.ok ? `Installed: Botloom ${shownVersion(v.data.version)}, released ${v.data.releasedAt}.` : v.message;
  say("update-status", "Checking for updates…");
  const u = await api("GET", `/admin/api/update-check${refresh ? "?refresh=1" : ""}`);
  if (!u.ok) return say("update-status", u.message, "error");
  const r = u.data;
  if (r.checkFailed) {
    return say("update-status", "Could not check for updates: the server may be offline, or the published version file could not be read. Try again later.");
  }
  if (r.updateAvailable) {
    const parts = [`Update available: ${shownVersion(r.latest.version)} (released ${r.latest.releasedAt}). `];
    if (r.latest.notesUrl) parts.push(h("a", { href: r.latest.notesUrl, rel: "noopener noreferrer", target: "_blank" }, "Release notes"), " · ");
    parts.push(h("a", { href: r.deployGuideUrl, rel: "noopener noreferrer", target: "_blank" }, "How to upgrade"));
    return say("update-status", parts, "ok");
  }
  say("update-status", `Botloom is up to date (latest published version: ${shownVersion(r.latest.version)}).`);
}

// --- users -------------------------------------------------------------------------------------------

const users = { search: "", page: 1, perPage: 20 };

async function loadUsers() {
  const qs = new URLSearchParams({ page: String(users.page), perPage: String(users.perPage) });
  if (users.search) qs.set("search", users.search);
  say("users-status", "Loading users…");
  const r = await api("GET", `/admin/api/users?${qs}`);
  const table = $("users-table");
  if (!r.ok) {
    table.hidden = true;
    return say("users-status", r.message, "error");
  }
  const { items, total, page, perPage } = r.data;
  const pages = Math.max(1, Math.ceil(total / perPage));
  table.tBodies[0].replaceChildren(
    ...items.map((u) =>
      h(
        "tr",
        {},
        cell("Id", String(u.id)),
        cell("Name", fullName(u)),
        cell("Username", u.username ? `@${u.username}` : "—"),
        cell("Own projects", String(u.ownedCount)),
        cell("Shared with them", String(u.sharedCount)),
        cell("Joined", when(u.createdAt)),
        actions(h("button", { type: "button", class: "secondary", "aria-label": `Open user ${u.id}`, onclick: (ev) => openUser(u.id, ev.currentTarget) }, "Open")),
      ),
    ),
  );
  table.hidden = items.length === 0;
  say("users-status", total === 0 ? (users.search ? `No users match “${users.search}”.` : "No users yet.") : `${total} user${total === 1 ? "" : "s"}${users.search ? ` matching “${users.search}”` : ""}.`);
  $("users-page").textContent = total === 0 ? "" : `Page ${page} of ${pages}`;
  $("users-prev").disabled = page <= 1;
  $("users-next").disabled = page >= pages;
}

function projectList(items, shared) {
  if (items.length === 0) return h("p", { class: "hint" }, "None.");
  return h(
    "ul",
    {},
    ...items.map((p) =>
      h("li", {}, `${p.name} (#${p.id}) — created ${when(p.createdAt)}, updated ${when(p.updatedAt)}`, shared ? ` — owner: ${p.ownerDisplayName} (${p.ownerId})` : ""),
    ),
  );
}

async function openUser(id, opener) {
  const card = $("user-card");
  card.hidden = false;
  card.replaceChildren(h("p", {}, "Loading…"));
  const r = await api("GET", `/admin/api/users/${id}`);
  if (!r.ok) return card.replaceChildren(h("p", { class: "error", role: "alert" }, r.message));
  const { user, ownedProjects, sharedProjects } = r.data;
  card.replaceChildren(
    h("h3", {}, `${fullName(user)} (${user.id})`),
    h("p", {}, user.username ? `@${user.username} · ` : "", `joined ${when(user.createdAt)}, last login ${when(user.updatedAt)}`),
    h("h4", {}, `Own projects (${ownedProjects.length})`),
    projectList(ownedProjects, false),
    h("h4", {}, `Shared with this user (${sharedProjects.length})`),
    projectList(sharedProjects, true),
    h("button", { type: "button", class: "secondary", onclick: () => closeUser(opener) }, "Close"),
  );
  card.focus();
}

/** Hides the card and gives focus back to the button that opened it (if that row still exists). */
function closeUser(opener) {
  $("user-card").hidden = true;
  if (opener && opener.isConnected) opener.focus();
}

// --- templates --------------------------------------------------------------------------------------

async function setFeatured(id, featured) {
  const r = await api("PATCH", `/admin/api/templates/${encodeURIComponent(id)}/featured`, { featured });
  if (!r.ok) return say("templates-status", r.message, "error");
  say("templates-status", `Template “${r.data.name}” (#${r.data.id}) is ${r.data.featured ? "now featured" : "no longer featured"}.`, "ok");
  loadTemplates();
}

async function loadTemplates() {
  const box = $("templates-list");
  const r = await api("GET", "/admin/api/templates?perPage=100");
  if (!r.ok) return box.replaceChildren(h("p", { class: "error" }, r.message));
  const items = r.data.items;
  if (items.length === 0) return box.replaceChildren(h("p", { class: "hint" }, "The catalog is empty."));
  box.replaceChildren(
    h(
      "table",
      { "aria-labelledby": "templates-h" },
      h(
        "thead",
        {},
        h("tr", {}, ...["Id", "Name", "Category", "Featured"].map((c) => h("th", { scope: "col" }, c)), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions"))),
      ),
      h(
        "tbody",
        {},
        ...items.map((tpl) =>
          h(
            "tr",
            {},
            cell("Id", String(tpl.id)),
            cell("Name", tpl.name),
            cell("Category", tpl.category || "—"),
            cell("Featured", tpl.featured ? "yes" : "no"),
            actions(
              h(
                "button",
                { type: "button", class: "secondary", "aria-label": `${tpl.featured ? "Unfeature" : "Feature"} template ${tpl.name} (#${tpl.id})`, onclick: () => setFeatured(tpl.id, tpl.featured ? 0 : 1) },
                tpl.featured ? "Unfeature" : "Feature",
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

// --- bot folders ------------------------------------------------------------------------------------

async function cleanupFolders() {
  say("folders-status", "Cleaning up…");
  const r = await api("POST", "/admin/api/bot-folders/cleanup");
  if (!r.ok) return say("folders-status", r.message, "error");
  const { deleted = [], skipped = [], message } = r.data;
  const list = (title, names) => (names.length ? [h("p", {}, `${title} (${names.length}):`), h("ul", {}, ...names.map((n) => h("li", {}, h("code", {}, n))))] : []);
  say("folders-status", [h("p", {}, message || `${deleted.length} folder(s) deleted.`), ...list("Deleted", deleted), ...list("Skipped", skipped)], "ok");
}

// --- personal access tokens ----------------------------------------------------------------------------

async function loadPats() {
  const r = await api("GET", "/admin/api/pats");
  const table = $("pats-table");
  if (!r.ok) return say("pats-status", r.message, "error");
  table.tBodies[0].replaceChildren(
    ...r.data.items.map((p) =>
      h(
        "tr",
        {},
        cell("Id", String(p.id)),
        cell("Name", p.name),
        cell("User", String(p.userId)),
        cell("Scopes", p.scopes.length ? p.scopes.join(", ") : "—"),
        cell("Created", when(p.createdAt)),
        cell("Last used", p.lastUsedAt ? when(p.lastUsedAt) : "never"),
        actions(h("button", { type: "button", class: "danger", "aria-label": `Revoke token ${p.name} (#${p.id})`, onclick: () => revokePat(p) }, "Revoke")),
      ),
    ),
  );
  table.hidden = r.data.items.length === 0;
}

async function createPat(ev) {
  ev.preventDefault();
  const name = $("pat-name").value.trim();
  const userId = $("pat-user").value.trim();
  if (!/^\d{1,16}$/.test(userId) || Number(userId) <= 0) return say("pats-status", "User id must be a positive number (the messenger user id).", "error");
  const r = await api("POST", "/admin/api/pats", { name, userId: Number(userId), scopes: $("pat-scope").checked ? ["bot_manager"] : [] });
  if (!r.ok) return say("pats-status", r.message, "error");
  $("pat-token").textContent = r.data.token;
  $("pat-created").hidden = false;
  $("pat-name").value = "";
  say("pats-status", `Token “${r.data.name}” (#${r.data.id}) created for user ${r.data.userId}.`, "ok");
  loadPats();
}

async function copyPat() {
  const token = $("pat-token").textContent;
  try {
    await navigator.clipboard.writeText(token);
    say("pats-status", "Token copied to the clipboard.", "ok");
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("pat-token"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    say("pats-status", "The token is selected: press Ctrl+C (⌘C) to copy it.");
  }
}

async function revokePat(p) {
  if (!confirm(`Revoke token “${p.name}” (#${p.id})? Clients using it stop working at once.`)) return;
  const r = await api("DELETE", `/admin/api/pats/${p.id}`);
  if (!r.ok) return say("pats-status", r.message, "error");
  $("pat-created").hidden = true;
  say("pats-status", `Token “${p.name}” (#${p.id}) revoked.`, "ok");
  loadPats();
}

// --- storage configs ------------------------------------------------------------------------------------

async function loadStorage() {
  const r = await api("GET", "/admin/api/storage-configs");
  const table = $("storage-table");
  if (!r.ok) return say("storage-status", r.message, "error");
  table.tBodies[0].replaceChildren(
    ...r.data.map((c) =>
      h(
        "tr",
        {},
        cell("Id", h("code", {}, c.id)),
        cell("Name", c.name),
        cell("Backend", c.backend === "objstore" ? `object store${c.config && c.config.bucket ? ` (${c.config.bucket})` : ""}` : `local${c.config && c.config.rootPath ? ` (${c.config.rootPath})` : ""}`),
        cell("State", [c.isActive ? "active" : "inactive", c.readOnly ? "read-only" : "", c.hasSecrets ? "credentials stored" : ""].filter(Boolean).join(", ")),
        actions(
          h("button", { type: "button", class: "secondary", "aria-label": `Test ${c.name}`, onclick: () => testStorage(c) }, "Test"),
          c.isActive
            ? h("button", { type: "button", class: "secondary", "aria-label": `Deactivate ${c.name}`, onclick: () => activateStorage(c, false) }, "Deactivate")
            : h("button", { type: "button", "aria-label": `Activate ${c.name}`, onclick: () => activateStorage(c, true) }, "Activate"),
          h("button", { type: "button", class: "danger", "aria-label": `Delete ${c.name}`, onclick: () => deleteStorage(c) }, "Delete"),
        ),
      ),
    ),
  );
  table.hidden = r.data.length === 0;
  if (r.data.length === 0) say("storage-status", "No storage configurations: uploads go to the built-in folder.");
}

async function testStorage(c) {
  say("storage-status", `Testing “${c.name}”…`);
  const r = await api("POST", `/admin/api/storage-configs/${encodeURIComponent(c.id)}/test`);
  say("storage-status", `“${c.name}”: ${r.message}`, r.ok ? "ok" : "error");
}

async function activateStorage(c, active) {
  const r = await api("PATCH", `/admin/api/storage-configs/${encodeURIComponent(c.id)}`, { isActive: active });
  if (!r.ok) return say("storage-status", r.message, "error");
  await loadStorage();
  say("storage-status", active ? `“${c.name}” is now the active storage: new uploads go there.` : `“${c.name}” is no longer active: new uploads go to the built-in folder.`, "ok");
}

async function deleteStorage(c) {
  if (!confirm(`Delete the storage configuration “${c.name}”? Stored files stay where they are.`)) return;
  const r = await api("DELETE", `/admin/api/storage-configs/${encodeURIComponent(c.id)}`);
  if (!r.ok) return say("storage-status", r.message, "error");
  await loadStorage();
  say("storage-status", `“${c.name}” deleted.`, "ok");
}

async function createStorage(ev) {
  ev.preventDefault();
  const f = new FormData(ev.target);
  const text = (k) => String(f.get(k) ?? "").trim();
  const backend = text("backend");
  const body = { name: text("name"), backend, config: {} };
  if (backend === "local") {
    if (text("rootPath")) body.config.rootPath = text("rootPath");
  } else {
    for (const k of ["bucket", "region", "endpoint", "publicUrlBase"]) if (text(k)) body.config[k] = text(k);
    body.config.forcePathStyle = f.get("forcePathStyle") === "on";
    if (text("objectAccessKeyId") || text("objectSecretAccessKey")) {
      body.objectAccessKeyId = text("objectAccessKeyId");
      body.objectSecretAccessKey = String(f.get("objectSecretAccessKey") ?? "");
    }
  }
  const r = await api("POST", "/admin/api/storage-configs", body);
  if (!r.ok) return say("storage-status", r.message, "error");
  ev.target.reset();
  showBackendFields();
  await loadStorage();
  say("storage-status", `Created “${r.data.name}” (${r.data.id}). Test it, then activate it.`, "ok");
}

function showBackendFields() {
  const backend = $("storage-backend").value;
  for (const fs of document.querySelectorAll("#storage-form fieldset[data-backend]")) fs.hidden = fs.dataset.backend !== backend;
}

// --- wiring -----------------------------------------------------------------------------------------------

$("update-refresh").addEventListener("click", () => loadVersion(true));
$("users-search").addEventListener("submit", (ev) => {
  ev.preventDefault();
  users.search = $("users-search-input").value.trim();
  users.page = 1;
  loadUsers();
});
$("users-prev").addEventListener("click", () => {
  users.page = Math.max(1, users.page - 1);
  loadUsers();
});
$("users-next").addEventListener("click", () => {
  users.page += 1;
  loadUsers();
});
$("featured-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const id = $("featured-id").value.trim();
  if (!/^\d{1,16}$/.test(id)) return say("templates-status", "Template id must be a number.", "error");
  setFeatured(id, Number($("featured-value").value));
});
$("templates-refresh").addEventListener("click", async () => {
  say("templates-status", "Refreshing built-in templates…");
  const r = await api("POST", "/admin/api/templates/refresh");
  if (!r.ok) return say("templates-status", r.message, "error");
  say("templates-status", `${r.data.message} (${when(r.data.timestamp)})`, "ok");
  loadTemplates();
});
$("folders-cleanup").addEventListener("click", cleanupFolders);
$("pat-form").addEventListener("submit", createPat);
$("pat-copy").addEventListener("click", copyPat);
$("storage-form").addEventListener("submit", createStorage);
$("storage-backend").addEventListener("change", showBackendFields);

loadVersion();
loadUsers();
loadTemplates();
loadPats();
loadStorage();
