#!/usr/bin/env bash
# Runs viktory-server (with viktory-loadgen) and boardgame.io 0.50.2 (bench/bgio) side by side
# on this machine, interleaved (ours, then the peer, for each size), and prints one Markdown
# table: server CPU-seconds per 1,000 actions (utime+stime from /proc), p50/p99 from sending an
# action to every seat having its update, bytes per seat per action, and the load average.
# Then idle memory per connection (server RSS before and after opening IDLE connections).
#
#   bench/compare.sh                     # 1, 10, 50, 200 games; 2 and 4 players
#   GAMES="1 10" PLAYERS=2 bench/compare.sh
#   bench/compare.sh --smoke             # a few seconds: 1 and 2 games, 2 players, no idle run
#
# Environment: VIKTORY_BUILD_DIR (default build; needs viktory-server and viktory-loadgen),
# ACTIONS_TOTAL (actions per run, spread over the games; default 3000), IDLE (connections for
# the idle-memory run; default 1000, 0 to skip), THREADS (viktory-server --threads, default 2),
# SERVER_PRELOAD (a malloc library for viktory-server only, e.g. Debian's libjemalloc.so.2, to
# measure an allocator before adopting it), SYSTEMS (default "ours peer"; "ours" skips the peer).
# bench/bgio needs `npm ci` once (boardgame.io from npm). Every process it starts it stops.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${VIKTORY_BUILD_DIR:-build}"
[[ "$build" = /* ]] || build="$root/$build"
games_list="${GAMES:-1 10 50 200}"
players_list="${PLAYERS:-2 4}"
actions_total="${ACTIONS_TOTAL:-3000}"
idle="${IDLE:-1000}"
threads="${THREADS:-2}"
systems="${SYSTEMS:-ours peer}"
if [[ "${1:-}" == "--smoke" ]]; then
  games_list="1 2"
  players_list="2"
  actions_total=40
  idle=0
fi

server="$build/server/viktory-server"
loadgen="$build/bench/loadgen/viktory-loadgen"
for f in "$server" "$loadgen"; do
  [[ -x "$f" ]] || { echo "compare.sh: $f is missing (cmake --build ... --target $(basename "$f"))" >&2; exit 1; }
done
# bench/bgio's packages drive the peer and the idle-connection run; "SYSTEMS=ours IDLE=0" needs none.
if [[ ( "$systems" == *peer* || "$idle" != 0 ) && ! -d "$here/bgio/node_modules/boardgame.io" ]]; then
  echo "compare.sh: run 'npm ci' in bench/bgio first" >&2
  exit 1
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

wait_for_line() {  # file pattern: waits up to 20 s for a line matching pattern
  for _ in $(seq 200); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "compare.sh: server did not start: $(cat "$1")" >&2
  return 1
}

stop() {  # pid
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  pids=("${pids[@]/$1/}")
}

start_ours() {
  rm -f "$work"/lg.db*
  LD_PRELOAD="${SERVER_PRELOAD:-}" "$server" --port 0 --db "$work/lg.db" --threads "$threads" --log-level info \
    --max-connections-per-address 10000 --rate-limit 100000 --signups-per-minute 100000 \
    >"$work/ours.log" 2>&1 &
  ours_pid=$!
  pids+=("$ours_pid")
  wait_for_line "$work/ours.log" "listening on"
  ours_port="$(grep -o 'listening on [^ ]*' "$work/ours.log" | head -1 | sed 's/.*://')"
}

start_peer() {
  (cd "$here/bgio" && PORT=0 exec node server.js) >"$work/peer.log" 2>&1 &
  peer_pid=$!
  pids+=("$peer_pid")
  wait_for_line "$work/peer.log" "^listening"
  read -r _ peer_port peer_api_port < <(grep '^listening' "$work/peer.log")
}

field() {  # json key
  node -e 'const r=JSON.parse(process.argv[1]); process.stdout.write(String(r[process.argv[2]]))' "$1" "$2"
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

echo "| players | games | server | actions | actions/s | CPU-s per 1,000 actions | p50 ms | p99 ms | bytes per seat per action | load average before |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for players in $players_list; do
  for games in $games_list; do
    actions=$(( actions_total / games ))
    (( actions >= 10 )) || actions=10
    for system in $systems; do
      load="$(loadavg)"
      if [[ $system == ours ]]; then
        start_ours
        line="$("$loadgen" --port "$ours_port" --games "$games" --players "$players" \
          --actions "$actions" --timeout 600 --server-pid "$ours_pid" | grep '^RESULT' || true)"
        stop "$ours_pid"
        name="viktory"
      else
        start_peer
        line="$(cd "$here/bgio" && node load.js --port "$peer_port" --api-port "$peer_api_port" \
          --games "$games" --players "$players" --actions "$actions" --timeout 600 \
          --server-pid "$peer_pid" | grep '^RESULT' || true)"
        stop "$peer_pid"
        name="boardgame.io 0.50.2"
      fi
      if [[ -z "$line" ]]; then
        echo "| $players | $games | $name | failed | | | | | | $load |"
        continue
      fi
      r="${line#RESULT }"
      echo "| $players | $games | $name | $(field "$r" actions) | $(field "$r" actions_per_s) |" \
        "$(field "$r" cpu_s_per_1000_actions) | $(field "$r" p50_ms) | $(field "$r" p99_ms) |" \
        "$(field "$r" bytes_per_seat_per_action) | $load |"
    done
  done
done

if (( idle > 0 )); then
  echo
  echo "| server | idle connections | RSS before (KiB) | RSS after (KiB) | KiB per connection | load average |"
  echo "| --- | --- | --- | --- | --- | --- |"
  for system in $systems; do
    if [[ $system == ours ]]; then
      start_ours; pid=$ours_pid; port=$ours_port; name="viktory"
    else
      start_peer; pid=$peer_pid; port=$peer_port; name="boardgame.io 0.50.2"
    fi
    line="$(cd "$here/bgio" && node idle.js "$system" "$port" "$pid" "$idle" | grep '^RESULT' || true)"
    stop "$pid"
    r="${line#RESULT }"
    [[ -n "$line" ]] || { echo "| $name | failed | | | | |"; continue; }
    echo "| $name | $idle | $(field "$r" rss_before_kb) | $(field "$r" rss_after_kb) |" \
      "$(field "$r" kb_per_connection) | $(loadavg) |"
  done
fi
