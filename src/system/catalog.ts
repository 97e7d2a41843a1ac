import { createCatalog } from "../catalog/index.ts";
import {
  createCatalogSync,
  memoryListingCache,
  type ProviderClient,
  redisListingCache,
} from "../provider/index.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import type { Base } from "./base.ts";

/**
 * The catalogue (rules from the settings) and what keeps its offer in step with the provider's
 * operator lookups (src/provider/catalog-sync.ts), cached in Redis when there is one. Started by
 * startSystem once the server answers (the embedded sandbox is served by it).
 */
export function wireCatalog(base: Base, provider: ProviderClient, redis: RedisClient | undefined) {
  const { config, logger, now } = base;
  const catalog = createCatalog(config.catalog);
  const cache = redis
    ? redisListingCache(redis, keyspace(config.redis.prefix).catalogListing)
    : memoryListingCache();
  const sync = createCatalogSync({
    catalog,
    provider,
    cache,
    logger,
    now,
    refreshMs: config.catalogRefreshMs,
  });
  // Also stopped by startSystem's own stop; here for a start that fails after the sync began.
  base.stops.add(() => sync.stop());
  return { catalog, catalogSync: sync };
}
