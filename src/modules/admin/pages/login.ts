import { page } from "./layout";

export function loginPage(opts: { error: boolean; keyConfigured: boolean; waitSeconds?: number }) {
  const notice = !opts.keyConfigured
    ? `<p class="error" id="login-error" role="alert">No admin key is configured. Start the server with <code>serve --init</code> (it prints a key) or set <code>ADMIN_KEY</code>.</p>`
    : opts.waitSeconds
      ? `<p class="error" id="login-error" role="alert">Too many wrong keys from your address. Try again in ${opts.waitSeconds} seconds.</p>`
    : opts.error
      ? `<p class="error" id="login-error" role="alert">Wrong admin key. Check the key printed at first start or stored in <code>data/admin.key</code>.</p>`
      : "";
  const invalid = notice ? ` aria-invalid="true" aria-describedby="login-error"` : "";
  // The hidden user name lets password managers file the key under "admin"; the server ignores it.
  return page(
    "Log in",
    `<h2>Log in</h2>${notice}
<form class="stack" method="post" action="/admin/api/login">
  <input type="text" name="username" value="admin" autocomplete="username" hidden>
  <label>Admin key <input name="key" type="password" autocomplete="current-password" required autofocus${invalid}></label>
  <button type="submit">Log in</button>
</form>`,
  );
}
