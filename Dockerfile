# Production image: one process holding bot, HTTP server and workers (see README "Architecture").
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY conversations ./conversations
COPY locales ./locales
EXPOSE 8080
USER node
CMD ["npx", "tsx", "src/main.ts"]
