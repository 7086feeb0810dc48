#!/usr/bin/env bash
# A throw-away cluster of Debian's PostgreSQL 15 for the server test suite (docs/operations.md).
# Usage: source scripts/pg15-cluster.sh  → exports TEST_DATABASE_URL and stops the cluster on exit.
# Needs root (the cluster runs as the postgres user) and the postgresql-15 package.
PG15_BIN=${PG15_BIN:-/usr/lib/postgresql/15/bin}
PG15_DIR=$(mktemp -d /tmp/balcao-pg15-XXXXXX)
chown postgres "$PG15_DIR"
PG15_PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
runuser -u postgres -- "$PG15_BIN/initdb" -D "$PG15_DIR/data" -A trust -U postgres --no-sync >/dev/null
# Throw-away data: no fsync; connections enough for the parallel test files and their child servers.
runuser -u postgres -- "$PG15_BIN/pg_ctl" -D "$PG15_DIR/data" -l "$PG15_DIR/log" -w \
  -o "-p $PG15_PORT -k $PG15_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
stop_pg15() {
  runuser -u postgres -- "$PG15_BIN/pg_ctl" -D "$PG15_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG15_DIR"
}
trap stop_pg15 EXIT
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG15_PORT/postgres"
echo "PostgreSQL $("$PG15_BIN/postgres" --version | awk '{print $3}') for the server tests on port $PG15_PORT"
