import { serve } from "@hono/node-server";
import { collectDefaultMetrics, Registry } from "prom-client";
import { ConfigError, loadConfig, secretsOf } from "./config.ts";
import { createHttpApp, type HealthCheck } from "./http/app.ts";
import { createLogger } from "./logger.ts";
import { createRedis, redisAnswers } from "./redis.ts";

/**
 * Composition root: config -> adapters -> parts. Nothing else in the code base starts a server,
 * a timer or a connection on import.
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const health: HealthCheck[] = [];
  const stops: Array<() => Promise<void> | void> = [];

  const redis = config.redis.url ? createRedis(config.redis.url) : undefined;
  if (redis) {
    redis.on("error", (err) => logger.warn({ err: err.message }, "redis error"));
    health.push({ name: "redis", check: () => redisAnswers(redis) });
    stops.push(async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }

  const app = createHttpApp({ registry, health });

  const server = serve(
    { fetch: app.fetch, hostname: config.http.host, port: config.http.port },
    (info) => {
      logger.info({ port: info.port, host: config.http.host }, "http server listening");
    },
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const stop of stops.reverse()) {
      await Promise.resolve(stop()).catch((err) =>
        logger.warn({ err: String(err) }, "stop failed"),
      );
    }
    logger.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

void main();
