#!/usr/bin/env bash
# Backup while a writer is active, then restore: checks deploy/backup.sh and deploy/restore.sh.
#
#   tests/deploy/backup_test.sh [DEPLOY_DIR]     (registered with CTest as deploy_backup_restore)
#
# A WAL-mode database of 32 MB gets a writer that commits small transactions without pause, each
# adding a move and bumping a counter in the same transaction, until the test tells it to stop
# (bounded: at most 1000000 transactions or 90 s). While it writes, backups are taken; each must
# pass PRAGMA integrity_check, hold rows, and be transaction-consistent (counter == number of
# moves), and the first must finish while the writer is still going (a plain `.backup` restarts on
# every concurrent commit and would only finish once the writer gives up). Then restore.sh must
# refuse while a process holds the database open, and restore correctly once nothing does.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deploy_dir=$(cd "${1:-$here/../../deploy}" && pwd)
backup="$deploy_dir/backup.sh"
restore="$deploy_dir/restore.sh"
command -v sqlite3 >/dev/null || {
  echo "FAIL: the sqlite3 command-line tool is not installed"
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/viktory-backup-test.XXXXXX")
writer_pid=""
holder_pid=""
cleanup() {
  [ -z "$writer_pid" ] || kill "$writer_pid" 2>/dev/null || true
  [ -z "$holder_pid" ] || kill "$holder_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

checks=0
ok() {
  checks=$((checks + 1))
  echo "ok $checks - $*"
}
fail() {
  echo "FAIL: $*"
  exit 1
}
q() { sqlite3 -bail -cmd ".timeout 10000" "$@"; }

live="$work/live.db"
backups="$work/backups"
max_moves=1000000 # the writer's bounds; the test stops it long before either
max_seconds=90
filler_rows=32000

q "$live" >/dev/null <<SQL
PRAGMA journal_mode=WAL;
CREATE TABLE games(id INTEGER PRIMARY KEY, move_count INTEGER NOT NULL);
INSERT INTO games VALUES (1, 0);
CREATE TABLE moves(id INTEGER PRIMARY KEY, game INTEGER NOT NULL, payload BLOB NOT NULL);
-- Filler so the copy takes many 100-page steps (a few MB).
CREATE TABLE filler(id INTEGER PRIMARY KEY, payload BLOB NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $filler_rows)
INSERT INTO filler(payload) SELECT randomblob(1000) FROM n;
SQL
[ "$(q "$live" 'PRAGMA journal_mode;')" = wal ] || fail "test database is not in WAL mode"
ok "created a WAL database of $(wc -c <"$live") bytes"

# --- bad input: clear error, nothing created or changed ---------------------------------------
if "$backup" "$work/missing.db" "$backups" 2>"$work/err"; then fail "backup.sh accepted a missing database"; fi
grep -q "does not exist" "$work/err" || fail "backup.sh gave no clear error for a missing database: $(cat "$work/err")"
[ ! -e "$work/missing.db" ] || fail "backup.sh created the missing database"
ok "backup.sh refuses a missing database and creates nothing"

# --- a writer: transactions that keep games.move_count == count(moves), until $work/stop ------
# No pauses: a commit lands every fraction of a millisecond, far more often than a copy of the
# whole file takes, so a backup that restarts on concurrent commits cannot finish while the
# writer runs. It stops when told to (the file $work/stop) and records how many it sent.
(
  for ((i = 1; i <= max_moves; i++)); do
    if [ -e "$work/stop" ] || [ $SECONDS -ge $max_seconds ]; then break; fi
    echo "BEGIN; INSERT INTO moves(game, payload) VALUES (1, randomblob(16));"
    echo "UPDATE games SET move_count = move_count + 1 WHERE id = 1; COMMIT;"
    echo $i >"$work/sent.tmp"
  done | q "$live"
) &
writer_pid=$!

moves_now() { q "$live" "SELECT count(*) FROM moves;"; }
wait_for_moves() { # wait until at least $1 moves are committed (60 s at most)
  local deadline=$((SECONDS + 60))
  while [ "$(moves_now)" -lt "$1" ]; do
    [ $SECONDS -lt $deadline ] || fail "the writer did not reach $1 moves in 60 s"
    kill -0 "$writer_pid" 2>/dev/null || fail "the writer stopped before $1 moves"
    sleep 0.05
  done
}

check_backup() { # $1 = backup file
  local file=$1
  [ -f "$file" ] || fail "backup.sh did not write '$file'"
  [ "$(q "$file" 'PRAGMA integrity_check;')" = ok ] || fail "$file fails integrity_check"
  local moves counter filler
  moves=$(q "$file" "SELECT count(*) FROM moves;")
  counter=$(q "$file" "SELECT move_count FROM games WHERE id = 1;")
  filler=$(q "$file" "SELECT count(*) FROM filler;")
  [ "$moves" -gt 0 ] || fail "$file holds no moves"
  [ "$moves" = "$counter" ] || fail "$file is torn: $moves moves but move_count $counter"
  [ "$filler" = "$filler_rows" ] || fail "$file has $filler filler rows, expected $filler_rows"
  [ "$(q "$file" 'PRAGMA journal_mode;')" = delete ] || fail "$file is not self-contained"
  echo "$moves"
}

export VIKTORY_BACKUP_KEEP=2
wait_for_moves 100
first=$("$backup" "$live" "$backups")
kill -0 "$writer_pid" 2>/dev/null ||
  fail "the writer had finished before the first backup did: the backup waited for the writes to stop"
first_moves=$(check_backup "$first")
ok "backup during writes: integrity ok, $first_moves moves, counter consistent, writer still running"

wait_for_moves $((first_moves + 200))
second=$("$backup" "$live" "$backups")
second_moves=$(check_backup "$second")
[ "$second_moves" -gt "$first_moves" ] || fail "second backup ($second_moves moves) is not newer than the first"
ok "second backup: $second_moves moves"
third=$("$backup" "$live" "$backups")
third_moves=$(check_backup "$third")
ok "third backup: $third_moves moves"

third_alive=0
kill -0 "$writer_pid" 2>/dev/null && third_alive=1
touch "$work/stop"
wait "$writer_pid" || fail "the writer failed (busy or locked by a backup?)"
writer_pid=""
moves_total=$(cat "$work/sent.tmp")
[ "$moves_total" -lt "$max_moves" ] || fail "the writer ran to its bound before the backups were done"
[ "$(moves_now)" = "$moves_total" ] || fail "live database has $(moves_now) moves, the writer sent $moves_total"
[ "$(q "$live" 'SELECT move_count FROM games WHERE id = 1;')" = "$moves_total" ] ||
  fail "live database counter does not match its moves"
if [ "$third_alive" != 1 ] || [ "$third_moves" -ge "$moves_total" ]; then
  fail "the third backup was not taken while the writer ran"
fi
ok "writer committed all $moves_total transactions it sent while three backups ran"

mapfile -t kept < <(find "$backups" -maxdepth 1 -type f | sort)
[ ${#kept[@]} = 2 ] || fail "VIKTORY_BACKUP_KEEP=2 left ${#kept[@]} files: ${kept[*]}"
if [ "${kept[0]}" != "$second" ] || [ "${kept[1]}" != "$third" ]; then fail "kept the wrong backups: ${kept[*]}"; fi
ok "retention kept the 2 newest backups and no partial files"

# --- restore -----------------------------------------------------------------------------------
live_sum=$(cksum <"$live")
if "$restore" "$work/missing-backup.db" "$live" 2>"$work/err"; then fail "restore.sh accepted a missing backup"; fi
[ "$(cksum <"$live")" = "$live_sum" ] || fail "a failed restore changed the live database"
ok "restore.sh refuses a missing backup and leaves the database alone"

sleep 300 9<"$live" & # stands in for a running server holding the database open
holder_pid=$!
while [ "$(readlink "/proc/$holder_pid/fd/9" 2>/dev/null)" != "$live" ]; do sleep 0.05; done
if "$restore" "$second" "$live" 2>"$work/err"; then fail "restore.sh ran while the database was open"; fi
grep -q "$holder_pid" "$work/err" || fail "restore.sh did not name the process holding the database: $(cat "$work/err")"
[ "$(cksum <"$live")" = "$live_sum" ] || fail "a refused restore changed the live database"
kill "$holder_pid"
wait "$holder_pid" 2>/dev/null || true
holder_pid=""
ok "restore.sh refuses while a process holds the database open"

"$restore" "$second" "$live"
[ "$(q "$live" 'PRAGMA integrity_check;')" = ok ] || fail "restored database fails integrity_check"
[ "$(moves_now)" = "$second_moves" ] || fail "restored database has $(moves_now) moves, expected $second_moves"
[ "$(q "$live" 'PRAGMA journal_mode;')" = wal ] || fail "restored database is not in WAL mode"
mapfile -t aside < <(find "$work" -maxdepth 1 -name 'live.db.before-restore-*' ! -name '*-wal' ! -name '*-shm')
[ ${#aside[@]} = 1 ] || fail "expected the previous database to be kept aside, found: ${aside[*]}"
[ "$(q "${aside[0]}" 'SELECT count(*) FROM moves;')" = "$moves_total" ] || fail "the kept-aside database lost moves"
ok "restore put $second_moves moves back, WAL mode, previous database kept as $(basename "${aside[0]}")"

echo "backup_test: $checks passed, 0 failed"
