// The admin hub (docs/api.md#admin-area): static HTML here, behaviour in assets/admin/hub.js,
// which talks to /admin/api/* with fetch. Both are embedded in the binary.
import hubScript from "../../../../assets/admin/hub.js" with { type: "text" };
import backupsScript from "../../../../assets/admin/backups.js" with { type: "text" };
import { page } from "./layout";

const status = (id: string) => `<div class="status" id="${id}" role="status" aria-live="polite"></div>`;

const versionSection = `
<section id="version" aria-labelledby="version-h">
  <h2 id="version-h">Version and updates</h2>
  <p id="version-current">Loading…</p>
  <div id="update-status" role="status" aria-live="polite"></div>
  <button type="button" class="secondary" id="update-refresh">Check for updates now</button>
</section>`;

const usersSection = `
<section id="users" aria-labelledby="users-h">
  <h2 id="users-h">Users</h2>
  <form id="users-search" class="row" role="search">
    <label>Search <span class="hint">name, @username or exact id</span>
      <input type="search" name="search" id="users-search-input" maxlength="200" autocomplete="off"></label>
    <button type="submit">Search</button>
  </form>
  ${status("users-status")}
  <table id="users-table" aria-labelledby="users-h" hidden>
    <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Username</th><th scope="col">Own projects</th><th scope="col">Shared with them</th><th scope="col">Joined</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
  <nav class="row" aria-label="Users pages">
    <button type="button" class="secondary" id="users-prev" disabled>Previous</button>
    <span id="users-page"></span>
    <button type="button" class="secondary" id="users-next" disabled>Next</button>
  </nav>
  <div id="user-card" class="card" tabindex="-1" hidden aria-live="polite"></div>
</section>`;

const templatesSection = `
<section id="templates" aria-labelledby="templates-h">
  <h2 id="templates-h">Templates</h2>
  <p class="hint">Featured templates are shown first in the catalog. Refresh rewrites the built-in templates from this version of Botloom.</p>
  <div id="templates-list"></div>
  <form id="featured-form" class="row">
    <label>Template id <input name="id" id="featured-id" inputmode="numeric" pattern="[0-9]+" required></label>
    <label>Featured
      <select name="featured" id="featured-value"><option value="1">Featured</option><option value="0">Not featured</option></select></label>
    <button type="submit">Save</button>
  </form>
  <button type="button" class="secondary" id="templates-refresh">Refresh built-in templates</button>
  ${status("templates-status")}
</section>`;

const foldersSection = `
<section id="bot-folders" aria-labelledby="folders-h">
  <h2 id="folders-h">Bot folders</h2>
  <p class="hint">Deletes the folders of bots whose project no longer exists. Folders with names Botloom did not create are left alone.</p>
  <button type="button" class="secondary" id="folders-cleanup">Clean up bot folders</button>
  ${status("folders-status")}
</section>`;

const patsSection = `
<section id="pats" aria-labelledby="pats-h">
  <h2 id="pats-h">Personal access tokens</h2>
  <p class="hint">A <code>bot_manager</code> token lets a bot-manager client act for any user it names (<code>messenger_id</code>). Only the admin can create one.</p>
  <form id="pat-form" class="stack">
    <label>Name <input name="name" id="pat-name" maxlength="100" required></label>
    <label>User id <span class="hint">the messenger user id the token belongs to</span>
      <input name="userId" id="pat-user" inputmode="numeric" pattern="[0-9]+" required></label>
    <label class="check"><input type="checkbox" name="botManager" id="pat-scope" checked> Scope <code>bot_manager</code></label>
    <button type="submit">Create token</button>
  </form>
  ${status("pats-status")}
  <div id="pat-created" class="ok" hidden>
    <p><strong>Copy this token now: it is shown only once.</strong></p>
    <p><code class="token" id="pat-token"></code></p>
    <button type="button" class="secondary" id="pat-copy">Copy to clipboard</button>
  </div>
  <table id="pats-table" aria-labelledby="pats-h" hidden>
    <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">User</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
</section>`;

const storageSection = `
<section id="storage" aria-labelledby="storage-h">
  <h2 id="storage-h">Storage</h2>
  <p class="hint">Where media uploads go. Without an active configuration they go to the built-in folder <code>uploads/</code>.</p>
  ${status("storage-status")}
  <table id="storage-table" aria-labelledby="storage-h" hidden>
    <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Backend</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
  <details id="storage-create-box"><summary>Add a storage configuration</summary>
  <form id="storage-form" class="stack">
    <label>Name <input name="name" required maxlength="100"></label>
    <label>Backend <select name="backend" id="storage-backend"><option value="local">Local folder</option><option value="objstore">Object store (S3-compatible)</option></select></label>
    <fieldset data-backend="local"><legend>Local folder</legend>
      <label>Folder <span class="hint">absolute path, or relative to the server's working directory</span><input name="rootPath"></label>
    </fieldset>
    <fieldset data-backend="objstore" hidden><legend>Object store</legend>
      <label>Bucket <input name="bucket"></label>
      <label>Region <span class="hint">for example us-east-1</span><input name="region"></label>
      <label>Endpoint <span class="hint">URL of an S3-compatible server; empty for AWS</span><input name="endpoint" type="url"></label>
      <label class="check"><input type="checkbox" name="forcePathStyle"> Path-style addressing</label>
      <label>Public URL base <span class="hint">optional</span><input name="publicUrlBase" type="url"></label>
      <label>Access key id <input name="objectAccessKeyId" autocomplete="off"></label>
      <label>Secret access key <input name="objectSecretAccessKey" type="password" autocomplete="off"></label>
    </fieldset>
    <button type="submit">Create</button>
  </form></details>
</section>`;

const backupsSection = `
<section id="backups" aria-labelledby="backups-h">
  <h2 id="backups-h">Backups</h2>
  <p class="hint">A backup is one <code>.tar.gz</code> archive holding the platform database and every project database, kept in <code>DATA_DIR/backups</code>. It contains bot tokens: store downloads safely. Restore with <code>botloom restore FILE</code> while the server is stopped.</p>
  <p id="backups-schedule">Loading…</p>
  <button type="button" id="backups-create">Back up now</button>
  ${status("backups-status")}
  <table id="backups-table" aria-labelledby="backups-h" hidden>
    <thead><tr><th scope="col">Backup</th><th scope="col">Size</th><th scope="col">Made</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
</section>`;

export function hubPage() {
  return page(
    "Hub",
    `<h2 class="visually-hidden">Admin hub</h2>
<nav class="toc" aria-label="Sections"><a href="#version">Version</a><a href="#users">Users</a><a href="#templates">Templates</a><a href="#bot-folders">Bot folders</a><a href="#pats">Tokens</a><a href="#storage">Storage</a><a href="#backups">Backups</a></nav>
${versionSection}${usersSection}${templatesSection}${foldersSection}${patsSection}${storageSection}${backupsSection}`,
    { nav: "hub", script: `${hubScript}\n${backupsScript}` },
  );
}
