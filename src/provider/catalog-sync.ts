import {
  type Catalog,
  type Listed,
  type ProviderListing,
  providerListingSchema,
  type RegionListing,
  unknownListed,
} from "../catalog/index.ts";
import { REGIONS, type Region } from "../catalog/operators.ts";
import type { RedisClient } from "../redis/connection.ts";
import { storedJson } from "../stored-json.ts";
import type { ProviderClient } from "./client.ts";

/**
 * Keeps the catalogue's offer in step with the provider: the operator and operator-type lookups of
 * both regions at start and then every `refreshMs`, the result cached (Redis, or memory in local
 * mode) and handed to `catalog.setListing`. A lookup that fails never empties the menu: the region
 * keeps what it had (at start: the cached copy, else the catalogue's rules alone), and it is logged.
 */

export interface ListingCache {
  load(): Promise<ProviderListing | null>;
  save(listing: ProviderListing): Promise<void>;
}

export function memoryListingCache(): ListingCache {
  let kept: ProviderListing | null = null;
  return {
    load: async () => kept,
    save: async (listing) => {
      kept = listing;
    },
  };
}

/** The last listing as JSON under one key (no expiry: it is the fallback when the provider is down). */
export function redisListingCache(redis: RedisClient, key: string): ListingCache {
  return {
    async load() {
      return storedJson(providerListingSchema, await redis.get(key));
    },
    async save(listing) {
      await redis.set(key, JSON.stringify(listing));
    },
  };
}

interface CatalogSyncLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface CatalogSyncOptions {
  catalog: Catalog;
  provider: Pick<ProviderClient, "operators" | "operatorTypes">;
  cache: ListingCache;
  logger: CatalogSyncLogger;
  now: () => number;
  /** Between two refreshes; 0: only at start. */
  refreshMs: number;
  /** How long the start waits for the first lookups before going on with what it has. */
  startWaitMs?: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createCatalogSync(opts: CatalogSyncOptions) {
  const { catalog, provider, cache, logger } = opts;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<boolean> | null = null;
  let stopped = false;

  /** One region's lookups; null when its operator lookup fails or lists nothing. */
  async function fetchRegion(
    region: Region,
    previous: RegionListing | undefined,
  ): Promise<RegionListing | null> {
    let operators: Listed[];
    try {
      operators = await provider.operators(region);
    } catch (err) {
      logger.warn({ region, err: errorText(err) }, "catalogue: operator lookup failed");
      return null;
    }
    // An empty list is far likelier a provider fault than every operator withdrawn at once.
    if (operators.length === 0) {
      logger.warn({ region }, "catalogue: operator lookup listed nothing; ignored");
      return null;
    }
    let operatorTypes: Listed[] | null;
    try {
      const types = await provider.operatorTypes(region);
      operatorTypes = types.length > 0 ? types : (previous?.operatorTypes ?? null);
    } catch (err) {
      logger.warn({ region, err: errorText(err) }, "catalogue: operator-type lookup failed");
      operatorTypes = previous?.operatorTypes ?? null;
    }
    return { operators, operatorTypes };
  }

  function apply(listing: ProviderListing): void {
    const before = new Set(
      catalog.operators.filter((o) => catalog.isOffered(o.id)).map((o) => o.id),
    );
    catalog.setListing(listing);
    const after = catalog.operators.filter((o) => catalog.isOffered(o.id)).map((o) => o.id);
    const withdrawn = [...before].filter((id) => !after.includes(id));
    const added = after.filter((id) => !before.has(id));
    if (withdrawn.length > 0 || added.length > 0) {
      logger.info({ withdrawn, added, offered: after.length }, "catalogue: offer changed");
    }
  }

  /** The lookups once; true when at least one region was listed (then applied and cached). */
  async function refreshOnce(): Promise<boolean> {
    const current = catalog.listing();
    const regions: ProviderListing["regions"] = {};
    let listedAny = false;
    for (const region of REGIONS) {
      const got = await fetchRegion(region, current?.regions[region]);
      if (got) {
        regions[region] = got;
        listedAny = true;
      } else if (current?.regions[region]) {
        // Failed this time: the region keeps its last listing rather than falling back to the rules.
        regions[region] = current.regions[region];
      }
    }
    // Stopped meanwhile (shutdown): nothing is applied or written any more.
    if (!listedAny || stopped) return false;
    const listing: ProviderListing = { fetchedAtMs: opts.now(), regions };
    apply(listing);
    const unknown = unknownListed(catalog.operators, listing);
    if (unknown.length > 0) {
      logger.info(
        { unknown: unknown.map((u) => `${u.region}:${u.value} ${u.label}`) },
        "catalogue: the provider lists operators the catalogue has no rules for (not offered)",
      );
    }
    await cache
      .save(listing)
      .catch((err) => logger.warn({ err: errorText(err) }, "catalogue: cache write failed"));
    return true;
  }

  /** A refresh, never two at once; a failure keeps the offer as it was. */
  function refresh(): Promise<boolean> {
    if (!running) {
      running = refreshOnce()
        .catch((err) => {
          logger.warn({ err: errorText(err) }, "catalogue: refresh failed");
          return false;
        })
        .finally(() => {
          running = null;
        });
    }
    return running;
  }

  /** The cached copy, when the lookups failed at start. */
  async function fallBack(): Promise<void> {
    const cached = await cache.load().catch((err) => {
      logger.warn({ err: errorText(err) }, "catalogue: cache read failed");
      return null;
    });
    // A late first refresh may have landed meanwhile: a fresher listing is never replaced.
    if (catalog.listing() !== null) return;
    if (cached) {
      apply(cached);
      logger.warn(
        { fetchedAt: new Date(cached.fetchedAtMs).toISOString() },
        "catalogue: provider lookups failed at start; using the cached listing",
      );
    } else {
      logger.warn(
        {},
        "catalogue: provider lookups failed at start and nothing is cached; offering the catalogue's rules alone",
      );
    }
  }

  return {
    refresh,
    /**
     * The first lookups, waited for at most `startWaitMs`; when they fail (or take longer) the
     * cached copy or the rules serve until a refresh succeeds. Never throws.
     */
    async start(): Promise<void> {
      const first = refresh();
      const waitMs = opts.startWaitMs ?? 5_000;
      let waited: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        waited = setTimeout(() => resolve("late"), waitMs);
      });
      const outcome = await Promise.race([first, late]);
      clearTimeout(waited);
      if (outcome !== true && catalog.listing() === null) await fallBack();
      if (opts.refreshMs > 0 && !stopped) {
        timer = setInterval(() => void refresh(), opts.refreshMs);
        timer.unref?.();
      }
    },
    /**
     * No further refresh. One under way is not waited for: with a hanging provider it could outlast
     * the shutdown's bound; closing the provider client (after this) aborts it.
     */
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}
