import { page } from "./layout";

export function loginPage(opts: { error: boolean; keyConfigured: boolean }) {
  const notice = !opts.keyConfigured
    ? `<p class="error" role="alert">No admin key is configured. Start the server with <code>serve --init</code> (it prints a key) or set <code>ADMIN_KEY</code>.</p>`
    : opts.error
      ? `<p class="error" role="alert">Wrong admin key. Check the key printed at first start or stored in <code>data/admin.key</code>.</p>`
      : "";
  return page(
    "Log in",
    `<h2>Log in</h2>${notice}
<form class="stack" method="post" action="/admin/api/login">
  <label>Admin key <input name="key" type="password" autocomplete="current-password" required autofocus></label>
  <button type="submit">Log in</button>
</form>`,
  );
}
