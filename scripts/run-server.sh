#!/usr/bin/env bash
# Builds the server (Release, into build/) and starts it.
#
#   scripts/run-server.sh                     # http://localhost:8080, database ./viktory.db
#   scripts/run-server.sh --port 9000 --db /var/tmp/games.db
#
# Every argument is passed on to viktory-server; see README.md for the options and the
# VIKTORY_* environment variables. Defaults: port 8080, bind 127.0.0.1, database ./viktory.db,
# web client from ./web-client (paths relative to the repository root).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"

./scripts/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
build_dir=${VIKTORY_BUILD_DIR:-build} # override only to keep several build trees side by side
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
# Only the server and the browser's record verifier (web-client/verify/verifier.wasm): tests and
# benchmarks are built by scripts/test.sh in the same tree.
cmake --build "$build_dir" --target viktory-server -j"$jobs"
cmake --build "$build_dir" --target verifier_wasm -j"$jobs" ||
  echo "run-server: verifier.wasm not built; the browser cannot check game records (docs/fair-play.md)" >&2

echo "run-server: starting $build_dir/server/viktory-server $*"
exec "$build_dir/server/viktory-server" "$@"
