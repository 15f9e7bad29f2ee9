#!/usr/bin/env bash
# Puts a backup made by deploy/backup.sh back in place of the live database.
#
#   deploy/restore.sh [--force] BACKUP [DB]
#
#   BACKUP   a file written by deploy/backup.sh
#   DB       the database to replace (default: $VIKTORY_DB, else ./viktory.db)
#   --force  skip the check that no process has DB open
#
# STOP THE SERVER FIRST (systemctl stop viktory / docker compose stop viktory). A running server
# keeps the old database open and would go on writing to it. This script refuses to run while
# any process it can see holds DB (or its -wal file) open.
#
# Nothing is deleted: the current DB and its -wal/-shm files are renamed to
# DB.before-restore-YYYYmmdd-HHMMSS(-wal/-shm). See docs/backup.md.
set -euo pipefail

say() { echo "restore: $*" >&2; }
die() {
  say "error: $*"
  exit 1
}

force=0
args=()
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h | --help)
      sed -n 2,15p "$0"
      exit 0
      ;;
    -*) die "unknown option '$arg'" ;;
    *) args+=("$arg") ;;
  esac
done
if [ ${#args[@]} -lt 1 ] || [ ${#args[@]} -gt 2 ]; then
  die "usage: restore.sh [--force] BACKUP [DB]"
fi
backup=${args[0]}
db=${args[1]:-${VIKTORY_DB:-./viktory.db}}
command -v sqlite3 >/dev/null 2>&1 || die "the sqlite3 command-line tool is not installed (Debian: apt-get install sqlite3)"

[ -f "$backup" ] || die "backup '$backup' does not exist"
[ "$(head -c 15 "$backup")" = "SQLite format 3" ] || die "'$backup' is not an SQLite database"
# Check a private copy: opening the backup itself could leave -journal files beside it.
db_dir=$(cd "$(dirname "$db")" 2>/dev/null && pwd) || die "folder of '$db' does not exist"
db="$db_dir/$(basename "$db")"
staged="$db.restore-tmp.$$"
cleanup() { rm -f "$staged" "$staged-journal" "$staged-wal" "$staged-shm"; }
trap cleanup EXIT
cp -- "$backup" "$staged"
check=$(sqlite3 -bail "$staged" "PRAGMA integrity_check;" 2>&1) || die "could not read the backup: $check"
[ "$check" = "ok" ] || die "the backup failed its integrity check, nothing changed: $check"

# Is the server (or anything else) still using the database?
holders() {
  local fd target
  for fd in /proc/[0-9]*/fd/*; do
    target=$(readlink "$fd" 2>/dev/null) || continue
    case "$target" in
      "$db" | "$db-wal" | "$db-shm") echo "${fd#/proc/}" | cut -d/ -f1 ;;
    esac
  done | sort -u
}
if [ "$force" = 0 ]; then
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet viktory 2>/dev/null; then
    die "the viktory service is running: stop it first (systemctl stop viktory)"
  fi
  pids=$(holders | tr '\n' ' ')
  if [ -n "${pids// /}" ]; then
    die "'$db' is open in process(es) $pids- stop the server first (or use --force)"
  fi
  [ "$(id -u)" = 0 ] || say "note: not root, so only your own processes were checked for '$db'"
fi

# The server runs in WAL mode; the backup file is in rollback-journal mode. Done before anything
# is moved, so a failure here leaves the live database untouched.
sqlite3 -bail "$staged" "PRAGMA journal_mode=WAL;" >/dev/null || die "could not switch the restored database to WAL mode"
rm -f "$staged-wal" "$staged-shm" # left empty by the last connection, if at all

stamp=$(date -u +%Y%m%d-%H%M%S)
if [ -e "$db" ]; then
  aside="$db.before-restore-$stamp"
  for suffix in "" -wal -shm; do
    if [ -e "$db$suffix" ]; then
      mv -- "$db$suffix" "$aside$suffix"
    fi
  done
  say "kept the previous database as $aside"
  chown --reference="$aside" "$staged" 2>/dev/null || true
  chmod --reference="$aside" "$staged" 2>/dev/null || true
else
  # No previous database: give the file to whoever owns the folder (the server's user).
  chown --reference="$db_dir" "$staged" 2>/dev/null || true
  chmod 0640 "$staged"
fi

mv -- "$staged" "$db"
trap - EXIT
say "restored $backup to $db; now start the server again"
