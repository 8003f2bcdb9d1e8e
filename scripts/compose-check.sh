#!/usr/bin/env bash
# Starts the production shape (compose.yaml) with podman-compose and checks it (issue 37): the proxy
# becomes healthy, a buyer buys through it with the JSON API (scripts/api-buyer.mjs), one store
# instance restarts while requests keep going through the proxy (none may fail: the proxy's /readyz
# check takes a draining instance out of the rotation), one backup is taken by the backup service's
# own command, then everything is removed (podman-compose down -v). Not part of CI.
#
# No registry of images is reachable on the machine this was written on: the images compose.yaml
# names (node:24-bookworm-slim under the Dockerfile, postgres:15, haproxy:2.6) are stood in for by
# local ones, built here from a Debian bookworm minbase root (debootstrap) the way
# ../shared/tools/container-check.sh builds its node stand-in, and kept in podman's store. Where the
# real images can be pulled, nothing is built: an existing image is used as it is.
#
# Usage (as root, from the project's root; the build needs the project's Node 24 on PATH for the buyer):
#   scripts/compose-check.sh            KEEP=1 leaves the stack running afterwards
# Environment: PROXY_PORT (default 8937), RESTART_SECONDS (requests during the restart, default 20).
set -euo pipefail
cd "$(dirname "$0")/.."

export PROXY_PORT=${PROXY_PORT:-8937}
RESTART_SECONDS=${RESTART_SECONDS:-20}
PROJECT=storecheck
NODE_BASE=docker.io/library/node:24-bookworm-slim
PG_IMAGE=docker.io/library/postgres:15
HAPROXY_IMAGE=docker.io/library/haproxy:2.6
MINBASE=localhost/bookworm-minbase:standin
work=$(mktemp -d /tmp/compose-check.XXXX)
CONTAINERS_CONF=$work/containers.conf
cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
export CONTAINERS_CONF

need() { command -v "$1" >/dev/null 2>&1; }
if ! need podman || ! need podman-compose || ! need runc || ! need debootstrap; then
  echo "installing podman, podman-compose, runc, debootstrap (Debian packages)"
  apt-get update -qq >/dev/null && apt-get install -y -qq podman podman-compose runc debootstrap >/dev/null
fi

# The check's settings: the sandbox gateway and the demo catalogue, fresh secrets (never a real key).
secret() { openssl rand -base64 32; }
cat >"$work/.env" <<ENV
POSTGRES_PASSWORD=$(openssl rand -hex 16)
DATA_ENCRYPTION_KEY=$(secret)
SESSION_SECRET=$(secret)
PAYMENT_WEBHOOK_SECRET=$(secret)
PAYMENT_GATEWAY=sandbox
# The sandbox gateway calls its webhook at APP_URL from inside a store: the proxy by its compose name.
APP_URL=http://proxy:8080
DEMO_DATA=1
OUTBOX_KEY=$(openssl rand -hex 16)
PROXY_PORT=$PROXY_PORT
ENV
set -a; . "$work/.env"; set +a
# podman-compose reads ./.env over the environment: the check runs with its own settings only.
[ ! -e .env ] || { echo "FAIL: move ./.env aside first: the check runs with settings of its own (sandbox gateway, demo data)"; exit 1; }
compose() { podman-compose -p "$PROJECT" -f compose.yaml "$@"; }
cleanup() {
  if [ -z "${KEEP:-}" ]; then compose down -v >"$work/down.log" 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

standin_minbase() {
  podman image exists "$MINBASE" && return
  echo "building a Debian bookworm minbase root for the stand-ins (once; a few minutes)"
  local root; root=$(mktemp -d /tmp/standin-root.XXXX)
  debootstrap --variant=minbase bookworm "$root" >/dev/null
  mkdir -p "$root/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
  tar -C "$root" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$MINBASE" >/dev/null
  rm -rf "$root"
}

standin() { # <image> <Containerfile text>: builds the stand-in unless the image is there
  podman image exists "$1" && return
  standin_minbase
  echo "building a local stand-in for $1 (once)"
  local dir; dir=$(mktemp -d "$work/standin.XXXX")
  printf '%s\n' "$2" >"$dir/Containerfile"
  [ -z "${3:-}" ] || cp -r "$3"/. "$dir/"
  podman build --pull=never --network=host -t "$1" "$dir" >"$work/standin.log" 2>&1 || { tail -20 "$work/standin.log"; exit 1; }
}

# node:24-bookworm-slim: Node 24 and npm 11 from the npm registry, a `node` user (uid 1000).
if ! podman image exists "$NODE_BASE"; then
  nodedir=$(mktemp -d "$work/node.XXXX")
  (cd "$nodedir" && npm init -y >/dev/null && npm install --no-audit --no-fund node@24 >/dev/null 2>&1 && npm pack npm@11 >/dev/null 2>&1)
  mkdir -p "$nodedir/ctx" && cp "$nodedir/node_modules/node/bin/node" "$nodedir/ctx/node" && cp "$nodedir"/npm-11*.tgz "$nodedir/ctx/npm.tgz"
  standin "$NODE_BASE" "FROM $MINBASE
COPY node /usr/local/bin/node
COPY npm.tgz /tmp/npm.tgz
RUN mkdir -p /usr/local/lib/node_modules && tar -C /usr/local/lib/node_modules -xzf /tmp/npm.tgz && rm /tmp/npm.tgz \\
 && mv /usr/local/lib/node_modules/package /usr/local/lib/node_modules/npm \\
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && useradd -m -u 1000 node
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD [\"node\"]" "$nodedir/ctx"
fi

# postgres:15: Debian's postgresql-15 with the official image's start-up contract (POSTGRES_USER,
# POSTGRES_PASSWORD, POSTGRES_DB; data in /var/lib/postgresql/data; pg_isready, pg_dump on PATH).
mkdir -p "$work/pgctx"
cat >"$work/pgctx/entrypoint.sh" <<'SH'
#!/bin/sh
set -e
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" && chown -R postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  pw=$(mktemp) && printf '%s\n' "$POSTGRES_PASSWORD" >"$pw"
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="$pw" --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm -f "$pw"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  [ "${POSTGRES_DB:-postgres}" = postgres ] || createdb -U "${POSTGRES_USER:-postgres}" "$POSTGRES_DB"
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$@"
SH
chmod +x "$work/pgctx/entrypoint.sh"
standin "$PG_IMAGE" "FROM $MINBASE
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null && rm -rf /var/lib/apt/lists/* \\
 && mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
ENTRYPOINT [\"docker-entrypoint.sh\"]
STOPSIGNAL SIGINT
CMD [\"postgres\", \"-c\", \"listen_addresses=*\"]" "$work/pgctx"

# haproxy:2.6: Debian's haproxy 2.6 reading /usr/local/etc/haproxy/haproxy.cfg like the official image.
standin "$HAPROXY_IMAGE" "FROM $MINBASE
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends haproxy >/dev/null && rm -rf /var/lib/apt/lists/*
USER haproxy
STOPSIGNAL SIGUSR1
CMD [\"haproxy\", \"-W\", \"-db\", \"-f\", \"/usr/local/etc/haproxy/haproxy.cfg\"]"

SECONDS=0
echo "building the store's image"
# The image compose.yaml's `build: .` makes, built here with the host's network for `npm ci` and in
# Docker's format, which keeps the Dockerfile's HEALTHCHECK (OCI's drops it).
podman build --format docker --pull=never --network=host -t localhost/employee-store:compose . >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log"; echo "FAIL: image build"; exit 1; }
build_s=$SECONDS

fail() { echo "FAIL: $1"; compose ps || true; compose logs --tail 5 2>&1 | tail -40 || true; exit 1; }
SECONDS=0
# PostgreSQL healthy first: podman-compose 1.0 starts in depends_on order but does not wait for
# `condition: service_healthy` (docker compose does).
compose up -d db >"$work/up.log" 2>&1 || { cat "$work/up.log"; fail "podman-compose up db"; }
for _ in $(seq 1 60); do
  podman healthcheck run "${PROJECT}_db_1" >/dev/null 2>&1 && break
  sleep 1
done
compose up -d >>"$work/up.log" 2>&1 || { cat "$work/up.log"; fail "podman-compose up"; }
base=http://127.0.0.1:$PROXY_PORT
code=000
for _ in $(seq 1 180); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz" || true)
  [ "$code" = 200 ] && break
  sleep 1
done
[ "$code" = 200 ] || fail "the proxy's /readyz: $code after 180 s"
up_s=$SECONDS
# Both instances in the rotation before the buyer and the restart.
for _ in $(seq 1 60); do
  ready=0
  for s in store1 store2; do
    podman exec "${PROJECT}_${s}_1" node -e 'fetch("http://127.0.0.1:3000/readyz").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' 2>/dev/null && ready=$((ready + 1))
  done
  [ "$ready" = 2 ] && break
  sleep 1
done
[ "$ready" = 2 ] || fail "both store instances ready"

# The buyer (scripts/api-buyer.mjs) through the proxy, reading the activation e-mail from the demo
# outbox page (OUTBOX_KEY); its operator steps (the ops CLI) go straight to the stack's PostgreSQL,
# as `npm run ops` does with DATABASE_URL, at the db container's address on the compose network.
echo "buying through the proxy with the JSON API"
db_ip=$(podman inspect "${PROJECT}_db_1" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}')
buyer_log=$work/buyer.log
API_BASE_URL=$base OUTBOX_KEY=$OUTBOX_KEY DATA_DIR="$work/ops-data" \
  DATABASE_URL="postgres://toko:$POSTGRES_PASSWORD@$db_ip:5432/toko" node scripts/api-buyer.mjs >"$buyer_log" 2>&1 \
  || { tail -20 "$buyer_log"; fail "the API buyer"; }
buyer=$(tail -1 "$buyer_log")

# A restart of store1 while requests keep going through the proxy: every one must succeed.
echo "restarting store1 while requests go through the proxy (${RESTART_SECONDS}s)"
load=$work/load.mjs
cat >"$load" <<'JS'
const [base, seconds] = [process.argv[2], Number(process.argv[3])];
const until = Date.now() + seconds * 1000;
let requests = 0, failed = 0;
const codes = {};
async function worker() {
  while (Date.now() < until) {
    requests++;
    try {
      const response = await fetch(`${base}/home`, { redirect: "manual" });
      await response.arrayBuffer();
      if (!response.ok) { failed++; codes[response.status] = (codes[response.status] ?? 0) + 1; }
    } catch (error) { failed++; codes[error.cause?.code ?? "error"] = (codes[error.cause?.code ?? "error"] ?? 0) + 1; }
  }
}
await Promise.all(Array.from({ length: 4 }, worker));
console.log(JSON.stringify({ requests, failed, codes }));
JS
node "$load" "$base" "$RESTART_SECONDS" >"$work/load.out" &
load_pid=$!
sleep 3
SECONDS=0
podman restart -t 15 "${PROJECT}_store1_1" >/dev/null
restart_s=$SECONDS
wait "$load_pid" || true
restart=$(cat "$work/load.out")
restart_failed=$(node -e 'console.log(JSON.parse(process.argv[1]).failed)' "$restart")
restart_requests=$(node -e 'console.log(JSON.parse(process.argv[1]).requests)' "$restart")

# One backup by the backup service's own command (BACKUP_ONCE=1), then its file in the volume.
echo "taking one backup"
compose run --rm -e BACKUP_ONCE=1 backup >"$work/backup.log" 2>&1 || { cat "$work/backup.log"; fail "the backup"; }
backup_line=$(grep '^backup ' "$work/backup.log" | tail -1)
backup_file=$(echo "$backup_line" | awk '{print $2}')
listed=$(podman run --rm -v "${PROJECT}_backups:/backups" "$PG_IMAGE" pg_restore --list "$backup_file" | grep -c 'TABLE DATA' || true)

echo "build ${build_s}s; up to a ready proxy ${up_s}s"
echo "buyer: $buyer"
echo "restart of store1: ${restart_s}s; through the proxy meanwhile: $restart"
echo "$backup_line; pg_restore --list: $listed tables with data"
ok=1
echo "$buyer" | grep -q '"ok":true' || { echo "FAIL: the buyer"; ok=0; }
[ "$restart_failed" = 0 ] && [ "$restart_requests" -gt 0 ] || { echo "FAIL: requests failed during the restart"; ok=0; }
[ "$listed" -gt 0 ] || { echo "FAIL: the backup lists no table data"; ok=0; }
[ "$ok" = 1 ] && echo "compose-check: OK" || exit 1
