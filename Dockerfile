# syntax=docker/dockerfile:1
# Production image: one process holding bot, HTTP server and workers (see README "Architecture"
# and "Deploying"). `scripts/image-check.ts` replays this file's steps on every CI run (no Docker
# daemon there): keep to WORKDIR, ENV, COPY, RUN, USER, EXPOSE, HEALTHCHECK and CMD, which it reads.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
# patches/ before the install: npm ci's postinstall (patch-package) applies them.
COPY package.json package-lock.json ./
COPY patches ./patches
# The npm cache stays in a build cache mount, out of the image.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY conversations ./conversations
COPY locales ./locales
# The development harness (sandbox, Bot API emulator, playground) ships too, but src/ only loads it
# through src/local-mode.ts when no provider is configured or PLAYGROUND=1: `docker run` with no
# configuration shows the playground, and a configured instance never loads it.
COPY dev ./dev
# Compiled once, here: the process runs on node alone. Under tsx its loader thread and the
# transpiled sources with their source maps cost 35-45 MB of RSS (README, Performance, figure 6).
COPY scripts/build.mjs ./scripts/build.mjs
RUN node scripts/build.mjs
# Code and dependencies stay owned by root: the app runs as `node` and can read them, not change
# them. It writes nothing but stdout.
USER node
EXPOSE 8080
# No curl in the slim image: Node's fetch. /healthz answers 503 when a dependency is down.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const h=process.env.HOST;const host=!h||h==='0.0.0.0'||h==='::'?'127.0.0.1':h.includes(':')?'['+h+']':h;fetch('http://'+host+':'+(process.env.PORT||8080)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node itself on the compiled product, not `npx` or `npm start` (they do not pass SIGTERM on):
# main.ts handles SIGTERM and SIGINT and stops within 8 s. As PID 1 node reaps no zombies, but it
# starts no child processes; `docker run --init` (compose: `init: true`) puts tini in front anyway.
CMD ["node", "dist/main.js"]
