import { hostname } from "node:os";
import { collectDefaultMetrics, Registry } from "prom-client";
import { type AnyCategoryModule, CATEGORY_MODULES } from "../categories/index.ts";
import type { Config } from "../config/index.ts";
import { secretsOf } from "../config/index.ts";
import type { HealthCheck } from "../http/app.ts";
import { createLogger, type Logger } from "../logger.ts";
import { createMoneyPathMetrics } from "../orders/index.ts";

/** What every part of one process shares: logger, clock, metrics, health checks, stop hooks. */
export interface Base {
  config: Config;
  logger: Logger;
  now: () => number;
  /** Unique per process (the notifier's consumer name). */
  instance: string;
  registry: Registry;
  metrics: ReturnType<typeof createMoneyPathMetrics>;
  /** Liveness (/healthz): the process is of use (Redis answers). */
  health: HealthCheck[];
  /** Readiness (/readyz) beyond liveness's critical checks: the bot started, the aggregator answers. */
  readiness: HealthCheck[];
  /** The webhooks' paths, added where each is mounted: their POSTs skip the browser headers. */
  webhookPosts: Set<string>;
  stops: Stops;
  /** The categories the system offers: the registry's, or a caller's own list (a test's extra). */
  categories: readonly AnyCategoryModule[];
}

export function createBase(opts: {
  config: Config;
  logger?: Logger | undefined;
  now?: (() => number) | undefined;
  instanceName?: string | undefined;
  categories?: readonly AnyCategoryModule[] | undefined;
}): Base {
  const { config } = opts;
  const logger =
    opts.logger ?? createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    config,
    logger,
    now: opts.now ?? Date.now,
    instance: opts.instanceName ?? `${hostname()}-${process.pid}`,
    registry,
    metrics: createMoneyPathMetrics(registry),
    health: [],
    readiness: [],
    webhookPosts: new Set(),
    stops: createStops(logger),
    categories: opts.categories ?? CATEGORY_MODULES,
  };
}

/** Things to close when the process stops, closed in the reverse order of their opening. */
type Stops = ReturnType<typeof createStops>;

function createStops(logger: Logger) {
  const list: Array<() => Promise<void> | void> = [];
  return {
    add(stop: () => Promise<void> | void) {
      list.push(stop);
    },
    async runAll() {
      for (const stop of list.splice(0).reverse()) {
        await Promise.resolve()
          .then(stop)
          .catch((err) => logger.warn({ err: String(err) }, "stop failed"));
      }
    },
  };
}
