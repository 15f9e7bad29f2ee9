#!/usr/bin/env bash
# Runs one libFuzzer harness for CTest (tests/fuzz/CMakeLists.txt):
#
#   run_fuzzer.sh corpus HARNESS CORPUS_DIR DICT ARTIFACT_DIR 0
#       every input of CORPUS_DIR once (nothing is written);
#   run_fuzzer.sh fuzz HARNESS CORPUS_DIR DICT ARTIFACT_DIR SECONDS
#       fuzzing from CORPUS_DIR for SECONDS; new inputs go to a scratch folder that is removed
#       afterwards, crashes to ARTIFACT_DIR (crash-<sha1>, replay: HARNESS ARTIFACT).
#
# Exits non-zero when the harness finds something.
set -euo pipefail

mode=$1 harness=$2 corpus=$3 dict=$4 artifacts=$5 seconds=$6
mkdir -p "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

case "$mode" in
  corpus)
    shopt -s nullglob
    inputs=("$corpus"/*)
    if [ ${#inputs[@]} -eq 0 ]; then
      echo "run_fuzzer: $corpus is empty" >&2
      exit 1
    fi
    exec "$harness" -artifact_prefix="$artifacts/" "${inputs[@]}"
    ;;
  fuzz)
    # libFuzzer reads -max_total_time=0 as "no limit".
    if ! [ "$seconds" -ge 1 ] 2>/dev/null; then
      echo "run_fuzzer: the fuzzing time must be at least 1 second, got '$seconds'" >&2
      exit 2
    fi
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/viktory-fuzz.XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
    # -timeout: one input taking longer than this is a finding (a hang);
    # -rss_limit_mb: so is a process using more memory than this.
    "$harness" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -dict="$dict" \
      -artifact_prefix="$artifacts/" -print_final_stats=1 "$scratch" "$corpus"
    ;;
  *)
    echo "run_fuzzer: unknown mode $mode" >&2
    exit 2
    ;;
esac
