#!/usr/bin/env bash
# Install (if needed) and start a PostgreSQL server for the App's shared-state mode and its tests:
# Debian's `postgresql` package, a data folder under /tmp (or $TANDEM_PG_DIR), loopback only,
# trust authentication for the local `postgres` role. Idempotent: returns at once when the server
# answers. Prints nothing on stdout but the admin connection URL, so callers can capture it:
#   export TANDEM_PG_ADMIN_URL=$(bash scripts/start-postgres.sh)
set -euo pipefail
dir=${TANDEM_PG_DIR:-/tmp/tandem-pg}
port=${TANDEM_PG_PORT:-54329}
log=${TANDEM_PG_LOG:-/tmp/tandem-pg.log}
url="postgres://postgres@127.0.0.1:${port}/postgres"
bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
if [ -z "$(bindir)" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "tandem: PostgreSQL is missing; install Debian's postgresql package (run as root)" >&2
    exit 1
  fi
  echo "installing postgresql from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null
fi
bin=$(bindir)
if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then echo "$url"; exit 0; fi
# initdb and the server refuse to run as root: run them as the package's `postgres` user.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ ! -f "$dir/PG_VERSION" ]; then
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
  as_pg "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 >/dev/null
fi
touch "$log"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$log"
# A server killed without cleanup leaves a pid file naming a dead process; pg_ctl handles a stale
# one, but a pid reused by another process would block the start, so remove it when stale.
if [ -f "$dir/postmaster.pid" ] && ! kill -0 "$(head -1 "$dir/postmaster.pid")" 2>/dev/null; then
  rm -f "$dir/postmaster.pid"
fi
# Loopback only; enough connections for several App replicas, workers and test files at once;
# the socket directory is the data folder (the Debian default /var/run/postgresql may not exist).
# fsync=off: this server is for tests, benchmarks and trying the shared mode; a deployment runs its
# own PostgreSQL (docs/app.md, Deploy).
as_pg "$bin/pg_ctl" -D "$dir" -l "$log" -w -t 60 start \
  -o "-c listen_addresses=127.0.0.1 -p $port -c max_connections=300 -c unix_socket_directories=$dir -c fsync=off" >/dev/null
"$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30 || { echo "postgres did not start; see $log" >&2; tail -20 "$log" >&2; exit 1; }
echo "postgres ready on 127.0.0.1:$port" >&2
echo "$url"
