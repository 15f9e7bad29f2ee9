#!/usr/bin/env bash
# One server against two on one PostgreSQL database (docs/performance.md, "One server and two
# on PostgreSQL"), under viktory-loadgen, on a throwaway cluster of its own (initdb in a
# temporary folder, a Unix socket, PostgreSQL's default durability: fsync and
# synchronous_commit on). Configurations, alternated in each round:
#   alone    one server serving the database alone (no --server-url), all the games
#   leases   one server with --server-url (game leases: each action's commit holds its lease)
#   two      two servers with --server-url, half the games each, two loadgens at once
# For each run: actions/s (summed over the loadgens), p50 and p99 (the worse loadgen's), the
# servers' CPU per 1,000 actions (summed) and PostgreSQL's (its processes' /proc times, the
# reaped backends' included), and the load average at the start.
#
#   bench/several_servers.sh SERVER LOADGEN [ROUNDS] [GAMES] [THINK_MS]
set -euo pipefail
server="$1" loadgen="$2" rounds="${3:-3}" games="${4:-200}" think="${5:-0}"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "several_servers.sh: PostgreSQL is not installed" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/viktory-several-XXXXXX")"
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres: "$work"
as_owner "$bin/initdb" -D "$work/data" -A trust -U viktory -E UTF8 --locale=C >/dev/null
as_owner "$bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
  -o "-k $work -c listen_addresses='' -c max_connections=200" start >/dev/null
cleanup() {
  as_owner "$bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
postmaster=$(head -1 "$work/data/postmaster.pid")
ticks=$(getconf CLK_TCK)

# PostgreSQL's CPU seconds so far: the postmaster's own and its reaped children's, and the
# live children's.
pg_cpu() {
  local total=0 pid
  total=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$postmaster/stat")
  for pid in $(pgrep -P "$postmaster"); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  awk -v t="$total" -v k="$ticks" 'BEGIN {printf "%.2f", t / k}'
}

start_server() {  # port [extra args]: adds the server's pid to pids
  local port="$1"
  shift
  "$server" --port "$port" --db "postgresql:///$db?host=$work&user=viktory" --web-root "$work" \
    --log-level warn --max-connections-per-address 10000 --rate-limit 100000 \
    --signups-per-minute 100000 --reveal-rounds-per-hour 100000 \
    --max-open-games-per-address 1000 "$@" >>"$work/servers.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
}
wait_for() {  # port
  for _ in $(seq 400); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  echo "several_servers.sh: no server on port $1" >&2
  exit 1
}
field() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" <<<"$1"; }

run=0
measure() {  # label
  local label="$1" load before after
  run=$((run + 1))
  db="bench$run"
  as_owner "$bin/createdb" -h "$work" -U viktory "$db"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  local think_args=()
  [ "$think" != 0 ] && think_args=(--think-ms "$think")
  local pids=() ports=() loadgens=() results=() i
  case "$label" in
    alone) start_server 18812 ;;
    leases) start_server 18812 --server-url http://one:1 ;;
    two)
      start_server 18812 --server-url http://one:1
      wait_for 18812  # the first migrates; the second then finds it done
      start_server 18813 --server-url http://two:2
      ;;
  esac
  for i in "${!ports[@]}"; do wait_for "${ports[$i]}"; done
  local share=$((games / ${#pids[@]}))
  before=$(pg_cpu)
  for i in "${!pids[@]}"; do
    "$loadgen" --port "${ports[$i]}" --games "$share" --players 2 --actions 60 \
      "${think_args[@]}" --server-pid "${pids[$i]}" --timeout 300 >"$work/lg$i.out" &
    loadgens+=($!)
  done
  wait "${loadgens[@]}" || true
  after=$(pg_cpu)
  for i in "${!pids[@]}"; do
    results+=("$(grep '^RESULT' "$work/lg$i.out")")
    kill "${pids[$i]}"
    wait "${pids[$i]}" 2>/dev/null || true
  done
  local actions=0 rate=0 p50=0 p99=0 cpu=0 errors=0 r
  for r in "${results[@]}"; do
    actions=$((actions + $(field "$r" actions)))
    errors=$((errors + $(field "$r" errors)))
    rate=$(awk -v a="$rate" -v b="$(field "$r" actions_per_s)" 'BEGIN {print a + b}')
    cpu=$(awk -v a="$cpu" -v b="$(field "$r" server_cpu_s)" 'BEGIN {print a + b}')
    p50=$(awk -v a="$p50" -v b="$(field "$r" p50_ms)" 'BEGIN {print (b > a ? b : a)}')
    p99=$(awk -v a="$p99" -v b="$(field "$r" p99_ms)" 'BEGIN {print (b > a ? b : a)}')
  done
  awk -v l="$label" -v load="$load" -v n="$actions" -v rate="$rate" -v p50="$p50" -v p99="$p99" \
    -v cpu="$cpu" -v pg="$(awk -v a="$before" -v b="$after" 'BEGIN {print b - a}')" -v e="$errors" \
    'BEGIN {printf "%-6s load %s | actions %d, %.0f/s | p50 %.2f ms, p99 %.2f ms | server CPU-s/1000 %.3f | PostgreSQL CPU-s/1000 %.3f | errors %d\n",
            l, load, n, rate, p50, p99, n ? cpu / n * 1000 : 0, n ? pg / n * 1000 : 0, e}'
}

echo "games $games (2 players, 60 actions each), think ${think} ms, rounds $rounds"
for ((round = 1; round <= rounds; ++round)); do
  for label in alone leases two; do measure "$label"; done
done
