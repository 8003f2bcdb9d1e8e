# Toko Pegawai PLN: one image, configured by environment variables (README.md → Configuration).
#   docker build -t employee-store .
#   docker run -p 3000:3000 -v store-data:/data -e PAYMENT_GATEWAY=midtrans -e MIDTRANS_SERVER_KEY=… -e DATA_ENCRYPTION_KEY=… employee-store
#   docker run -p 3000:3000 -v store-data:/data -e PAYMENT_GATEWAY=sandbox -e DEMO_DATA=1 -e DATA_ENCRYPTION_KEY="$(openssl rand -base64 32)" employee-store   (a demo)
# Production names its payment gateway and sets DATA_ENCRYPTION_KEY (the NIK and photos at rest,
# decision 0055): without either the server stops at start. Keep the key: a new one opens no old data.
# Stages: deps (all dependencies) → build (react-router build, which also writes the prepared
# first-start database into build/server: decision 0012) → prod-deps (runtime dependencies
# only) → runtime (non-root, the build, the migrations, the ops CLI).

FROM node:24-bookworm-slim AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci

FROM deps AS build
COPY react-router.config.ts vite.config.ts tsconfig.json ./
COPY app ./app
RUN npm run build

FROM base AS prod-deps
COPY package.json package-lock.json ./
# tsx is a runtime dependency: the ops CLI (npm run ops) runs TypeScript sources.
RUN npm ci --omit=dev && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json server.js tsconfig.json ./
# The server applies ./app/.server/db/migrations (relative to the working directory) at start; the
# rest of app/ is the source the ops CLI imports.
COPY app ./app
# The ops CLI: `docker exec store npm run ops -- <command>` while the server runs (with PGlite it
# talks to the server over the 0600 socket /data/ops.sock, as the same `node` user; README → Operations).
COPY scripts/ops.ts ./scripts/ops.ts
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness: /healthz (200 while the database answers). Readiness, for a load balancer or a Kubernetes
# readinessProbe: /readyz (200 once migrated and loaded; 503 from SIGTERM on, while the server drains
# for SHUTDOWN_DRAIN_MS, default 5 s, before it closes its listener: README → Operating).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The flags and the MALLOC_ settings are scripts/lib.mjs SERVER_NODE_FLAGS and SERVER_ENV (decisions 0012, 0040, 0049): a 512 MB limit is enough.
ENV MALLOC_ARENA_MAX=1 MALLOC_TRIM_THRESHOLD_=131072 MALLOC_MMAP_THRESHOLD_=131072
# docker stop waits 10 s by default: the 5 s drain plus the requests in flight fit.
STOPSIGNAL SIGTERM
CMD ["node", "--max-old-space-size=128", "--optimize-for-size", "--liftoff-only", "server.js"]
