#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build (and with --test, to test) the server.
#
#   scripts/install-deps.sh          # build dependencies
#   scripts/install-deps.sh --test   # plus what the tests need: clang with libFuzzer and the
#                                    # sanitizer runtimes (tests/fuzz), Chromium, Node.js, npm,
#                                    # PostgreSQL and libpq (the dialect tests), nginx and
#                                    # Caddy (the proxy tests of several servers)
#
# Only packages that are missing are installed, and `apt-get update` runs only when something is
# missing, so a second run is quick and needs no network. Works as root, or through sudo.
set -euo pipefail

with_test=0
for arg in "$@"; do
  case "$arg" in
    --test) with_test=1 ;;
    -h | --help)
      sed -n 2,9p "$0"
      exit 0
      ;;
    *)
      echo "install-deps: unknown argument '$arg' (expected --test)" >&2
      exit 2
      ;;
  esac
done

packages=(
  build-essential cmake pkg-config
  libboost-dev libboost-system-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev
  libpq-dev # libpq: --db postgresql://... (server/storage/pg_database.h); SQLite stays the default
  zlib1g-dev # gzip: the static files and large JSON answers (server/net/gzip.cpp)
  libssl-dev libcurl4-openssl-dev # OpenSSL: Web Push crypto, SHA-256 (fair play, token hashes); libcurl: HTTP and SMTP
  libgtest-dev libgmock-dev libbenchmark-dev
  sqlite3 # the CLI: deploy/backup.sh and its test use it
  tzdata # the time zones of deadlines in notifications (server/notify/time_zone.h)
  # The WebAssembly verifier (web-client/verify/verifier.wasm): clang for wasm32-wasi and its libraries
  clang-14 lld-14 wasi-libc libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libclang-rt-14-dev-wasm32
)
if [ "$with_test" = 1 ]; then
  # tests/fuzz: clang++, its libFuzzer/ASan/UBSan runtimes, llvm-symbolizer for the reports.
  packages+=(clang libclang-rt-14-dev llvm)
  # The ThreadSanitizer build of the server's tests: gcc's TSan runtime (build-essential brings it).
  packages+=(libtsan2)
  packages+=(chromium fonts-liberation)
  # tests/server/postgresql_*_test.cpp: the server programs for a throwaway cluster of the
  # tests' own (initdb in a temporary folder; the machine's service is not used).
  packages+=(postgresql)
  # tests/server/several_servers_test.cpp: the routing of deploy/nginx-several-servers.conf and
  # deploy/Caddyfile.several-servers in a real nginx and Caddy (started by the test on loopback;
  # the machine's services are not used).
  packages+=(nginx-light caddy)
  # Node.js may come from elsewhere (e.g. a newer upstream build); only add Debian's when absent,
  # so we never fight an existing installation.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

is_installed() {
  # `dpkg -s` alone also succeeds for removed-but-not-purged packages; check the state.
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=()
for pkg in "${packages[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: not root and sudo is not available; install them as root" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
apt_opts=(-o DPkg::Lock::Timeout=300)
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y -q \
  --no-install-recommends "${missing[@]}"

still_missing=()
for pkg in "${missing[@]}"; do
  is_installed "$pkg" || still_missing+=("$pkg")
done
if [ ${#still_missing[@]} -ne 0 ]; then
  echo "install-deps: failed to install: ${still_missing[*]}" >&2
  exit 1
fi
# Debian starts nginx's and Caddy's own services (a default page on port 80) when it installs
# them; the tests need only the programs. Stopped and disabled only when this run installed them.
if command -v systemctl >/dev/null 2>&1; then
  for proxy in nginx-light:nginx caddy:caddy; do
    if [[ " ${missing[*]} " == *" ${proxy%%:*} "* ]]; then
      "${as_root[@]}" systemctl disable --now "${proxy##*:}" >/dev/null 2>&1 || true
    fi
  done
fi
echo "install-deps: done"
