#!/usr/bin/env bash
# Database fault test, per service: its own throwaway PostgreSQL 15 cluster on another port
# (never the shared one on 5432), the built service on it, then the cluster STOPPED mid-run and,
# separately, FROZEN (SIGSTOP on the postmaster and its backends, as a network partition).
# Requests during each outage must get 503 within the configured timeouts; afterwards they must
# succeed without restarting the service, and every write acknowledged before is still there.
# Prints a table of statuses and waits; removes everything it made, even on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
PORT=${FAULT_PG_PORT:-55432}
WORK=$(mktemp -d /tmp/fault-test.XXXXXX)
chmod 755 "$WORK"
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
PGDATA="$WORK/pgdata"
SERVICE_PID=""

as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

cleanup() {
  local status=$?
  # A frozen server would ignore the stop: thaw it first.
  pkill -CONT -u postgres -f "$PGDATA" 2>/dev/null || true
  if [ -f "$PGDATA/postmaster.pid" ]; then
    pid=$(head -n 1 "$PGDATA/postmaster.pid")
    kill -CONT "$pid" 2>/dev/null || true
    pgrep -P "$pid" | xargs -r kill -CONT 2>/dev/null || true
  fi
  [ -n "$SERVICE_PID" ] && kill -KILL "$SERVICE_PID" 2>/dev/null || true
  as_postgres "$PG_BIN/pg_ctl -D $PGDATA -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$WORK"
  exit $status
}
trap cleanup EXIT INT TERM

echo "== PostgreSQL fault test: cluster in $PGDATA on port $PORT"
as_postgres "$PG_BIN/initdb -D $PGDATA -U postgres --auth=trust -E UTF8 >/dev/null"
as_postgres "$PG_BIN/pg_ctl -D $PGDATA -o '-p $PORT -k $WORK -c listen_addresses=127.0.0.1' -l $WORK/postgres.log -w start >/dev/null"

# The services as deployed: compiled to dist/ (type errors are the typecheck's business; a missing
# dist/main.js fails below).
for service in ${FAULT_SERVICES:-project-service code-hosting-api}; do
  (cd "apps/$service" && node_modules/.bin/tsc -p tsconfig.build.json >/dev/null) || true
done

PG_BIN="$PG_BIN" PGDATA="$PGDATA" FAULT_PG_PORT="$PORT" FAULT_WORK="$WORK" \
  node scripts/fault-test/run.mjs
