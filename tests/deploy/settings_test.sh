#!/usr/bin/env bash
# Every VIKTORY_* setting the deploy files (Compose files, systemd units) give is one that
# something reads: the server (its --help names each variable it takes), a deploy script, or a
# Caddyfile (Caddy reads {$NAME} from its environment).
# A misspelt name would otherwise be ignored without a word and the server run on a default.
# Usage: settings_test.sh <deploy dir> <viktory-server binary>
set -euo pipefail
deploy=$1
server=$2

known=$("$server" --help 2>&1 | grep -oE 'VIKTORY_[A-Z_]+' | sort -u)
[ -n "$known" ] || { echo "FAIL: $server --help names no VIKTORY_ variable"; exit 1; }
scripts=$(cat "$deploy"/*.sh "$deploy"/Caddyfile*)

checked=0
failed=0
for file in "$deploy"/*.yml "$deploy"/*.service; do
  for name in $(grep -oE 'VIKTORY_[A-Z_]+' "$file" | sort -u); do
    checked=$((checked + 1))
    if grep -qx "$name" <<<"$known"; then continue; fi
    if grep -q "$name" <<<"$scripts"; then continue; fi
    echo "FAIL: $(basename "$file") sets $name, which neither viktory-server nor a deploy script reads"
    failed=$((failed + 1))
  done
done
[ "$checked" -gt 0 ] || { echo "FAIL: no VIKTORY_ setting found in $deploy"; exit 1; }
echo "$checked settings checked, $failed unknown"
[ "$failed" -eq 0 ]
