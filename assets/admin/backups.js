// The hub's backups section. Loaded after hub.js in the same module script, so it uses that
// file's helpers ($, h, say, api, when, cell, actions).
const SIZE = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const size = (n) => (n < 1024 ? `${n} B` : n < 1048576 ? `${SIZE.format(n / 1024)} KB` : `${SIZE.format(n / 1048576)} MB`);

async function loadBackups() {
  const r = await api("GET", "/admin/api/backups");
  if (!r.ok) return say("backups-status", r.message, "error");
  const { items, schedule, nextRun, keep, upload } = r.data;
  $("backups-schedule").textContent = schedule
    ? `Scheduled (${schedule}, server time); next: ${when(nextRun)}. The newest ${keep} are kept${upload ? "; each is also copied to the active object store" : ""}.`
    : `Scheduled backups are off (BACKUP_SCHEDULE=off). The newest ${keep} are kept.`;
  const table = $("backups-table");
  table.hidden = items.length === 0;
  table.tBodies[0].replaceChildren(
    ...items.map((b) =>
      h(
        "tr",
        {},
        cell("Backup", h("code", {}, b.name)),
        cell("Size", size(b.size)),
        cell("Made", when(b.createdAt)),
        actions(h("a", { href: `/admin/api/backups/${encodeURIComponent(b.name)}`, download: b.name, class: "button secondary" }, "Download")),
      ),
    ),
  );
  if (items.length === 0) say("backups-status", "No backups yet.");
}

async function createBackup() {
  const button = $("backups-create");
  button.disabled = true;
  say("backups-status", "Backing up…");
  const r = await api("POST", "/admin/api/backups");
  button.disabled = false;
  if (!r.ok) return say("backups-status", r.message, "error");
  await loadBackups();
  say("backups-status", `Backup ${r.data.name} made (${size(r.data.size)}, ${r.data.projects} project database(s)).`, "ok");
}

$("backups-create").addEventListener("click", createBackup);
loadBackups();
