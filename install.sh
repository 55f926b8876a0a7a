#!/usr/bin/env bash
# Installs Botloom on a Debian/Ubuntu server: the executable in /opt/botloom, its configuration in
# /etc/botloom/botloom.env (generated secrets, mode 0600), a `botloom` system user and a systemd
# service. Re-running upgrades the executable and keeps the data and the keys.
#
#   sudo ./install.sh [--binary PATH] [--port N] [--host ADDR]
#   sudo ./install.sh --uninstall [--purge]
#   ./install.sh --prefix /tmp/trial --binary dist/botloom     (everything under a folder, no systemd)
set -euo pipefail

SERVICE=botloom
SERVICE_USER=botloom

usage() {
  cat <<'EOF'
Usage: install.sh [options]

  --binary PATH   the Botloom executable to install (default: dist/botloom next to this script;
                  build it with `npm ci && npm run build`)
  --port N        port to listen on (default 5000; on a re-run, changes the stored port)
  --host ADDR     address to listen on (default 0.0.0.0; use 127.0.0.1 behind a reverse proxy)
  --prefix DIR    install everything under DIR (e.g. DIR/opt/botloom) and skip the system user
                  and systemd; also taken from the BOTLOOM_PREFIX environment variable
  --no-systemd    do not create the system user or touch systemd (files only)
  --uninstall     stop and remove the service, the executable and the `botloom` command;
                  keeps the data (database, bots, uploads) and the keys
  --purge         with --uninstall: also delete the data, the keys and the system user
  -h, --help      this help
EOF
}

die() {
  echo "install.sh: $*" >&2
  exit 1
}

BINARY=""
PREFIX="${BOTLOOM_PREFIX:-}"
PORT_ARG=""
HOST_ARG=""
USE_SYSTEMD=1
UNINSTALL=0
PURGE=0

while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || die "--binary needs a path"; BINARY="$2"; shift 2 ;;
    --port) [ $# -ge 2 ] || die "--port needs a number"; PORT_ARG="$2"; shift 2 ;;
    --host) [ $# -ge 2 ] || die "--host needs an address"; HOST_ARG="$2"; shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; PREFIX="$2"; shift 2 ;;
    --no-systemd) USE_SYSTEMD=0; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    --purge) PURGE=1; UNINSTALL=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; echo >&2; die "unknown option: $1" ;;
  esac
done

if [ -n "$PORT_ARG" ]; then
  if ! [[ "$PORT_ARG" =~ ^[0-9]{1,5}$ ]] || [ "$PORT_ARG" -lt 1 ] || [ "$PORT_ARG" -gt 65535 ]; then
    die "--port must be a number from 1 to 65535"
  fi
fi
if [ -n "$HOST_ARG" ] && ! [[ "$HOST_ARG" =~ ^[A-Za-z0-9.:_-]+$ ]]; then
  die "--host must be an address such as 0.0.0.0 or 127.0.0.1"
fi

if [ -n "$PREFIX" ]; then
  mkdir -p "$PREFIX"
  PREFIX="$(cd "$PREFIX" && pwd)"
  [ "$PREFIX" != "/" ] || PREFIX=""
fi
INSTALL_DIR="$PREFIX/opt/botloom"
CONF_DIR="$PREFIX/etc/botloom"
ENV_FILE="$CONF_DIR/botloom.env"
UNIT_FILE="$PREFIX/etc/systemd/system/$SERVICE.service"
WRAPPER="$PREFIX/usr/local/bin/botloom"

# The system user and systemd are managed only on the real root, as root, unless switched off.
if [ -z "$PREFIX" ] && [ "$(id -u)" -ne 0 ]; then
  die "run as root (sudo ./install.sh), or try it without root under a folder: --prefix DIR"
fi
SYSTEM=0
if [ -z "$PREFIX" ] && [ "$USE_SYSTEMD" -eq 1 ]; then
  command -v systemctl >/dev/null || die "systemd (systemctl) not found; use --no-systemd to install the files only"
  SYSTEM=1
fi

random_hex() {
  if command -v openssl >/dev/null; then
    openssl rand -hex "$1"
  else
    head -c "$1" /dev/urandom | od -An -v -tx1 | tr -d ' \n'
  fi
}

env_get() {
  [ -f "$ENV_FILE" ] || return 0
  grep -E "^$1=" "$ENV_FILE" | tail -n 1 | cut -d= -f2-
}

# Adds KEY=value when KEY is absent (a file from an older install gains new settings, old values stay).
env_default() {
  grep -qE "^$1=" "$ENV_FILE" || printf '%s=%s\n' "$1" "$2" >>"$ENV_FILE"
}

env_set() {
  if grep -qE "^$1=" "$ENV_FILE"; then
    local tmp="$ENV_FILE.tmp"
    (umask 077 && sed -E "s|^$1=.*|$1=$2|" "$ENV_FILE" >"$tmp")
    mv -f "$tmp" "$ENV_FILE"
  else
    printf '%s=%s\n' "$1" "$2" >>"$ENV_FILE"
  fi
}

# --- uninstall ------------------------------------------------------------------------------------

if [ "$UNINSTALL" -eq 1 ]; then
  if [ "$SYSTEM" -eq 1 ]; then
    systemctl disable --now "$SERVICE" 2>/dev/null || true
  fi
  rm -f "$UNIT_FILE" "$WRAPPER" "$INSTALL_DIR/botloom" "$INSTALL_DIR/botloom.new"
  [ "$SYSTEM" -eq 0 ] || systemctl daemon-reload
  if [ "$PURGE" -eq 1 ]; then
    case "$INSTALL_DIR" in */opt/botloom) rm -rf "$INSTALL_DIR" ;; *) die "refusing to delete $INSTALL_DIR" ;; esac
    case "$CONF_DIR" in */etc/botloom) rm -rf "$CONF_DIR" ;; *) die "refusing to delete $CONF_DIR" ;; esac
    if [ "$SYSTEM" -eq 1 ] && id "$SERVICE_USER" >/dev/null 2>&1; then userdel "$SERVICE_USER" || true; fi
    echo "Botloom removed, with its data, keys and system user."
  else
    echo "Botloom removed. Kept: the data in $INSTALL_DIR (data/, bots/, uploads/, backups/) and the keys in $ENV_FILE."
    echo "Installing again reuses both; to delete them too: install.sh --uninstall --purge"
  fi
  exit 0
fi

# --- install or upgrade -----------------------------------------------------------------------------

if [ -z "$BINARY" ]; then
  BINARY="$(cd "$(dirname "${BASH_SOURCE[0]:-.}")" && pwd)/dist/botloom"
fi
[ -f "$BINARY" ] || die "no Botloom executable at $BINARY: build one (npm ci && npm run build) or pass --binary PATH"
[ -s "$BINARY" ] || die "$BINARY is empty"

UPGRADE=0
[ -f "$INSTALL_DIR/botloom" ] && UPGRADE=1

if [ "$SYSTEM" -eq 1 ] && ! id "$SERVICE_USER" >/dev/null 2>&1; then
  useradd --system --home-dir "$INSTALL_DIR" --no-create-home --shell /usr/sbin/nologin --user-group "$SERVICE_USER"
fi

mkdir -p "$INSTALL_DIR" "$CONF_DIR" "$(dirname "$UNIT_FILE")" "$(dirname "$WRAPPER")"
chmod 0755 "$INSTALL_DIR"
# data/ (database, keys), bots/ (each bot's token in .env) and backups/ are the service's alone;
# the server warns at start about a DATA_DIR or BOTS_DIR that other accounts can enter.
for d in data bots backups; do
  mkdir -p "$INSTALL_DIR/$d"
  chmod 0700 "$INSTALL_DIR/$d"
done
mkdir -p "$INSTALL_DIR/uploads"
chmod 0750 "$INSTALL_DIR/uploads"
# The service writes only these folders; the executable stays root's, so the service cannot replace it.
[ "$SYSTEM" -eq 0 ] || chown -R "$SERVICE_USER:$SERVICE_USER" "$INSTALL_DIR/data" "$INSTALL_DIR/bots" "$INSTALL_DIR/uploads" "$INSTALL_DIR/backups"

# Configuration: generated once, then kept. Secrets never leave this file (0600, root).
FRESH_CONFIG=0
if [ ! -f "$ENV_FILE" ]; then
  FRESH_CONFIG=1
  (
    umask 077
    cat >"$ENV_FILE" <<EOF
# Botloom server configuration, written by install.sh and kept on re-runs.
# Changing ADMIN_KEY logs the admin out; never change STORAGE_ENCRYPTION_KEY once storage credentials
# are saved (they could not be decrypted any more). Restart after editing: systemctl restart botloom
NODE_ENV=production
PORT=${PORT_ARG:-5000}
HOST=${HOST_ARG:-0.0.0.0}
ADMIN_KEY=$(random_hex 24)
SESSION_SECRET=$(random_hex 32)
STORAGE_ENCRYPTION_KEY=$(random_hex 32)
DATA_DIR=$INSTALL_DIR/data
BOTS_DIR=$INSTALL_DIR/bots
UPLOADS_DIR=$INSTALL_DIR/uploads
LOG_LEVEL=info
EOF
  )
else
  env_default NODE_ENV production
  env_default PORT "${PORT_ARG:-5000}"
  env_default HOST "${HOST_ARG:-0.0.0.0}"
  env_default ADMIN_KEY "$(random_hex 24)"
  env_default SESSION_SECRET "$(random_hex 32)"
  env_default STORAGE_ENCRYPTION_KEY "$(random_hex 32)"
  env_default DATA_DIR "$INSTALL_DIR/data"
  env_default BOTS_DIR "$INSTALL_DIR/bots"
  env_default UPLOADS_DIR "$INSTALL_DIR/uploads"
  [ -z "$PORT_ARG" ] || env_set PORT "$PORT_ARG"
  [ -z "$HOST_ARG" ] || env_set HOST "$HOST_ARG"
fi
# Listening on loopback means a reverse proxy on this machine: its X-Forwarded-For names the client
# of the per-address limits (docs/configuration.md TRUSTED_PROXIES); else every client is the proxy.
case "$(env_get HOST)" in 127.0.0.1 | ::1 | localhost) env_default TRUSTED_PROXIES "127.0.0.1,::1" ;; esac
chmod 0600 "$ENV_FILE"
[ "$SYSTEM" -eq 0 ] || chown root:root "$ENV_FILE"

# `botloom <command>` with the server's configuration, run as the service user (files it creates,
# such as the database's side files, must stay writable by the service).
cat >"$WRAPPER" <<EOF
#!/bin/sh
# Botloom CLI with the installed configuration (written by install.sh), for example:
#   sudo botloom backup                     (an archive in $INSTALL_DIR/data/backups/)
#   LOG_LEVEL=debug botloom backup          (a variable set by the caller wins over the file)
# The caller's exported variables are saved before the file is read and put back after it.
__botloom_caller_env="\$(export -p)"
set -a
. "$ENV_FILE"
set +a
eval "\$__botloom_caller_env"
unset __botloom_caller_env
cd "$INSTALL_DIR" || exit 1
if [ "\$(id -u)" = 0 ] && id $SERVICE_USER >/dev/null 2>&1; then
  exec runuser -u $SERVICE_USER -- "$INSTALL_DIR/botloom" "\$@"
fi
exec "$INSTALL_DIR/botloom" "\$@"
EOF
chmod 0755 "$WRAPPER"

# Before an upgrade: a consistent copy of the database, made by the running version.
if [ "$UPGRADE" -eq 1 ] && [ -f "$INSTALL_DIR/data/botloom.db" ]; then
  BACKUP="$INSTALL_DIR/backups/before-upgrade-$(date +%Y%m%d-%H%M%S).backup"
  if "$WRAPPER" backup "$BACKUP" >/dev/null 2>&1; then
    echo "Database backed up to $BACKUP"
    # The three newest are kept: each holds every database, bot tokens included, and upgrades add up.
    # Their names sort by time, and a glob expands sorted.
    shopt -s nullglob
    kept=("$INSTALL_DIR"/backups/before-upgrade-*.backup)
    shopt -u nullglob
    if [ "${#kept[@]}" -gt 3 ]; then rm -f -- "${kept[@]:0:${#kept[@]}-3}"; fi
  else
    echo "Warning: the pre-upgrade backup failed; continuing (the database itself is not touched)." >&2
  fi
fi

# Replace the executable atomically: a running server keeps its old file until it restarts.
install -m 0755 "$BINARY" "$INSTALL_DIR/botloom.new"
mv -f "$INSTALL_DIR/botloom.new" "$INSTALL_DIR/botloom"

cat >"$UNIT_FILE" <<EOF
# Written by install.sh; re-running it rewrites this file.
[Unit]
Description=Botloom bot platform
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
WorkingDirectory=$INSTALL_DIR
EnvironmentFile=$ENV_FILE
Environment=BUN_RUNTIME_TRANSPILER_CACHE_PATH=0
ExecStart=$INSTALL_DIR/botloom serve --init
Restart=on-failure
RestartSec=3
# Bot processes are children of the server: stopping the service stops them too.
KillMode=control-group
TimeoutStopSec=30
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=full
ProtectHome=true

[Install]
WantedBy=multi-user.target
EOF

PORT="$(env_get PORT)"
HOST="$(env_get HOST)"
ADMIN_KEY="$(env_get ADMIN_KEY)"
VERSION="$("$INSTALL_DIR/botloom" version 2>/dev/null | head -n 1 || true)"

if [ "$SYSTEM" -eq 1 ]; then
  systemctl daemon-reload
  systemctl enable "$SERVICE" >/dev/null 2>&1
  systemctl restart "$SERVICE"
  if command -v curl >/dev/null; then
    CHECK_HOST="127.0.0.1"
    case "$HOST" in 0.0.0.0 | 127.0.0.1 | "") ;; *) CHECK_HOST="$HOST" ;; esac
    # /api/health answers as soon as the server listens, before its app has loaded; the login
    # configuration is answered by the app itself, so it says the whole server is up.
    for _ in $(seq 1 30); do
      curl -fsS -o /dev/null "http://$CHECK_HOST:$PORT/api/auth/config" 2>/dev/null && break
      sleep 1
    done
    curl -fsS -o /dev/null "http://$CHECK_HOST:$PORT/api/auth/config" 2>/dev/null || echo "Warning: the server does not answer yet; see: journalctl -u $SERVICE -n 50" >&2
  fi
fi

PUBLIC_HOST="$HOST"
if [ "$HOST" = "0.0.0.0" ] || [ -z "$HOST" ]; then
  PUBLIC_HOST="$(hostname -I 2>/dev/null | awk '{print $1}' || true)"
  [ -n "$PUBLIC_HOST" ] || PUBLIC_HOST="<server-address>"
fi

echo
if [ "$UPGRADE" -eq 1 ]; then
  echo "Botloom ${VERSION:-} upgraded in $INSTALL_DIR (data and keys kept)."
else
  echo "Botloom ${VERSION:-} installed in $INSTALL_DIR."
fi
[ "$FRESH_CONFIG" -eq 0 ] || echo "New configuration with generated keys: $ENV_FILE (mode 0600)."
echo
echo "  Admin login: http://$PUBLIC_HOST:$PORT/admin/login"
echo "  Admin key:   $ADMIN_KEY"
echo
echo "The server runs in production mode, so its cookies are Secure: browsers keep them only over HTTPS"
echo "or on localhost. Put an HTTPS reverse proxy in front (for example Caddy: reverse_proxy 127.0.0.1:$PORT),"
echo "or open an SSH tunnel and use http://localhost:$PORT/admin/login :"
echo "  ssh -L $PORT:127.0.0.1:$PORT <user>@$PUBLIC_HOST"
if [ "$SYSTEM" -eq 1 ]; then
  echo
  echo "Service: systemctl status $SERVICE · logs: journalctl -u $SERVICE -f · CLI: sudo botloom --help"
else
  echo
  echo "No system user or systemd unit was set up (--prefix or --no-systemd). Start it by hand:"
  echo "  $WRAPPER serve --init"
fi
