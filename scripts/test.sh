#!/usr/bin/env bash
# Builds everything (Release, tests on, into build/ or $VIKTORY_BUILD_DIR) and runs every test:
#   1. the CTest suite (engine, protocol, server, notify, deploy tests; the PostgreSQL dialect's
#      tests on a throwaway cluster of their own);
#   2. the server's unit tests (the concurrency tests among them) and its integration tests again,
#      built with ThreadSanitizer into <build>-tsan/ (server and tests alike): any report fails;
#   3. the fuzz harnesses of tests/fuzz, built with clang and the sanitizers into <build>-fuzz/:
#      each runs over its corpus, then fuzzes for $VIKTORY_FUZZ_SECONDS seconds (default 40);
#   4. the browser tests in tests/browser (node --test, headless Chromium through playwright-core).
#
#   scripts/test.sh
#
# Exits non-zero if any step fails. The last line is a plain summary: "summary: N passed, M failed".
set -uo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root" || exit 1

jobs=$(nproc 2>/dev/null || echo 2)
build_dir=${VIKTORY_BUILD_DIR:-build} # override only to keep several build trees side by side
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/viktory-test.XXXXXX")
trap 'rm -rf "$log_dir"' EXIT

passed=0
failed=0
failed_steps=()

# Each step's header says when it began, and the summary how long the whole run took, so that a
# CI log shows where its time went (CI allows 90 minutes on a 2-core machine).
started=$(date +%s)
step() { printf '\n==== %s [%s, %d min in] ====\n' "$*" "$(date -u +%H:%M:%S)" $((($(date +%s) - started) / 60)); }
fail_step() {
  failed_steps+=("$1")
  echo "test.sh: FAILED: $1" >&2
}
finish() {
  echo
  if [ ${#failed_steps[@]} -ne 0 ]; then
    echo "test.sh: failed steps: ${failed_steps[*]}"
  fi
  echo "test.sh: took $((($(date +%s) - started) / 60)) min"
  echo "summary: $passed passed, $failed failed"
  if [ ${#failed_steps[@]} -ne 0 ] || [ "$failed" -ne 0 ]; then exit 1; fi
  exit 0
}

step "installing dependencies"
if ! ./scripts/install-deps.sh --test; then
  fail_step "install-deps"
  failed=$((failed + 1))
  finish
fi

# install-deps.sh --test brought PostgreSQL and libpq: their tests must be built and must run
# (tests/server/postgresql_dialect_test.cpp skips only where this is not set).
export VIKTORY_REQUIRE_POSTGRESQL=1
# ... and nginx and Caddy, for the proxies of several servers (tests/server/several_servers_test.cpp).
export VIKTORY_REQUIRE_PROXIES=1

step "configuring and building ($build_dir/, Release, tests on)"
if ! cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DVIKTORY_BUILD_TESTS=ON; then
  fail_step "configure"
  failed=$((failed + 1))
  finish
fi
if ! cmake --build "$build_dir" -j"$jobs"; then
  fail_step "build"
  failed=$((failed + 1))
  finish
fi

# The notification tests deliver Web Push messages to a local push service from npm
# (tests/notify/push-service); install it before CTest runs them.
step "local push service for the notification tests (tests/notify/push-service)"
if ! (cd tests/notify/push-service && npm ci --no-audit --no-fund); then
  fail_step "npm ci (tests/notify/push-service)"
  failed=$((failed + 1))
fi

# The rating test's fixture is checked against the openskill package from npm
# (tests/rating-reference); install it before CTest runs that check.
step "rating reference (tests/rating-reference)"
if ! (cd tests/rating-reference && npm ci --no-audit --no-fund); then
  fail_step "npm ci (tests/rating-reference)"
  failed=$((failed + 1))
fi

# Runs CTest in a build tree and adds its counts to the summary: run_ctest NAME DIR [ARGS...]
run_ctest() {
  local name=$1 dir=$2
  shift 2
  local log="$log_dir/$name.log"
  ctest --test-dir "$dir" --output-on-failure -j2 "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  # "100% tests passed, 0 tests failed out of 42"
  local line
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  if [ -n "$line" ]; then
    local failures total
    failures=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
    passed=$((passed + total - failures))
    failed=$((failed + failures))
    if [ "$total" -eq 0 ]; then fail_step "$name (no tests found)"; fi
  elif grep -q 'No tests were found' "$log"; then
    fail_step "$name (no tests found)"
  fi
  if [ "$status" -ne 0 ]; then
    fail_step "$name"
    [ -n "$line" ] || failed=$((failed + 1))
  fi
}

step "CTest"
run_ctest ctest "$build_dir"

# ThreadSanitizer: the server and its tests built with -fsanitize=thread (gcc, RelWithDebInfo),
# the server's unit tests (label "server") and integration tests (label "integration", whose
# servers are the TSan build too). Every report of any process goes to a file of its own
# (log_path) and stops that process (halt_on_error, exit code 66); any report fails the step.
tsan_dir="${build_dir%/}-tsan"
step "ThreadSanitizer ($tsan_dir/): the server's unit and integration tests"
if ! cmake -S . -B "$tsan_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVIKTORY_TSAN=ON \
  -DVIKTORY_BUILD_TESTS=ON -DVIKTORY_BUILD_BENCHMARKS=OFF; then
  fail_step "tsan configure"
  failed=$((failed + 1))
elif ! cmake --build "$tsan_dir" -j"$jobs" --target viktory-server viktory-verify \
  viktory_server_unit_tests viktory_server_integration_tests; then
  fail_step "tsan build"
  failed=$((failed + 1))
else
  tsan_reports="$log_dir/tsan"
  mkdir -p "$tsan_reports"
  TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 log_path=$tsan_reports/report" \
    run_ctest tsan "$tsan_dir" -L '^(server|integration)$'
  tsan_count=$(find "$tsan_reports" -type f | wc -l)
  if [ "$tsan_count" -ne 0 ]; then
    for report in "$tsan_reports"/*; do
      echo "---- $report"
      head -n 80 "$report"
    done
    fail_step "ThreadSanitizer: $tsan_count report(s)"
    failed=$((failed + tsan_count))
  fi
fi

# The fuzz harnesses need clang (libFuzzer and the sanitizers): a build tree of their own.
fuzz_dir="${build_dir%/}-fuzz"
step "fuzz harnesses ($fuzz_dir/, clang, ${VIKTORY_FUZZ_SECONDS:-40} s of fuzzing each)"
if ! cmake -S . -B "$fuzz_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DVIKTORY_FUZZ=ON -DVIKTORY_BUILD_TESTS=OFF -DVIKTORY_BUILD_BENCHMARKS=OFF \
  -DVIKTORY_FUZZ_SECONDS="${VIKTORY_FUZZ_SECONDS:-40}"; then
  fail_step "fuzz configure"
  failed=$((failed + 1))
elif ! cmake --build "$fuzz_dir" -j"$jobs" --target fuzzers; then
  fail_step "fuzz build"
  failed=$((failed + 1))
else
  run_ctest fuzz "$fuzz_dir" -L fuzz
fi

step "browser tests (tests/browser)"
if [ ! -f tests/browser/package.json ]; then
  echo "test.sh: tests/browser/package.json does not exist; skipping the browser tests"
else
  # The browser tests start the server and Chromium themselves; tell them where both are.
  VIKTORY_SERVER_BIN="$(cd "$build_dir" && pwd)/server/viktory-server"
  export VIKTORY_SERVER_BIN
  export VIKTORY_WEB_ROOT="$repo_root/web-client"
  CHROMIUM_BIN="${CHROMIUM_BIN:-$(command -v chromium || true)}"
  export CHROMIUM_BIN
  browser_log="$log_dir/browser.log"
  (
    cd tests/browser || exit 1
    if [ -f package-lock.json ]; then
      npm ci --no-audit --no-fund
    else
      npm install --no-audit --no-fund
    fi || exit 1
    node --test
  ) 2>&1 | tee "$browser_log"
  browser_status=${PIPESTATUS[0]}
  # Node's test runner ends with "# pass N" / "# fail N" (tap) or "ℹ pass N" / "ℹ fail N" (spec).
  node_pass=$(grep -E '^(#|ℹ) pass [0-9]+' "$browser_log" | tail -1 | grep -oE '[0-9]+$' || true)
  node_fail=$(grep -E '^(#|ℹ) fail [0-9]+' "$browser_log" | tail -1 | grep -oE '[0-9]+$' || true)
  if [ -n "$node_pass" ]; then
    passed=$((passed + node_pass))
    failed=$((failed + ${node_fail:-0}))
    if [ "$node_pass" -eq 0 ] && [ "${node_fail:-0}" -eq 0 ]; then
      fail_step "browser tests (no tests found)"
    fi
  fi
  if [ "$browser_status" -ne 0 ]; then
    fail_step "browser tests"
    [ -n "$node_pass" ] || failed=$((failed + 1))
  fi
fi

finish
