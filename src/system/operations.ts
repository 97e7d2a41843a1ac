import type { HealthCheck } from "../http/app.ts";
import { registerOperationsMetrics } from "../http/operations.ts";
import type { ProviderWatch } from "../http/provider-watch.ts";
import { account } from "../ledger/index.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import type { Base } from "./base.ts";
import type { Stores } from "./stores.ts";

/**
 * The operator's view of one process: the gauges of src/http/operations.ts on the process's
 * registry, and readiness's checks beyond liveness (the bot started; the aggregator answered
 * lately, reported only). `started()` is called once the bot takes updates.
 */
export function watchOperations(
  base: Base,
  parts: {
    redis: RedisClient | undefined;
    stores: Stores;
    /** The aggregator's last word on the wallet (system/money-path.ts). */
    provider: ProviderWatch;
    gateway: boolean;
  },
): { started: () => void } {
  const { stores, redis, provider } = parts;
  let botStarted = false;
  const readiness: HealthCheck[] = [
    { name: "bot", check: async () => botStarted },
    // Reported, not deciding: the aggregator is shared by every instance, so its outage would take
    // them all out of the balancer at once, with the webhooks, /balance and /status they still serve.
    { name: "provider", check: () => provider.answering(), critical: false },
  ];
  base.readiness.push(...readiness);
  const k = keyspace(base.config.redis.prefix);
  registerOperationsMetrics(base.registry, {
    now: base.now,
    booksFloatPaisa: async () => -(await stores.ledger.balance(account.merchant.float)).postedPaisa,
    heldPaisa: async () => (await stores.ledger.balance(account.merchant.sales)).creditsPending,
    orders: stores.store,
    notificationsQueued: () => stores.queue.backlog(),
    ...(redis
      ? {
          // Stream ids start with the writing Redis's clock in ms: the oldest entry's age.
          oldestNotificationAt: async () => {
            const [first] = await redis.xrange(k.outbox, "-", "+", "COUNT", 1);
            return first ? Number(first[0].split("-")[0]) : null;
          },
          alarm: async (name) => (await redis.get(k.crossing(name))) === "below",
        }
      : {}),
    ...(parts.gateway ? { topUps: stores.topUps } : {}),
    provider,
    lowFloatAlertPaisa: base.config.books.lowFloatAlertPaisa,
  });
  return {
    started: () => {
      botStarted = true;
    },
  };
}
