#!/bin/sh
# A throwaway PostgreSQL cluster for the "pg." copies of the server's integration tests (CTest
# starts it before them and stops it after: tests/server/CMakeLists.txt). Like
# support/throwaway_postgresql.h: initdb in a temporary folder, the server on a Unix socket
# there and no TCP port, no durability (fsync off: nothing here must survive), run as the
# `postgres` user when we are root. The folder's path is written to LOCATION_FILE.
#
#   pg_cluster.sh start LOCATION_FILE
#   pg_cluster.sh stop LOCATION_FILE
set -eu
action=$1
location_file=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "pg_cluster.sh: PostgreSQL is not installed (scripts/install-deps.sh --test)" >&2
  exit 1
fi
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$action" in
  start)
    folder=$(mktemp -d "${TMPDIR:-/tmp}/viktory-pg-tests-XXXXXX")
    [ "$(id -u)" = 0 ] && chown postgres: "$folder"
    as_owner "$bin/initdb" -D "$folder/data" -A trust -U viktory -E UTF8 --locale=C -N >"$folder/initdb.log" 2>&1 ||
      { cat "$folder/initdb.log" >&2; exit 1; }
    # Each server under test opens about ten connections, and two tests run at once.
    as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -t 60 \
      -o "-k $folder -c listen_addresses='' -c fsync=off -c max_connections=300" start >/dev/null ||
      { cat "$folder/log" >&2; exit 1; }
    echo "$folder" >"$location_file"
    echo "pg_cluster.sh: a cluster in $folder"
    ;;
  stop)
    [ -f "$location_file" ] || exit 0
    folder=$(cat "$location_file")
    as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$folder" "$location_file"
    ;;
  *)
    echo "usage: pg_cluster.sh start|stop LOCATION_FILE" >&2
    exit 2
    ;;
esac
