#!/usr/bin/env bash
# A PostgreSQL server for the store tests: Debian's package, a cluster of our own on 127.0.0.1.
# Prints one line for the caller to eval, everything else goes to stderr:
#   eval "$(bash .ci/postgres.sh)"   # sets MUNCHKIN_TEST_POSTGRES_URL
# Safe to run again: it reuses the package, the cluster and a running server.
set -euo pipefail
port="${MUNCHKIN_PG_PORT:-55432}"
data="${MUNCHKIN_PG_DATA:-/tmp/munchkin-postgres}"
url="postgresql+psycopg://munchkin:munchkin@127.0.0.1:${port}/munchkin"
cd /tmp  # the postgres user need not see the caller's directory
{
  if ! compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  fi
  bin="$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d | sort -V | tail -n 1)"
  as_postgres() { runuser -u postgres -- "$@"; }
  if ! as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    if [ ! -s "$data/PG_VERSION" ]; then
      rm -rf "$data"
      install -d -o postgres -g postgres -m 700 "$data"
      as_postgres "$bin/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    fi
    as_postgres "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k /tmp" start
  fi
  sql() { as_postgres "$bin/psql" -h /tmp -p "$port" -U postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
  if [ -z "$(sql -c "SELECT 1 FROM pg_roles WHERE rolname = 'munchkin'")" ]; then
    sql -c "CREATE ROLE munchkin LOGIN CREATEDB PASSWORD 'munchkin'"
  fi
  if [ -z "$(sql -c "SELECT 1 FROM pg_database WHERE datname = 'munchkin'")" ]; then
    sql -c "CREATE DATABASE munchkin OWNER munchkin"
  fi
} >&2
echo "export MUNCHKIN_TEST_POSTGRES_URL='${url}'"
