#!/usr/bin/env bash
# Before/after of one server change under viktory-loadgen, runs alternated (A B A B ...) so a
# shared machine's load hits both alike. For each binary and scenario: the loadgen's RESULT
# line, the server's actions per group commit (GET /metrics, when it reports them) and the
# load average at the start of the run.
#
#   bench/commit_compare.sh BEFORE_SERVER AFTER_SERVER LOADGEN [ROUNDS] [THREADS]
#
# Scenarios: 200 x 2 players saturated, 200 x 2 with --think-ms 250, 50 x 4 saturated.
set -euo pipefail
before="$1" after="$2" loadgen="$3" rounds="${4:-2}" threads="${5:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scenarios=("--games 200 --players 2 --actions 40"
           "--games 200 --players 2 --actions 40 --think-ms 250"
           "--games 50 --players 4 --actions 60")

run() {  # label server scenario
  local label="$1" server="$2" scenario="$3"
  rm -f "$work"/lg.db*
  "$server" --port 0 --db "$work/lg.db" --web-root "$work" --threads "$threads" \
    --log-level info --max-connections-per-address 10000 --rate-limit 100000 \
    --signups-per-minute 100000 >"$work/server.log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$work/server.log" && break
    sleep 0.1
  done
  local port
  port="$(grep -o 'listening on [^ ]*' "$work/server.log" | head -1 | sed 's/.*://')"
  local load
  load="$(cut -d' ' -f1 /proc/loadavg)"
  # shellcheck disable=SC2086
  local result
  result="$("$loadgen" --port "$port" $scenario --server-pid "$pid" --timeout 300 | grep '^RESULT')"
  local metrics groups taken
  metrics="$(curl -s "http://127.0.0.1:$port/metrics" || true)"
  groups="$(echo "$metrics" | awk '/^viktory_commit_groups_total/ {print $2}')"
  taken="$(echo "$metrics" | awk '/^viktory_commit_group_actions_total/ {print $2}')"
  kill "$pid"
  wait "$pid" || true
  local per_group="-"
  if [[ -n "$groups" && "$groups" != 0 ]]; then
    per_group="$(awk -v t="$taken" -v g="$groups" 'BEGIN {printf "%.2f", t / g}')"
  fi
  echo "$label | $scenario | load $load | actions/group $per_group | ${result#RESULT }"
}

for ((r = 1; r <= rounds; ++r)); do
  for scenario in "${scenarios[@]}"; do
    run before "$before" "$scenario"
    run after "$after" "$scenario"
  done
done
