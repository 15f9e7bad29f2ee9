#!/usr/bin/env bash
# Consistent online backup of the VIKTORY II database, safe while the server is running.
#
#   deploy/backup.sh [DB [DEST_DIR]]
#
#   DB        the live database      (default: $VIKTORY_DB, else ./viktory.db)
#   DEST_DIR  where backups go       (default: $VIKTORY_BACKUP_DIR, else <DB's folder>/backups)
#   $VIKTORY_BACKUP_KEEP             how many backups of this database to keep (default 14; 0 = all)
#
# Writes DEST_DIR/<name>-YYYYmmdd-HHMMSS.db, a single self-contained SQLite file (rollback-journal
# mode, no -wal/-shm beside it), checked with PRAGMA integrity_check before it gets its final
# name. Prints the path of the new backup on stdout. Needs the sqlite3 command-line tool.
# See docs/backup.md.
set -euo pipefail

say() { echo "backup: $*" >&2; }
die() {
  say "error: $*"
  exit 1
}

db=${1:-${VIKTORY_DB:-./viktory.db}}
keep=${VIKTORY_BACKUP_KEEP:-14}
[ $# -le 2 ] || die "usage: backup.sh [DB [DEST_DIR]]"
[[ "$keep" =~ ^[0-9]+$ ]] || die "VIKTORY_BACKUP_KEEP must be a whole number, not '$keep'"
command -v sqlite3 >/dev/null 2>&1 || die "the sqlite3 command-line tool is not installed (Debian: apt-get install sqlite3)"

# sqlite3 would silently create an empty database for a wrong path: refuse instead.
[ -f "$db" ] || die "database '$db' does not exist"
[ -r "$db" ] || die "database '$db' is not readable by $(id -un)"
[ "$(head -c 15 "$db")" = "SQLite format 3" ] || die "'$db' is not an SQLite database"

db_dir=$(cd "$(dirname "$db")" && pwd)
dest=${2:-${VIKTORY_BACKUP_DIR:-$db_dir/backups}}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
# The path goes inside a quoted sqlite3 dot-command argument.
case "$dest" in *"'"*) die "backup folder '$dest' must not contain a single quote" ;; esac

name=$(basename "$db")
name=${name%.db}
umask 077 # the database holds players' session data: backups are for the owner only

final=""
while :; do
  final="$dest/$name-$(date -u +%Y%m%d-%H%M%S).db"
  [ -e "$final" ] || break
  sleep 1 # one backup per second at most, so names stay unique and sort by time
done
partial="$dest/.$(basename "$final").partial.$$"
cleanup() { rm -f "$partial" "$partial-journal" "$partial-wal" "$partial-shm"; }
trap cleanup EXIT

# `.backup` copies pages in steps of 100, and restarts from the beginning whenever another
# connection commits between two steps; with a busy server that can go on for as long as the
# writes do. Holding one read transaction around the copy pins a single snapshot (WAL lets the
# server keep writing meanwhile), so the copy is consistent and finishes in one pass.
if ! sqlite3 -bail -cmd ".timeout 30000" "$db" \
  "BEGIN; SELECT count(*) FROM sqlite_schema;" ".backup '$partial'" "COMMIT;" >/dev/null; then
  die "sqlite3 could not back up '$db'"
fi

# A self-contained file: a backup in WAL mode would grow -wal/-shm files beside it when opened.
sqlite3 -bail "$partial" "PRAGMA journal_mode=DELETE;" >/dev/null ||
  die "could not switch the backup to rollback-journal mode"
check=$(sqlite3 -bail "$partial" "PRAGMA integrity_check;") || die "could not check the backup"
[ "$check" = "ok" ] || die "the backup failed its integrity check: $check"

mv "$partial" "$final"
trap - EXIT
say "wrote $final ($(wc -c <"$final") bytes, integrity ok)"

if [ "$keep" -gt 0 ]; then
  # Names sort by time; remove all but the newest $keep backups of this database.
  mapfile -t old < <(find "$dest" -maxdepth 1 -type f -name "$name-????????-??????.db" | sort | head -n -"$keep")
  for f in "${old[@]}"; do
    rm -f -- "$f"
    say "removed old backup $f"
  done
fi

echo "$final"
