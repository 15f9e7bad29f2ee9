# VIKTORY II online: the game server and its web client in one image.
#
#   docker build -t viktory .
#   docker run -d --name viktory -p 8080:8080 -v viktory-data:/data viktory
#
# Configuration through environment variables (see README.md): VIKTORY_PORT, VIKTORY_BIND,
# VIKTORY_DB, VIKTORY_WEB_ROOT, VIKTORY_LOG_LEVEL, VIKTORY_PUBLIC_URL. The database lives in the
# /data volume. deploy/docker-compose.yml runs this image with a named volume.

# ---- build stage: compile the server and verifier.wasm (no tests, no benchmarks) ---------------
FROM debian:bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      g++ make cmake pkg-config \
      libboost-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev libpq-dev \
      libssl-dev libcurl4-openssl-dev zlib1g-dev \
      clang-14 lld-14 wasi-libc libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libclang-rt-14-dev-wasm32 \
 && apt-get clean && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . .
# Warnings are errors in development and CI (scripts/test.sh), not when someone builds an image:
# a new compiler's new warning must not stop a deployment.
# After building, list the Debian packages that own the shared libraries the binary loads: the
# runtime stage installs exactly these (libsqlite3-0, libpq5, libspdlog1.10, libfmt9, ...).
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release \
      -DVIKTORY_BUILD_TESTS=OFF -DVIKTORY_BUILD_BENCHMARKS=OFF -DVIKTORY_WERROR=OFF \
 && cmake --build /build --target viktory-server verifier_wasm -j"$(nproc)" \
 && strip /build/server/viktory-server \
 && mkdir -p /out \
 && cp /build/server/viktory-server web-client/verify/verifier.wasm /out/ \
 && ldd /out/viktory-server | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' \
    | while read -r lib; do dpkg -S "*/$(basename "$lib")"; done \
    | cut -d: -f1 | sort -u > /out/runtime-packages \
 && echo "runtime packages:" $(cat /out/runtime-packages)

# ---- runtime stage ------------------------------------------------------------------------------
FROM debian:bookworm-slim
COPY --from=build /out/runtime-packages /tmp/runtime-packages
# sqlite3 (the CLI) is for deploy/backup.sh inside the container; ca-certificates for TLS peers;
# tzdata for the players' time zones in notifications (docs/notifications.md).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates sqlite3 tzdata $(cat /tmp/runtime-packages) \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /tmp/runtime-packages \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home \
      --shell /usr/sbin/nologin viktory \
 && mkdir -p /data \
 && chown viktory:viktory /data

COPY --from=build /out/viktory-server /usr/local/bin/viktory-server
COPY web-client/ /usr/share/viktory/web-client/
COPY --from=build /out/verifier.wasm /usr/share/viktory/web-client/verify/verifier.wasm
COPY deploy/backup.sh /usr/local/bin/viktory-backup
COPY deploy/restore.sh /usr/local/bin/viktory-restore
# Fail the build, not the first start, if a shared library is missing.
RUN if ldd /usr/local/bin/viktory-server | grep -F 'not found'; then exit 1; fi \
 && /usr/local/bin/viktory-server --help >/dev/null

ENV VIKTORY_BIND=0.0.0.0 \
    VIKTORY_PORT=8080 \
    VIKTORY_DB=/data/viktory.db \
    VIKTORY_WEB_ROOT=/usr/share/viktory/web-client \
    VIKTORY_LOG_LEVEL=info \
    VIKTORY_BACKUP_DIR=/data/backups

USER viktory
WORKDIR /data
VOLUME /data
EXPOSE 8080

# bash's /dev/tcp: no curl or wget needed in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${VIKTORY_PORT:-8080} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]

STOPSIGNAL SIGTERM
CMD ["/usr/local/bin/viktory-server"]
