# syntax=docker/dockerfile:1
# Drawbridge: production image. tsx runs the TypeScript sources; the one bundle (the canvas editor) is built by
# npm ci's prepare step. Production dependencies only.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; the toolchain is only the fallback when none matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci's prepare step bundles the canvas editor (esbuild) into dist/editor: it needs the build script and the
# editor's client sources, nothing else of the app.
COPY scripts/build-editor.mjs ./scripts/
COPY src/adapters/web/editor ./src/adapters/web/editor
RUN npm ci --omit=dev && npm cache clean --force

FROM node:20-bookworm-slim
# Two malloc arenas instead of eight per core: memory freed by ended job threads goes back to the system (MEMORY_MB).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/dist ./dist
COPY package.json package-lock.json LICENSE ./
COPY bin ./bin
COPY src ./src
# The embedded SQLite default writes here; mount a volume on it, or set DATABASE_URL to PostgreSQL.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/drawbridge.js", "serve"]
